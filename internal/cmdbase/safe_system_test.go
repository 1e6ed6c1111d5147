package cmdbase_test

import (
	"testing"
)

// systemExamples are the examples of safe_system.go's table: each of its
// commands in a command that must be allowed and, where it has a form that
// is not read-only, in one that must ask.
var systemExamples = []safeGroup{
	{"more systemd queries, alternatives and locales",
		[]string{
			"systemd-escape foo/bar", "systemd-escape -p --suffix=mount /mnt/x", "systemd-escape -u foo-bar",
			"systemd-inhibit --list", "bootctl", "bootctl status", "bootctl list", "machinectl", "machinectl list-images",
			"homectl list", "portablectl list", "update-alternatives --list editor", "update-alternatives --display java",
			"update-alternatives --get-selections", "localedef --list-archive"},
		[]string{
			"systemd-escape --frob x", "systemd-inhibit sleep 10", "systemd-inhibit --what=sleep sh", "bootctl install",
			"bootctl update", "bootctl set-default x", "machinectl start x", "machinectl shell x", "homectl remove u",
			"portablectl attach x", "update-alternatives --set editor /usr/bin/vim", "update-alternatives --config editor",
			"update-alternatives --install /usr/bin/x x /opt/x 1", "update-alternatives --remove x /opt/x",
			"localedef -i en_US -f UTF-8 en_US.UTF-8", "localedef --delete-from-archive x"}},

	{"accounts, network tables, devices and GPUs",
		[]string{
			"lslogins", "lslogins -u", "lslogins root", "faillog -a", "faillog -u root", "chage -l root",
			"pwck -r", "grpck -r", "domainname", "nisdomainname", "ypdomainname", "ifconfig", "ifconfig -a", "ifconfig eth0",
			"route -n", "route -n -A inet6", "arp -n", "arp -an", "losetup", "losetup -a", "losetup -l", "zramctl",
			"blockdev --report", "devlink dev show", "devlink port", "rdma link show", "rdma dev", "nvidia-smi",
			"nvidia-smi -L", "nvidia-smi --query-gpu=name,memory.used --format=csv,noheader", "nvidia-smi -q -i 0"},
		[]string{
			"lastb -f ~/.ssh/id_rsa", "lslogins --frob", "faillog -r", "faillog -l 3 -u root", "chage root",
			"chage -M 90 root", "pwck", "grpck", "pwck /etc/passwd", "domainname example.org", "nisdomainname x",
			"ypdomainname x", "ifconfig eth0 down", "ifconfig eth0 10.0.0.1", "route", "route add default gw 1.1.1.1",
			"route -n del default", "arp -a", "arp -s 1.2.3.4 aa:bb:cc:dd:ee:ff", "arp -n -d 1.2.3.4", "losetup -f x.img",
			"losetup /dev/loop0 x.img", "losetup -d /dev/loop0", "losetup -D", "zramctl -s 1G /dev/zram0", "zramctl --reset x",
			"blockdev --setro /dev/sda", "blockdev --flushbufs /dev/sda", "devlink dev reload pci/0000:01:00.0",
			"devlink monitor", "rdma link add x", "rdma monitor", "nvidia-smi -pm 1", "nvidia-smi -f log.txt",
			"nvidia-smi -l 1", "nvidia-smi -r", "nvidia-smi --gpu-reset"}},

	{"sysstat's reports",
		[]string{
			"sar", "sar.sysstat -u 1 1", "sar -u", "sar 1 3", "sar -u ALL 1 2", "sar -r", "sar -P ALL 1 1", "sar -n DEV 1 3", "sar -q",
			"sar -f /var/log/sysstat/sa01", "sar -f /var/log/sysstat/sa01 60", "sar -1", "sar -s 10:00 -e 11:00", "sar -dp"},
		[]string{
			"sar 1", "sar.sysstat 1", "sar -u 5", "sar -o out.dat 1 3", "sar -o", "sar --frob", "sar -x", "sar 1 2 3", "sar $N 3",
			"sar -f ~/.ssh/id_rsa"}},

	{"processes, kernel and hardware",
		[]string{
			"dmesg", "dmesg -T --level=err", "hostname", "hostname -s", "hostname -I", "ipcs", "lastlog", "locale", "lsb_release -a",
			"lshw -short", "lsmod", "lsof -nP -i :8080", "lsof -n", "lsof -lnP -p 1", "lsof /var/log/syslog", "lsof +D /tmp",
			"netstat -i", "netstat -s", "netstat --numeric-hosts -t", "last -n 5", "who -b", "lspci", "lsusb", "mount", "mount -l", "mpstat", "netstat -tlnp",
			"pidof nginx", "ps aux", "ps -ef", "ss -tlnp", "stty -a", "stty size", "top -b -n 1", "tput cols", "vmstat 1 5",
			"iostat", "ip6tables-save", "ip addr", "ip -br link show", "ip route get 1.1.1.1"},
		[]string{
			"lsof -i :8080", "lsof", "lsof -p 1", "lsof -cnginx", "netstat -tulp", "netstat", "ss -r", "ss --resolve -t",
			"last -d", "last --dns", "who --lookup", "hostname -f", "hostname --fqdn", "hostname -A", "hostname -i", "hostname -d", "dmesg -C", "dmesg --clear", "hostname newname", "mount /dev/sdb1 /mnt", "ps e", "ps -o pid,environ",
			"ss -K dst 1.2.3.4", "stty -echo", "tput reset", "top", "ip link set eth0 down",
			"ip route add default via 1.1.1.1", "ip -b cmds.txt", "ip netns exec x sh", "ip6tables-save -f /etc/x",
			"ischroot x", "isosize ~/.ssh/id_rsa", "localectl set-locale LANG=C", "loginctl terminate-user u", "lsirq --frob",
			"mountpoint a b", "prtstat self", "systemd-cgls --frob", "systemd-id128 new --frob", "systemd-path --frob",
			"getenforce x", "apparmor_status --frob"}},
	{"documentation",
		[]string{
			"man ls", "man 5 crontab", "man -k socket", "man -f ls", "man -w bash", "man --sections=1,8 mount",
			"man -s 3 printf", "whatis ls", "whatis -s 1 ls", "apropos -e socket", "apropos -a tcp socket", "info coreutils",
			"info -k sort", "info --apropos=sort", "man -P cat ls", "man --pager=cat ls", "info -n 'ls invocation' coreutils"},
		[]string{
			"man -H ls", "man --html=firefox ls", "man -P 'sh -c id' ls", "man --pager=less ls", "man -Pcat -P sh ls",
			"man -P 'cat;id' ls", "man -l ./x.1", "man ./x.1", "man /tmp/x.1", "man -M ./man ls", "man -C ./cfg ls", "man -u",
			"man -X ls", "man -Z ls", "man $PAGE", "man -p x ls", "whatis -C ./cfg ls", "whatis -M /tmp ls",
			"apropos -m sys x", "info -o out.txt ls", "info --output=x ls", "info --dribble=x ls", "info -f ./x.info",
			"info --init-file=x ls", "info -d /tmp ls", "man --frobnicate ls", "info credentials.json", "man ~", "wdctl"}},
	{"system queries",
		[]string{
			"lsmem", "lsmem -J --summary", "lsirq", "pidstat", "pidstat -d 1 5", "pidstat -p 1", "sysctl -a",
			"sysctl kernel.hostname", "sysctl -n vm.swappiness", "lsblk -f", "lscpu", "findmnt /", "lsns", "lslocks", "lsipc",
			"free -h", "uptime", "w", "who", "last", "getent passwd", "pstree -p", "pgrep -a nginx"},
		[]string{
			"sysctl -w kernel.x=1", "sysctl kernel.hostname=x", "sysctl -p", "sysctl -f /etc/x.conf", "sysctl --system",
			"sysctl --load=x", "pmap 1", "pmap -x 1234", "pwdx 1", "pmap -n 1", "pmap --create-rc", "pmap -N x 1",
			"pmap -C x 1", "pmap self", "pidstat -e sleep 1", "pwdx $PID", "getent shadow", "getent gshadow root",
			"lsmem --sysroot /tmp", "lsmem x"}},
	{"more coreutils and util-linux",
		[]string{
			"ischroot", "manpath", "manpath -g", "mountpoint /", "mountpoint -q /mnt", "filefrag -v a",
			"dumpe2fs -h disk.img", "zdump Europe/Paris", "zdump -v UTC", "prtstat 1", "slabtop -o", "utmpdump /var/log/wtmp",
			"fuser -v 80/tcp", "fuser -m /mnt", "mesg", "ldconfig -p", "run-parts --test /etc/cron.daily",
			"run-parts --list /etc/cron.daily", "chrt -p 1", "chrt -m", "taskset -p 1", "taskset -cp 1", "choom -p 1",
			"prlimit", "prlimit --pid 1", "prlimit -p 1 --nofile", "swapon --show", "swapon -s", "isosize a.iso"},
		[]string{
			"manpath -C x", "slabtop", "utmpdump -o x /var/log/wtmp", "utmpdump -r < x", "utmpdump -f /var/log/wtmp",
			"fuser -k 80/tcp", "fuser -ki /mnt", "fuser -9 80/tcp", "mesg y", "mesg n", "ldconfig", "ldconfig -v",
			"ldconfig -C x -p", "run-parts /etc/cron.daily", "run-parts --report /etc/cron.daily", "chrt -p 10 1",
			"chrt -f 10 cmd", "chrt 10 cmd", "taskset 0x3 cmd", "taskset -p 0x3 1", "choom -p 1 -n 10", "choom -n 10 cmd",
			"prlimit --nofile=10", "prlimit -n10", "prlimit -n 10", "prlimit cmd", "prlimit --pid 1 --nofile=1:2",
			"swapon /dev/sdb", "swapon -a", "swapon", "filefrag ~/.ssh/id_rsa", "dumpe2fs -h /dev/sda1", "findfs LABEL=root",
			"zdump ~/.ssh/id_rsa"}},
	{"systemd",
		[]string{
			"systemd-analyze", "systemd-analyze blame", "systemd-analyze critical-chain", "systemd-analyze security",
			"systemd-analyze cat-config systemd/system.conf", "systemd-analyze calendar daily", "systemd-analyze timespan 1h",
			"systemd-analyze cat-config tmpfiles.d", "systemd-analyze cat-config /etc/systemd/logind.conf",
			"systemd-analyze log-level", "systemd-analyze --user unit-paths", "systemd-detect-virt", "systemd-detect-virt -c",
			"systemd-path", "systemd-path user-runtime", "systemd-id128 boot-id", "systemd-cgls", "systemd-cgtop -b -n 1",
			"busctl", "busctl list", "busctl --user list", "busctl status org.freedesktop.DBus", "networkctl",
			"networkctl status", "resolvectl status", "coredumpctl list", "systemctl status nginx", "systemctl list-units",
			"journalctl -u nginx", "hostnamectl status", "timedatectl status", "localectl status", "loginctl list-sessions"},
		[]string{
			"systemd-analyze dump", "systemd-analyze verify foo.service", "systemd-analyze log-level debug",
			"systemd-analyze service-watchdogs no", "systemd-analyze -H host blame", "systemd-analyze --host=x blame",
			"systemd-analyze -M c blame", "systemd-analyze verify --generators=yes x.service",
			"systemd-analyze --root=/x verify x", "systemd-analyze cat-config systemd/network/wg0.netdev",
			// cat-config shows any file below /etc, /run and /usr/lib; units hold Environment=
			"systemd-analyze cat-config wireguard/wg0.conf", "systemd-analyze cat-config ssl/private/server.pem",
			"systemd-analyze cat-config kubernetes/admin.conf", "systemd-analyze cat-config systemd/system/app.service",
			"systemd-analyze cat-config /etc/openvpn/client.conf", "systemd-analyze cat-config systemd/../wpa_supplicant/w.conf",
			// lastb prints the user names of failed logins (/var/log/btmp): passwords typed as names
			"lastb", "lastb -n 10",
			"systemd-analyze frobnicate", "systemd-detect-virt x", "busctl introspect org.x /", "busctl tree",
			"busctl call org.x / org.x M", "busctl monitor", "busctl capture", "busctl set-property a b c d e",
			"busctl -H host list", "busctl --address=unix:path=/x list", "networkctl up eth0", "networkctl cat wg0",
			"networkctl reload", "resolvectl query example.com", "resolvectl dns eth0 1.1.1.1", "coredumpctl debug",
			"coredumpctl dump -o x", "systemd-cgtop", "systemd-cgtop -b", "journalctl --vacuum-size=1M",
			"journalctl -H user@example.com", "journalctl --host=example.com", "journalctl -b -H x", "journalctl --rotate",
			"systemctl restart nginx", "hostnamectl set-hostname x", "timedatectl set-ntp false"}},
	{"binaries and metadata",
		[]string{
			"modinfo ext4", "modinfo -F version ext4", "dmidecode -t memory", "dmidecode -s system-product-name",
			"ethtool eth0", "ethtool -i eth0"},
		[]string{
			"dmidecode --dump-bin out.bin", "dmidecode --from-dump x", "dmidecode -d /dev/mem", "ethtool -s eth0 speed 10",
			"ethtool -E eth0 magic 1", "ethtool -K eth0 tso off", "ethtool -i eth0 eth1", "modinfo --unknown x"}},
	{"firewall and traffic control",
		[]string{
			"iptables-save", "iptables-save -t filter", "tc qdisc", "tc -s qdisc show dev eth0", "tc filter show dev eth0",
			"bridge link", "bridge fdb show", "bridge -d vlan show", "rfkill", "rfkill list wifi"},
		[]string{
			"iptables -L", "iptables -F", "iptables -A INPUT -j DROP", "iptables -L -Z -n", "iptables -P INPUT DROP",
			"iptables -D INPUT 1", "iptables-save -f /etc/x", "iptables-save -M /tmp/evil", "nft flush ruleset",
			"nft list ruleset \\; flush ruleset", "nft 'list ruleset; flush ruleset'", "nft -f rules.nft",
			"nft -N list ruleset", "tc qdisc add dev eth0 root netem", "tc qdisc del dev eth0 root", "tc -b batch.txt",
			"tc exec bpf", "tc monitor", "bridge monitor", "bridge fdb add x dev eth0", "bridge link set dev eth0 x",
			"rfkill block wifi", "rfkill unblock all", "rfkill event"}},
	{"status tools",
		[]string{
			"getenforce", "sestatus -v", "aa-status", "apparmor_status --json", "sensors", "sensors -j coretemp-isa-0000",
			"upower -e", "upower -i /org/freedesktop/UPower/devices/battery_BAT0", "upower -d", "acpi -V", "acpi -b",
			"numactl --hardware", "numactl -s", "nmcli", "nmcli general status", "nmcli g", "nmcli device status",
			"nmcli d st", "nmcli dev show eth0", "nmcli connection show", "nmcli c s",
			"nmcli -t -f NAME,UUID con show --active", "nmcli radio wifi", "nmcli networking", "ufw status",
			"ufw status verbose", "ufw show listening", "ufw app list"},
		[]string{
			"sestatus x", "aa-status --kill", "sensors -s", "sensors -c x.conf", "upower --monitor", "upower -m",
			"acpi -d /tmp", "numactl", "numactl --cpunodebind=0 make", "numactl -H make", "nmcli -s connection show wifi",
			"nmcli --show-secrets c s wifi", "nmcli -a c up wifi", "nmcli c up wifi", "nmcli c delete x",
			"nmcli c modify x ipv4.dns 1.1.1.1", "nmcli d s", "nmcli d set eth0 managed no",
			"nmcli d wifi connect x password y", "nmcli d disconnect eth0", "nmcli general hostname newname",
			"nmcli g reload", "nmcli networking off", "nmcli networking connectivity check", "nmcli radio wifi off",
			"nmcli monitor", "nmcli agent secret", "ufw enable", "ufw allow 22", "ufw status extra", "ufw show x",
			"ufw --dry-run allow 22", "ufw app update all"}},
	{"file names and keys",
		[]string{
			"ssh-keygen -l -f id.pub", "ssh-keygen -lf key.pub", "ssh-keygen -F github.com", "atq"},
		[]string{
			"ssh-keygen", "ssh-keygen -t ed25519", "ssh-keygen -R host", "ssh-keygen -H", "ssh-keygen -p -f key",
			"ssh-keygen -y -f ~/.ssh/id_rsa", "ssh-keygen -l -f ~/.ssh/id_rsa", "atq -x"}},
	{"version and help",
		[]string{
			"ip -V"},
		[]string{
			"top -v"}},
}

func TestSafeSystem(t *testing.T) { checkSafeExamples(t, systemExamples) }

package policy

import (
	"strings"
	"testing"
)

// Each family of safelist_longtail.go with commands that must be allowed
// and commands that must ask: options that write, run programs or reach
// the network, unknown options, and secret files as operands.
func TestLongTailFamilies(t *testing.T) {
	e := newEngine(t, nil)
	for _, c := range []struct {
		family     string
		allow, ask []string
	}{
		{"documentation",
			[]string{"man ls", "man 5 crontab", "man -k socket", "man -f ls", "man -w bash", "man --sections=1,8 mount",
				"man -s 3 printf", "whatis ls", "whatis -s 1 ls", "apropos -e socket", "apropos -a tcp socket", "info coreutils",
				"info -k sort", "info --apropos=sort", "man -P cat ls", "man --pager=cat ls", "hash", "hash -l", "hash -t ls", "info -n 'ls invocation' coreutils", "help cd", "help -d cd", "help"},
			[]string{"man -H ls", "man --html=firefox ls", "man -P 'sh -c id' ls", "man --pager=less ls", "man -Pcat -P sh ls", "man -P 'cat;id' ls", "hash ls", "hash -p /tmp/evil ls", "hash -r", "man -l ./x.1",
				"man ./x.1", "man /tmp/x.1", "man -M ./man ls", "man -C ./cfg ls", "man -u", "man -X ls", "man -Z ls",
				"man $PAGE", "man -p x ls", "whatis -C ./cfg ls", "whatis -M /tmp ls", "apropos -m sys x", "info -o out.txt ls",
				"info --output=x ls", "info --dribble=x ls", "info -f ./x.info", "info --init-file=x ls", "info -d /tmp ls", "man --frobnicate ls", "info credentials.json", "man ~", "wdctl"}},
		{"formatters",
			[]string{"pr README.md", "pr -2 -t README.md", "pr -n:3 -h Title README.md", "pr +2 -l 40 README.md", "pr *.md",
				"tsort deps.txt", "sum README.md", "sum -r README.md", "shuf README.md", "shuf -n 3 -e a b c", "shuf -i 1-10",
				"iconv -f latin1 -t utf-8 a.txt", "iconv -l", "basenc --base16 README.md", "basenc -d --base32 x",
				"col -b < x", "colrm 1 4 < x", "fold -w 80 README.md", "column -t a.txt", "nl a", "tac a", "rev a",
				"cmp a b", "comm a b", "diff -u a b", "join a b", "paste a b", "numfmt --to=iec 1024", "expand a", "unexpand a", "fmt a"},
			[]string{"pr ~/.ssh/id_rsa", "pr -o5 ~/.aws/credentials", "tsort .env", "sum ~/.ssh/id_ed25519", "shuf -o out.txt a",
				"shuf --output=out a", "shuf --random-source=/dev/urandom a", "iconv -o out.txt a", "iconv --output=x a",
				"iconv -f x -t y ~/.netrc", "basenc --base64 ~/.ssh/id_rsa", "pr /dev/zero", "nl ~/.ssh/id_rsa",
				"column ~/.aws/credentials", "fold .env", "pr $FILE", "shuf -x a", "col x", "colrm a"}},
		{"system queries",
			[]string{"pathchk -p a/b", "hostid", "namei -l /usr/bin/ls", "lsattr a", "lsmem", "lsmem -J --summary", "lsirq",
				"pidstat", "pidstat -d 1 5", "pidstat -p 1", "sysctl -a",
				"sysctl kernel.hostname", "sysctl -n vm.swappiness", "kill -l", "kill -l 9", "kill -L", "lsblk -f", "lscpu",
				"findmnt /", "lsns", "lslocks", "lsipc", "free -h", "uptime", "w", "who", "last", "id", "groups",
				"getent passwd", "nproc", "arch", "uname -a", "pstree -p", "pgrep -a nginx"},
			[]string{"sysctl -w kernel.x=1", "sysctl kernel.hostname=x", "sysctl -p", "sysctl -f /etc/x.conf", "sysctl --system",
				"sysctl --load=x", "pmap 1", "pmap -x 1234", "pwdx 1", "cat /proc/1/maps", "pmap -n 1", "pmap --create-rc", "pmap -N x 1", "pmap -C x 1", "pmap self", "pidstat -e sleep 1",
				"kill 1234", "kill -9 1234", "kill -l 9 1234", "kill -s TERM 1", "namei ~/.ssh/id_rsa", "lsattr ~/.ssh/id_rsa",
				"pwdx $PID", "getent shadow", "getent gshadow root", "lsmem --sysroot /tmp", "lsmem x"}},
		{"more coreutils and util-linux",
			[]string{"diff3 a b c", "diff3 -m a b c", "sdiff a b", "sdiff -w 120 -s a b", "hd a.bin", "dircolors -p", "dircolors -b",
				"getopt -o ab: -- -a -b x", "ischroot", "manpath", "manpath -g", "mcookie", "mountpoint /", "mountpoint -q /mnt",
				"filefrag -v a", "dumpe2fs -h disk.img", "zdump Europe/Paris", "zdump -v UTC", "prtstat 1",
				"slabtop -o", "utmpdump /var/log/wtmp", "fuser -v 80/tcp", "fuser -m /mnt", "mesg", "ldconfig -p",
				"run-parts --test /etc/cron.daily", "run-parts --list /etc/cron.daily", "chrt -p 1", "chrt -m", "taskset -p 1",
				"taskset -cp 1", "ionice", "ionice -p 1", "choom -p 1", "prlimit", "prlimit --pid 1", "prlimit -p 1 --nofile",
				"swapon --show", "swapon -s", "isosize a.iso"},
			[]string{"diff3 --diff-program=sh a b c", "sdiff -o out a b", "sdiff --output=x a b", "sdiff --diff-program=x a b",
				"diff3 ~/.ssh/id_rsa b c", "sdiff .env b", "hd ~/.ssh/id_rsa", "hd -f fmt a", "dircolors ~/.ssh/id_rsa",
				"manpath -C x", "mcookie -f ~/.ssh/id_rsa", "slabtop", "utmpdump -o x /var/log/wtmp", "utmpdump -r < x",
				"utmpdump -f /var/log/wtmp", "fuser -k 80/tcp", "fuser -ki /mnt", "fuser -9 80/tcp", "mesg y", "mesg n", "ldconfig",
				"ldconfig -v", "ldconfig -C x -p", "run-parts /etc/cron.daily", "run-parts --report /etc/cron.daily",
				"chrt -p 10 1", "chrt -f 10 cmd", "chrt 10 cmd", "taskset 0x3 cmd", "taskset -p 0x3 1", "ionice -c 3 -p 1",
				"ionice -n 7 cmd", "ionice cmd", "choom -p 1 -n 10", "choom -n 10 cmd", "prlimit --nofile=10", "prlimit -n10",
				"prlimit -n 10", "prlimit cmd", "prlimit --pid 1 --nofile=1:2", "swapon /dev/sdb", "swapon -a", "swapon",
				"filefrag ~/.ssh/id_rsa", "dumpe2fs -h /dev/sda1", "findfs LABEL=root", "getopt -o a -- $(rm x)", "zdump ~/.ssh/id_rsa"}},
		{"systemd",
			[]string{"systemd-analyze", "systemd-analyze blame", "systemd-analyze critical-chain", "systemd-analyze security",
				"systemd-analyze cat-config systemd/system.conf", "systemd-analyze calendar daily",
				"systemd-analyze timespan 1h", "systemd-analyze log-level", "systemd-analyze --user unit-paths",
				"systemd-detect-virt", "systemd-detect-virt -c", "systemd-path", "systemd-path user-runtime", "systemd-id128 boot-id",
				"systemd-cgls", "systemd-cgtop -b -n 1", "busctl", "busctl list", "busctl --user list", "busctl status org.freedesktop.DBus",
				"networkctl", "networkctl status", "resolvectl status", "coredumpctl list", "systemctl status nginx",
				"systemctl list-units", "journalctl -u nginx", "hostnamectl status", "timedatectl status", "localectl status",
				"loginctl list-sessions"},
			[]string{"systemd-analyze dump", "systemd-analyze verify foo.service", "systemd-analyze log-level debug", "systemd-analyze service-watchdogs no",
				"systemd-analyze -H host blame", "systemd-analyze --host=x blame", "systemd-analyze -M c blame",
				"systemd-analyze verify --generators=yes x.service", "systemd-analyze --root=/x verify x", "systemd-analyze cat-config systemd/network/wg0.netdev",
				"systemd-analyze frobnicate", "systemd-detect-virt x", "busctl introspect org.x /", "busctl tree",
				"busctl call org.x / org.x M", "busctl monitor", "busctl capture", "busctl set-property a b c d e",
				"busctl -H host list", "busctl --address=unix:path=/x list", "networkctl up eth0", "networkctl cat wg0", "networkctl reload",
				"resolvectl query example.com", "resolvectl dns eth0 1.1.1.1", "coredumpctl debug", "coredumpctl dump -o x",
				"systemd-cgtop", "systemd-cgtop -b", "journalctl --vacuum-size=1M", "journalctl -H user@example.com", "journalctl --host=example.com", "journalctl -b -H x", "journalctl --rotate", "systemctl restart nginx",
				"hostnamectl set-hostname x", "timedatectl set-ntp false"}},
		{"binaries and metadata",
			[]string{"readelf -h /bin/ls", "readelf -Ws --dyn-syms /bin/ls", "readelf -x .text /bin/ls", "readelf -wi a.o",
				"objdump -d /bin/ls", "objdump -d -M intel --start-address=0x10 a.o", "objdump -h *.o", "nm -C a.o", "nm -D --defined-only /bin/ls",
				"size a.o", "size -A /bin/ls", "getfacl a", "getfacl -R src", "modinfo ext4", "modinfo -F version ext4",
				"dmidecode -t memory", "dmidecode -s system-product-name", "ethtool eth0", "ethtool -i eth0"},
			[]string{"nm --plugin ./evil.so a.o", "nm $X", "readelf -h ~/.ssh/id_rsa", "objdump -s .env", "nm ~/.gnupg/secring.gpg",
				"getfacl ~/.ssh/id_rsa", "dmidecode --dump-bin out.bin", "dmidecode --from-dump x", "dmidecode -d /dev/mem",
				"ethtool -s eth0 speed 10", "ethtool -E eth0 magic 1", "ethtool -K eth0 tso off", "ethtool -i eth0 eth1", "size --frob a",
				"modinfo --unknown x"}},
		{"firewall and traffic control",
			[]string{"iptables-save", "iptables-save -t filter", "tc qdisc",
				"tc -s qdisc show dev eth0", "tc filter show dev eth0", "bridge link", "bridge fdb show", "bridge -d vlan show",
				"rfkill", "rfkill list wifi"},
			[]string{"iptables -L", "iptables -F", "iptables -A INPUT -j DROP", "iptables -L -Z -n", "iptables -P INPUT DROP",
				"iptables -D INPUT 1", "iptables-save -f /etc/x", "iptables-save -M /tmp/evil", "nft flush ruleset",
				"nft list ruleset \\; flush ruleset", "nft 'list ruleset; flush ruleset'", "nft -f rules.nft", "nft -N list ruleset",
				"tc qdisc add dev eth0 root netem", "tc qdisc del dev eth0 root", "tc -b batch.txt", "tc exec bpf", "tc monitor",
				"bridge monitor", "bridge fdb add x dev eth0", "bridge link set dev eth0 x", "rfkill block wifi", "rfkill unblock all", "rfkill event"}},
		{"status tools",
			[]string{"locate nginx.conf", "locate -i -n 10 readme", "plocate -c '*.go'", "getenforce", "sestatus -v", "aa-status",
				"apparmor_status --json", "sensors", "sensors -j coretemp-isa-0000", "upower -e", "upower -i /org/freedesktop/UPower/devices/battery_BAT0",
				"upower -d", "acpi -V", "acpi -b", "numactl --hardware", "numactl -s", "nmcli", "nmcli general status", "nmcli g",
				"nmcli device status", "nmcli d st", "nmcli dev show eth0", "nmcli connection show", "nmcli c s", "nmcli -t -f NAME,UUID con show --active",
				"nmcli radio wifi", "nmcli networking", "ufw status", "ufw status verbose", "ufw show listening", "ufw app list",
				"apt-mark showmanual", "apt-mark showhold"},
			[]string{"locate ~/.ssh/id_rsa", "locate --frob x", "sestatus x", "aa-status --kill", "sensors -s", "sensors -c x.conf",
				"upower --monitor", "upower -m", "acpi -d /tmp", "numactl", "numactl --cpunodebind=0 make", "numactl -H make",
				"nmcli -s connection show wifi", "nmcli --show-secrets c s wifi", "nmcli -a c up wifi", "nmcli c up wifi", "nmcli c delete x",
				"nmcli c modify x ipv4.dns 1.1.1.1", "nmcli d s", "nmcli d set eth0 managed no", "nmcli d wifi connect x password y",
				"nmcli d disconnect eth0", "nmcli general hostname newname", "nmcli g reload", "nmcli networking off",
				"nmcli networking connectivity check", "nmcli radio wifi off", "nmcli monitor", "nmcli agent secret",
				"ufw enable", "ufw allow 22", "ufw status extra", "ufw show x", "ufw --dry-run allow 22", "ufw app update all",
				"apt-mark hold bash", "apt-mark auto x", "apt-mark -f x showauto"}},
		{"file names and keys",
			[]string{"fd", "fd -e go", "fd -H -t f config", "fd -d 2 . src", "fd --exclude node_modules test", "ssh-keygen -l -f id.pub",
				"ssh-keygen -lf key.pub", "ssh-keygen -F github.com", "atq"},
			[]string{"fd -x rm", "fd -X rm", "fd --exec cat", "fd -e go --exec-batch wc", "fd -l", "fd . ~/.ssh", "fd --frob",
				"ssh-keygen", "ssh-keygen -t ed25519", "ssh-keygen -R host", "ssh-keygen -H", "ssh-keygen -p -f key",
				"ssh-keygen -y -f ~/.ssh/id_rsa", "ssh-keygen -l -f ~/.ssh/id_rsa", "atq -x"}},
		{"packages",
			[]string{"dpkg -l", "dpkg -L bash", "dpkg -S /bin/ls", "dpkg -s bash", "dpkg-query -W", "dpkg-query -W -f '${Package}\\n'",
				"dpkg-query -l 'lib*'", "dpkg-query -S /usr/bin/ls", "apt-cache policy bash", "apt-cache show bash",
				"apt-cache search --names-only jq", "apt-cache depends --recurse bash", "apt list --installed", "apt list --upgradable",
				"apt show bash", "apt search jq", "rpm -qa", "rpm -qi bash", "rpm -ql bash", "rpm -qf /usr/bin/ls",
				"rpm -q --changelog bash", "rpm -qa --qf '%{NAME}\\n'", "pip show requests", "pip show -f requests", "pip freeze", "pip3 freeze --all",
				"pip check", "pip --version", "pip list --disable-pip-version-check", "pip3 list --no-index --format=json",
				"gem list", "gem list -l rails", "snap list", "flatpak list", "flatpak info org.x.Y"},
			[]string{"dpkg -i x.deb", "dpkg --purge bash", "dpkg-query --admindir=/tmp -l", "apt-cache gencaches",
				"apt-cache -o Dir::Cache=/tmp policy", "apt-cache -c x.conf policy", "apt install jq", "apt update", "apt list -o x=y",
				"rpm -i x.rpm", "rpm -e bash", "rpm -V bash", "rpm -qa --eval '%(id)'", "rpm -E '%(id)'", "rpm -qa --pipe sh",
				"rpm -D 'x y' -qa", "rpm -U x.rpm", "pip list", "pip3 list", "pip list --outdated --disable-pip-version-check",
				"pip install x", "pip download x", "pip freeze -r req.txt", "pip freeze -f https://x.example", "pip list -f x --disable-pip-version-check", "gem list --remote", "gem install x", "snap install x",
				"snap refresh", "flatpak install x", "flatpak update", "npm ls", "go list -m all"}},
		{"version and help",
			[]string{"docker --version", "sed --version", "awk --version", "tar --version", "gzip --version", "make --help",
				"ip -V", "node --help", "python3 --help", "vim --version", "emacs --version",
				"psql --version", "sqlite3 --version", "nginx -v", "apt-get --version", "ls --help", "grep --version", "go version"},
			[]string{"vim x", "vim --version x", "nginx", "nginx -s stop", "make", "make --help install", "node x.js",
				"node --help x", "python3 --help -c 'import os'", "psql -c 'drop table x'", "psql", "sqlite3 x.db",
				"docker --version --host=x", "tar --version -xf x.tar", "cargo --version", "yarn --version", "terraform version",
				"mvn -v", "gradle --version", "top -v", "java -help", "nvim --version", "sed --version -i s/a/b/ f", "apt-get install x", "npm --version"}},
	} {
		for _, cmd := range c.allow {
			if d := decideCmd(e, cmd, testCC); d.Decision != Allow {
				t.Errorf("%s: %q: %s, want allow (%s)", c.family, cmd, d.Decision, strings.Join(d.Reasons, "; "))
			}
		}
		for _, cmd := range c.ask {
			if d := decideCmd(e, cmd, testCC); d.Decision == Allow {
				t.Errorf("%s: %q allowed, want it asked", c.family, cmd)
			}
		}
	}
}

// Every entry of the long-tail table parses its own options: an option
// the manual does not document as read-only asks.
func TestLongTailUnknownOptionsAsk(t *testing.T) {
	e := newEngine(t, nil)
	for name, spec := range builtinSafe {
		if spec.args == nil {
			continue
		}
		for _, bad := range []string{"--nb-unknown-option", "-j9"} {
			cmd := name + " " + bad
			if strings.ContainsRune(spec.args.flags+spec.args.values, 'j') && bad == "-j9" {
				continue
			}
			if d := decideCmd(e, cmd, testCC); d.Decision == Allow {
				t.Errorf("%q allowed", cmd)
			}
		}
	}
}

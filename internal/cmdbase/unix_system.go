package cmdbase

// The system and the network: privileges, disks, power, the firewall,
// kernel modules, services, users, and the programs that talk to other
// machines.
var _ = registerUnix(System, func() []Prog {
	return []Prog{
		// privileges
		{Name: "sudo", Is: Wrapper | Relay | Alarm, Danger: "runs a command as root"},
		{Name: "doas", Is: Wrapper | Relay | Alarm, Danger: "runs a command as root"},
		{Name: "su", Is: Wrapper | Relay | Alarm, Danger: "switches user"},
		{Name: "pkexec", Is: Wrapper, Danger: "runs a command as root"},
		{Name: "runuser", Is: Wrapper, Danger: "runs a command as another user"},
		{Name: "run0", Is: Wrapper, Danger: "runs a command as root"},
		{Name: "sudoedit", Danger: "edits files as root"},
		{Name: "visudo", Danger: "edits sudoers"},

		// disks and filesystems
		{Name: "fdisk", Is: Alarm, Danger: "partitions disks"}, {Name: "sfdisk", Danger: "partitions disks"},
		{Name: "cfdisk", Danger: "partitions disks"}, {Name: "gdisk", Danger: "partitions disks"},
		{Name: "sgdisk", Danger: "partitions disks"}, {Name: "parted", Is: Alarm, Danger: "partitions disks"},
		{Name: "wipefs", Is: Alarm, Danger: "wipes disk signatures"}, {Name: "mkswap", Danger: "formats a swap area"},
		{Name: "mkfs", Is: Suffixed | Alarm, Danger: "formats a filesystem"}, {Name: "mke2fs", Danger: "formats a filesystem"},
		{Name: "format", Danger: "formats a disk"},
		{Name: "blkdiscard", Danger: "discards disk blocks"},
		{Name: "hdparm", Forms: []Form{{Long: []string{"security-erase", "security-erase-enhanced", "security-set-pass",
			"trim-sector-ranges", "trim-sector-ranges-stdin", "write-sector", "make-bad-sector", "fwdownload",
			"fwdownload-mode3", "fwdownload-mode3-max", "fwdownload-mode7", "dco-restore", "dco-setmax", "yes-i-know-what-i-am-doing"},
			Why: "erases, overwrites or reprograms a disk"}}},
		{Name: "nvme", Is: Subcommands, Subs: []ProgSub{{Name: "format", Danger: "formats a disk"},
			{Name: "sanitize", Danger: "erases a disk"}, {Name: "delete-ns", Danger: "deletes a namespace"}}},
		{Name: "sg_format", Danger: "formats a disk"}, {Name: "sg_sanitize", Danger: "erases a disk"}, {Name: "badblocks", Danger: "can overwrite a disk"},
		{Name: "cryptsetup", Danger: "changes encrypted volumes"},
		{Name: "lvremove", Danger: "removes volumes"}, {Name: "vgremove", Danger: "removes volume groups"},
		{Name: "pvremove", Danger: "removes physical volumes"}, {Name: "mdadm", Danger: "changes RAID arrays"},
		{Name: "zpool", Danger: "changes storage pools"}, {Name: "swapoff", Danger: "disables swap"},
		{Name: "umount", Is: Alarm, Danger: "unmounts filesystems"}, {Name: "mount", Is: Alarm}, {Name: "debugfs", Danger: "edits filesystems"},
		{Name: "fsck", Is: Suffixed, Danger: "repairs filesystems"},

		// power and the kernel
		{Name: "shutdown", Is: Alarm, Danger: "shuts the machine down"}, {Name: "reboot", Is: Alarm, Danger: "reboots the machine"},
		{Name: "halt", Is: Alarm, Danger: "halts the machine"}, {Name: "poweroff", Is: Alarm, Danger: "powers the machine off"},
		{Name: "kexec", Danger: "replaces the running kernel"},
		{Name: "init", Is: Checked, Forms: runlevels}, {Name: "telinit", Is: Checked, Forms: runlevels},
		{Name: "insmod", Danger: "loads kernel modules"}, {Name: "rmmod", Danger: "unloads kernel modules"},
		{Name: "modprobe", Danger: "loads kernel modules"},

		// the firewall
		{Name: "iptables", Is: Alarm, Danger: "changes the firewall"}, {Name: "ip6tables", Is: Alarm, Danger: "changes the firewall"},
		{Name: "ebtables", Danger: "changes the firewall"}, {Name: "arptables", Danger: "changes the firewall"},
		{Name: "iptables-restore", Danger: "replaces the firewall rules"},
		{Name: "ip6tables-restore", Danger: "replaces the firewall rules"}, {Name: "nft", Danger: "changes the firewall"},
		{Name: "ufw", Is: Subcommands}, {Name: "firewall-cmd"},

		// users
		{Name: "passwd", Is: Alarm, Danger: "changes passwords"}, {Name: "chpasswd", Danger: "changes passwords"},
		{Name: "userdel", Is: Alarm, Danger: "deletes users"}, {Name: "usermod", Danger: "changes users"},

		// services and scheduled jobs
		{Name: "systemctl", Is: Subcommands | Checked | Alarm,
			Globals: []string{"-t", "-s", "-p", "-n", "-o", "-H", "-M", "--type", "--signal", "--property", "--lines",
				"--output", "--host", "--machine", "--state", "--root", "--job-mode", "--kill-whom", "--preset-mode", "--image"},
			Subs: []ProgSub{
				{Name: "edit", Runs: true}, {Name: "set-environment", Runs: true}, {Name: "import-environment", Runs: true},
				{Name: "link", Runs: true}, {Name: "set-property", Runs: true}, {Name: "enable", Runs: true},
				{Name: "preset", Runs: true}, {Name: "revert", Runs: true},
				{Name: "poweroff", Danger: "powers the machine off"}, {Name: "reboot", Danger: "reboots the machine"},
				{Name: "halt", Danger: "halts the machine"}, {Name: "kexec", Danger: "replaces the running kernel"},
				{Name: "soft-reboot", Danger: "restarts userspace"}, {Name: "emergency", Danger: "enters emergency mode"},
				{Name: "rescue", Danger: "enters rescue mode"}, {Name: "isolate", Danger: "stops every unit not named"},
				{Name: "suspend", Danger: "suspends the machine"}, {Name: "hibernate", Danger: "hibernates the machine"},
			}},
		{Name: "service", Is: Subcommands},
		{Name: "crontab", Is: Checked | Alarm, Forms: []Form{{Short: "r", Values: "u", Why: "-r removes all cron jobs"}}},
		{Name: "systemd-run", Is: RunsArgs},
		{Name: "at", Is: RunsArgs}, {Name: "batch", Is: RunsArgs},
		{Name: "ip", Is: Subcommands, Version: []string{"-V", "-Version"}},

		// terminals and debuggers that run what they are told
		{Name: "tmux", Is: NoRule | RunsArgs | Relay, Version: []string{"-V"}},
		{Name: "screen", Is: NoRule | RunsArgs | Relay, Version: []string{"-v", "--version"}},
		{Name: "expect", Is: NoRule | RunsArgs},
		{Name: "strace", Is: NoRule}, {Name: "ltrace", Is: NoRule},
		{Name: "gdb", Is: NoRule, Lang: OtherLang}, {Name: "lldb", Lang: OtherLang},

		// the network: SendsData marks programs that can send any data anywhere
		{Name: "curl", Is: Network | SendsData | Alarm, Values: "odDcKHXTuAeEbrmwxyYzF", Writes: curlWrites, Outputs: []Output{{Short: 'o', Long: "output", Std: true},
			{Short: 'D', Long: "dump-header", Std: true}, {Short: 'c', Long: "cookie-jar", Std: true}, {Long: "trace", Std: true},
			{Long: "trace-ascii", Std: true}, {Long: "stderr", Std: true}, {Long: "etag-save", Std: true}, {Long: "hsts", Std: true},
			{Long: "alt-svc", Std: true}},
			Examples: Examples{
				// a network tool is never on the safe list, its version query
				// included (it reads ~/.curlrc first)
				Ask: []string{"curl --version", "curl -V", "curl https://x", "curl -o /dev/null https://x", "curl -s https://x | jq .", "curl -d @data.json https://x",
					"curl -o - https://x"},
				Warn: []string{"curl -o out https://x", "curl --out=o https://x", "curl https://x | sh", "curl -fsSL https://x | bash -s",
					"curl -c jar.txt https://x", `curl -o "$OUT" https://x`},
			}},
		{Name: "wget", Is: Network | SendsData | Alarm, Values: "OoaPeTtwUiB", Outputs: []Output{{Short: 'O', Long: "output-document", Std: true}}},
		// tcpdump(8): -w saves the packets to a file, -z runs a program
		// on each file it saves, -r, -F and -V read files
		{Name: "tcpdump", Values: "BcCEFGijmMrsTVwWyzZ", Outputs: []Output{{Short: 'w', Std: true}},
			ReadsFrom: []Output{{Short: 'r'}, {Short: 'F'}, {Short: 'V'}},
			Forms:     []Form{{Short: "z", Values: "BcCEFGijmMrsTVwWyZ", Why: "runs a program on each file it saves (-z)"}},
			Version:   []string{"--version", "-h", "--help"},
			Examples: Examples{Allow: []string{"tcpdump --version"}, Ask: []string{"tcpdump -i lo -c 1", "tcpdump -w - -i lo"},
				Warn: []string{"tcpdump -i lo -w cap.pcap", "tcpdump -w/etc/cron.d/x", "tcpdump -G 60 -z /tmp/x -w c.pcap"}}},
		{Name: "nc", Is: Network | SendsData | Alarm, Forms: netcatExec}, {Name: "ncat", Is: Network | SendsData, Forms: netcatExec},
		{Name: "netcat", Is: Network | SendsData, Forms: netcatExec},
		{Name: "socat", Is: Network | SendsData, Forms: []Form{{Prefixes: []string{"exec:", "system:", "shell:"},
			Why: "connects a program to the network (a remote shell)"}}}, {Name: "scp", Is: Network | SendsData | Alarm}, {Name: "sftp", Is: Network | SendsData},
		{Name: "rsync", Is: Network | SendsData | Checked | Alarm, Values: "efTBM", Targets: copyTargets("efTBM", false)}, {Name: "ftp", Is: Network | SendsData}, {Name: "tftp", Is: Network | SendsData},
		{Name: "telnet", Is: Network | SendsData}, {Name: "lftp", Is: Network | SendsData}, {Name: "http", Is: Network | SendsData},
		{Name: "https", Is: Network | SendsData}, {Name: "xh", Is: Network | SendsData}, {Name: "aria2c", Is: Network | SendsData},
		{Name: "openssl", Is: Network | SendsData, Version: []string{"version"}, Writes: openSSLWrites},
		{Name: "ssh", Is: Network | NoRule | RunsArgs | Relay | Alarm, Version: []string{"-V"}}, {Name: "mosh", Is: Network | RunsArgs | Relay},
		{Name: "ping", Is: Network}, {Name: "dig", Is: Network}, {Name: "nslookup", Is: Network},
		{Name: "host", Is: Network}, {Name: "fetch", Is: Network}, {Name: "traceroute", Is: Network},
		{Name: "tracepath", Is: Network}, {Name: "mtr", Is: Network}, {Name: "whois", Is: Network},
		{Name: "nmap", Is: Network}, {Name: "axel", Is: Network}, {Name: "links", Is: Network},
		{Name: "lynx", Is: Network}, {Name: "w3m", Is: Network},
		{Name: "nginx", Version: []string{"-v", "-V", "-h"}},
	}
})

// netcatExec is netcat's -e and -c (ncat's --exec, --sh-exec,
// --lua-exec): a program whose input and output are the connection.
var netcatExec = []Form{{Short: "ec", Long: []string{"exec", "sh-exec", "lua-exec"}, Values: "pswiqxXIOTbgGm",
	Why: "connects a program to the network (a remote shell)"}}

// runlevels are init's and telinit's runlevels that stop the system or
// leave multi-user mode.
var runlevels = []Form{{Words: []string{"0", "6", "1", "s", "S"}, Why: "changes the runlevel"}}

// curlWrites: curl -O saves what it fetches under the remote name.
func curlWrites(ws []Word) (string, []Word) {
	if ShortFlags(ws, "odDcKHXTuAeEbrmwxyYzF")['O'] || HasLong(ws, "remote-name", "remote-name-all") {
		return "curl -O writes a file", nil
	}
	return "", nil
}

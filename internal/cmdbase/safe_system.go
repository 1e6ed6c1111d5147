package cmdbase

import (
	"path"
	"slices"
	"strings"
)

// The system (cmdbase/unix_system.go): processes, the kernel and its
// hardware, services and the journal, the network's configuration,
// security status, manual pages. Query tools print; their options and
// verbs that change settings, reach another host or never end ask.
var _ = registerSafe(System, safeSystem)

// safeSystem is built on first use (safeTables).
var safeSystem = func() map[string]safeCmd {
	return map[string]safeCmd{
		"uptime": plain, "free": plain, "locale": plain, "w": plain, "lastlog": plain,
		"who": {check: whoCheck}, "last": {check: lastCheck},
		"pgrep": plain, "pidof": plain, "pstree": plain, "vmstat": plain, "iostat": plain, "mpstat": plain,
		"lsblk": plain, "lscpu": plain, "lsmod": plain, "lspci": plain, "lsusb": plain, "lshw": plain, "findmnt": plain,
		"lsns": plain, "lsipc": plain, "lslocks": plain, "ipcs": plain, "lsb_release": plain,
		"netstat": {check: netstatCheck}, "lsof": {check: lsofCheck},
		"ps":         {dynOK: false, check: psCheck},
		"top":        {check: topCheck},
		"hostname":   {check: hostnameCheck},
		"mount":      {check: mountCheck},
		"getent":     {check: getentCheck},
		"dmesg":      {check: dmesgCheck},
		"stty":       {check: sttyCheck},
		"tput":       {check: tputCheck},
		"systemctl":  {check: systemctlCheck},
		"journalctl": {check: journalctlCheck},
		// settings tools print without arguments; with them they change things
		"hostnamectl": {check: settingsCtl("hostnamectl")},
		"timedatectl": {check: settingsCtl("timedatectl")},
		"localectl":   {check: settingsCtl("localectl")},
		"loginctl":    {check: settingsCtl("loginctl")},
		"ip":          {check: ipCheck},
		"ss":          {check: ssCheck},
		// documentation lookups; pages are names, never paths (man -l, a
		// path, -P, -H, -M, -C, -u, -X, -Z, -p are not allowed)
		"man": {args: &argSpec{flags: "afkKwWiI7V?", values: "sSLeERP", operands: opNames, extra: manPager,
			longs: ltLongs("pager=", "all", "whatis", "apropos", "global-apropos", "where", "path", "location", "where-cat",
				"location-cat", "sections=", "locale=", "extension=", "encoding=", "recode=", "ignore-case", "match-case",
				"regex", "wildcard", "names-only", "no-subpages", "ascii", "no-hyphenation", "nh", "no-justification",
				"nj", "warnings?", "usage")}},
		"whatis": {args: &argSpec{flags: "dvrwlV?", values: "sL", operands: opNames,
			longs: ltLongs("debug", "verbose", "regex", "wildcard", "long", "sections=", "section=", "locale=", "usage")}},
		"apropos": {args: &argSpec{flags: "dvrewalV?", values: "sL", operands: opNames,
			longs: ltLongs("debug", "verbose", "exact", "regex", "wildcard", "and", "long", "sections=", "section=", "locale=", "usage")}},
		// info without --output, --dribble, --init-file, --file or -d
		// (info also looks for the name in the current directory: the
		// secret path rules judge it as a file)
		"info": {args: &argSpec{flags: "awOh", values: "kn", operands: opNames, reads: true,
			longs: ltLongs("all", "apropos=", "node=", "index-search=", "where", "location", "show-options", "usage", "subnodes", "vi-keys")}},
		"manpath": {args: &argSpec{flags: "cdgqV?", operands: opNone, longs: ltLongs("catpath", "debug", "global", "quiet", "usage")}},
		"lsmem": {args: &argSpec{flags: "JPabnrV", values: "oS", operands: opNone,
			longs: ltLongs("json", "pairs", "all", "bytes", "noheadings", "output=", "output-all", "raw", "split=", "summary?")}},
		"lsirq": {args: &argSpec{flags: "JPnV", values: "os", operands: opNone, longs: ltLongs("json", "pairs", "noheadings", "output=", "sort=")}},
		// (not pmap or pwdx: they show /proc/PID/maps and cwd, which the
		// secret path rules keep for a human)
		// sysstat's pidstat; -e runs a program
		"pidstat": {args: &argSpec{flags: "dHhIlRrsUuvwt", values: "pCGT", operands: opNumbers, maxOps: 2, longs: ltLongs("human", "dec=")}},
		// sysctl prints variables; NAME=VALUE, -w, -p/-f (load) and --system write
		"sysctl": {args: &argSpec{flags: "aAXbeNnqV", values: "r", operands: opNames,
			longs: ltLongs("all", "binary", "ignore", "names", "values", "quiet", "pattern=", "deprecated")}},
		"ischroot":   {args: &argSpec{flags: "ftV", operands: opNone, longs: ltLongs("default-false", "default-true")}},
		"mountpoint": {args: &argSpec{flags: "qdxV", maxOps: 1, longs: ltLongs("quiet", "nofollow", "fs-devno", "devno")}},
		"isosize":    {args: &argSpec{flags: "x", values: "d", reads: true, longs: ltLongs("sectors", "divisor=")}},
		"filefrag":   {args: &argSpec{flags: "BeksvxXV", attached: "b"}},
		"dumpe2fs":   {args: &argSpec{flags: "bfghixV", values: "o", maxOps: 1}},
		"zdump":      {args: &argSpec{flags: "ivV", values: "ct", longs: ltLongs()}},
		"prtstat":    {args: &argSpec{flags: "rV", operands: opNumbers, longs: ltLongs("raw")}},
		// slabtop once; utmpdump without -o FILE, -r or -f (endless)
		"slabtop": {args: &argSpec{flags: "oV", values: "s", operands: opNone, longs: ltLongs("once", "sort="),
			extra: slabtopExtra}},
		"utmpdump": {args: &argSpec{flags: "V", maxOps: 1, reads: true, longs: ltLongs()}},
		// fuser lists the processes using files (-k kills, -i asks)
		"fuser": {args: &argSpec{flags: "aImsuvwV46", values: "n", longs: ltLongs("all", "inode", "mount", "silent", "user", "verbose", "namespace=", "ipv4", "ipv6")}},
		// mesg without y or n prints the state
		"mesg": {args: &argSpec{flags: "v", operands: opNone, longs: ltLongs("verbose")}},
		// ldconfig -p prints the cache; without it ldconfig rebuilds it
		"ldconfig": {args: &argSpec{flags: "p", operands: opNone, longs: []string{"print-cache"},
			extra: ldconfigExtra}},
		// run-parts --test and --list print what would run
		"run-parts": {args: &argSpec{flags: "", maxOps: 1, longs: ltLongs("test", "list", "reverse", "regex=", "lsbsysinit", "verbose", "report", "exit-on-error"),
			extra: runPartsExtra}},
		// scheduling queries: with -p and one process they print; with a
		// value they set it, and without -p they run a command
		"chrt": {args: &argSpec{flags: "pamvV", operands: opNumbers, maxOps: 1, longs: ltLongs("pid", "all-tasks", "max", "verbose"),
			extra: chrtExtra}},
		"taskset": {args: &argSpec{flags: "pacV", operands: opNumbers, maxOps: 1, longs: ltLongs("pid", "all-tasks", "cpu-list"),
			extra: tasksetExtra}},
		"choom": {args: &argSpec{values: "p", operands: opNone, longs: ltLongs("pid="),
			extra: choomExtra}},
		// prlimit prints limits; a resource option with a value sets it and
		// operands are a command to run
		"prlimit": {args: &argSpec{flags: "cdefilmnqrstuvxy", values: "po", operands: opNone,
			longs: ltLongs("pid=", "output=", "noheadings", "raw", "verbose", "core", "data", "fsize", "locks", "memlock",
				"msgqueue", "nice", "nofile", "nproc", "rss", "rtprio", "rttime", "sigpending", "stack", "as", "cpu")}},
		// swapon --show / -s print the swap areas; anything else enables swap
		"swapon": {args: &argSpec{flags: "s", operands: opNone, longs: ltLongs("show?", "summary", "noheadings", "raw", "bytes"),
			extra: swaponExtra}},
		// systemd query family (-H/-M reach another host or machine;
		// systemd-analyze verify makes temporary directories, dump shows units'
		// Environment= settings)
		"systemd-analyze": {args: &argSpec{flags: "lq", verbs: []string{"", "time", "blame", "critical-chain", "plot", "dot", "unit-paths",
			"exit-status", "capability", "condition", "syscall-filter", "filesystems", "calendar", "timestamp", "timespan",
			"security", "cat-config", "unit-files", "log-level", "log-target", "service-watchdogs",
			"architectures", "has-tpm2", "pcrs", "image-policy"},
			longs: ltLongs("system", "user", "global", "no-pager", "order", "require", "fuzz=", "from-pattern=",
				"to-pattern=", "json=", "quiet", "no-legend", "threshold=", "iterations=", "base-time=", "full", "offline=", "scale-svg=", "man?"),
			extra: systemdAnalyzeExtra}},
		"systemd-detect-virt": {args: &argSpec{flags: "cvrqh", operands: opNone,
			longs: ltLongs("container", "vm", "chroot", "private-users", "cvm", "quiet", "list", "list-cvm")}},
		"systemd-path":  {args: &argSpec{operands: opNames, longs: ltLongs("suffix=", "no-pager")}},
		"systemd-id128": {args: &argSpec{flags: "puh", verbs: []string{"new", "machine-id", "boot-id", "invocation-id", "show", "var-partition-uuid"}, operands: opNames, longs: ltLongs("pretty", "uuid", "app-specific=", "value", "json=", "no-pager", "no-legend")}},
		"systemd-cgls":  {args: &argSpec{flags: "alkuxch", operands: opNames, longs: ltLongs("all", "full", "kernel", "unit", "user-unit", "xattr", "cgroup-id", "no-pager")}},
		// busctl: list and status only (introspect and tree call services,
		// which may start them; call, set-property, monitor and capture act)
		"busctl": {args: &argSpec{flags: "lj", verbs: []string{"", "list", "status"}, operands: opNames, maxOps: 1,
			longs: ltLongs("user", "system", "no-pager", "no-legend", "full", "acquired", "activatable", "unique",
				"show-machine", "augment-creds=", "json=")}},
		"networkctl":  {args: &argSpec{flags: "sanl", verbs: []string{"", "list", "status", "lldp"}, operands: opNames, longs: ltLongs("stats", "all", "full", "lines=", "no-pager", "no-legend", "json=")}},
		"resolvectl":  {args: &argSpec{verbs: []string{"", "status", "statistics"}, operands: opNames, longs: ltLongs("no-pager", "json=")}},
		"coredumpctl": {args: &argSpec{flags: "rq", verbs: []string{"", "list"}, operands: opNames, longs: ltLongs("no-pager", "no-legend", "reverse", "quiet", "since=", "until=", "json=")}},
		// systemd-cgtop is interactive and endless without --batch and -n
		"systemd-cgtop": {args: &argSpec{flags: "bcmiPkpr", values: "dn", operands: opNone, longs: ltLongs("batch", "iterations=", "delay=", "order=", "cpu?", "depth=", "recursive="),
			extra: systemdCgtopExtra}},
		// kernel modules, firmware tables, network interfaces
		"modinfo": {args: &argSpec{flags: "adlnp0Vh", values: "Fkb",
			longs: ltLongs("author", "description", "license", "filename", "parameters", "null", "field=", "set-version=", "basedir=")}},
		// dmidecode without --dump-bin FILE (writes) or -d/--from-dump (other sources)
		"dmidecode": {args: &argSpec{flags: "quhV", values: "stH", operands: opNone,
			longs: ltLongs("quiet", "string=", "type=", "handle=", "dump", "oem-string=", "no-sysfs", "no-quirks")}},
		// ethtool's query options (the capital letters and -s set things)
		"ethtool": {args: &argSpec{flags: "ikacgSTPlmIh", operands: opNames, maxOps: 1,
			longs: ltLongs("driver", "show-features", "show-offload", "show-pause", "show-coalesce", "show-ring", "statistics",
				"show-time-stamping", "show-permaddr", "show-channels", "module-info", "dump-module-eeprom", "include-statistics",
				"json", "show-eee", "show-fec", "show-priv-flags", "show-rxfh", "show-rxfh-indir", "debug=")}},
		// firewall and traffic-control listings (iptables and nft are always
		// warned, dangerous.go); iptables-save -f writes and -M runs a program
		"iptables-save":  {args: &argSpec{flags: "c", values: "t", operands: opNone, longs: ltLongs("counters", "table=")}},
		"ip6tables-save": {args: &argSpec{flags: "c", values: "t", operands: opNone, longs: ltLongs("counters", "table=")}},
		// tc and bridge (iproute2): OBJECT [show|list|ls …]
		"tc": {args: &argSpec{flags: "sdrpigjV", values: "n", verbs: []string{"qdisc", "class", "filter", "chain"}, operands: opNames,
			longs: []string{"stats", "details", "raw", "pretty", "iec", "graph", "json", "netns=", "version"}, extra: showVerb}},
		"bridge": {args: &argSpec{flags: "sdjpcV", values: "n", verbs: []string{"link", "fdb", "mdb", "vlan", "vni"}, operands: opNames,
			longs: []string{"stats", "details", "json", "pretty", "compressvlans", "netns=", "version"}, extra: showVerb}},
		// rfkill list (block, unblock and toggle change radios; event never ends)
		"rfkill": {args: &argSpec{flags: "nJr", values: "o", verbs: []string{"", "list"}, operands: opNames, longs: ltLongs("noheadings", "json", "raw", "output=", "output-all")}},
		// ssh-keygen -l (fingerprint) and -F (find a host in known_hosts);
		// key files are judged by the secret path rules
		"ssh-keygen": {args: &argSpec{flags: "lvq", values: "fEF", operands: opNone,
			extra: sshKeygenExtra}},
		// atq lists queued jobs
		"atq": {args: &argSpec{flags: "V", values: "q", operands: opNone}},
		// security and hardware status
		"getenforce": {args: &argSpec{operands: opNone}},
		"sestatus":   {args: &argSpec{flags: "vb", operands: opNone}},
		"aa-status": {args: &argSpec{flags: "v", operands: opNone,
			longs: ltLongs("enabled", "profiled", "enforced", "complaining", "verbose", "json", "pretty-json")}},
		"apparmor_status": {args: &argSpec{flags: "v", operands: opNone,
			longs: ltLongs("enabled", "profiled", "enforced", "complaining", "verbose", "json", "pretty-json")}},
		// sensors without -s (runs the configuration's set statements) or -c
		"sensors": {args: &argSpec{flags: "fAujv", operands: opNames, longs: ltLongs("fahrenheit", "no-adapter", "bus-list", "json")}},
		// upower without --monitor (never ends)
		"upower": {args: &argSpec{flags: "edwv", values: "i", operands: opNone, longs: ltLongs("enumerate", "dump", "show-info=", "wakeups")}},
		"acpi":   {args: &argSpec{flags: "bitacVsfkph", operands: opNone, longs: ltLongs("battery", "thermal", "cooling", "ac-adapter", "everything", "show-empty", "fahrenheit", "kelvin", "proc", "details")}},
		// numactl --hardware and --show print; anything else runs a command
		"numactl": {args: &argSpec{flags: "Hs", operands: opNone, longs: ltLongs("hardware", "show"),
			extra: numactlExtra}},
		// NetworkManager's client: status and listings; -s shows secrets,
		// -a asks for passwords, connectivity check reaches the network
		"nmcli": {args: &argSpec{flags: "tpo", values: "mcfeg", operands: opNames,
			longs: ltLongs("terse", "pretty", "overview", "mode=", "colors=", "fields=", "escape=", "get-values=", "active", "order="),
			extra: nmcliRead}},
		// ufw status, show and app list/info
		// sysstat's sar: reports from the daily files or samples; -o FILE
		// writes the samples to a file, an interval without a count never
		// ends
		// more of the systemd query family: escaping is a string transform;
		// inhibitor locks, boot loader status, homes and portable
		// images are listed (their other verbs act)
		"systemd-escape": {args: &argSpec{flags: "up", pure: true,
			longs: ltLongs("suffix=", "template=", "path", "unescape", "mangle", "instance")}},
		"systemd-inhibit": {args: &argSpec{operands: opNone, longs: ltLongs("list", "no-pager", "no-legend", "json="),
			extra: func(ws []word, _ string, _ []word) string {
				if !HasLong(ws, "list") {
					return "systemd-inhibit without --list runs a command"
				}
				return ""
			}}},
		"bootctl": {args: &argSpec{flags: "p", verbs: []string{"", "status", "list", "is-installed"}, operands: opNone,
			longs: ltLongs("esp-path=", "boot-path=", "no-pager", "json=", "print-esp-path", "print-boot-path", "no-variables")}},
		"homectl":     {args: &argSpec{verbs: []string{"list"}, operands: opNone, longs: ltLongs("no-pager", "no-legend")}},
		"portablectl": {args: &argSpec{verbs: []string{"list"}, operands: opNone, longs: ltLongs("no-pager", "no-legend")}},
		// the alternatives system's queries (--set, --install, --config and
		// --remove change it)
		"update-alternatives": {args: &argSpec{operands: opNames, maxOps: 1,
			longs: ltLongs("list", "display", "query", "get-selections", "quiet", "verbose"),
			extra: func(ws []word, _ string, ops []word) string {
				if !HasLong(ws, "list", "display", "query", "get-selections") {
					return "update-alternatives without a query option is not known to be read-only"
				}
				return ""
			}}},
		// localedef --list-archive (anything else compiles a locale)
		"localedef": {args: &argSpec{operands: opNone, longs: ltLongs("list-archive", "usage"),
			extra: func(ws []word, _ string, _ []word) string {
				if !HasLong(ws, "list-archive", "help", "version", "usage") {
					return "localedef compiles a locale"
				}
				return ""
			}}},
		"sar": {check: sarCheck}, "sar.sysstat": {check: sarCheck},
		// users and logins: the account list (lslogins reads the
		// shadow file for its status columns, never the hashes), failures,
		// password ageing, the read-only checks of the account files

		"lslogins": {args: &argSpec{flags: "acefGLnprsuZz", values: "glo", operands: opNames, maxOps: 1,
			longs: ltLongs("acc-expiration", "colon-separate", "export", "failed", "supp-groups", "groups=", "last", "logins=",
				"newline", "noheadings", "notruncate", "output=", "output-all", "pwd", "raw", "system-accs", "time-format=",
				"user-accs", "context", "print0", "json")}},
		"faillog": {args: &argSpec{flags: "a", values: "ut", operands: opNone, longs: ltLongs("all", "user=", "time=")}},
		"chage": {args: &argSpec{flags: "li", operands: opNames, maxOps: 1, longs: ltLongs("list", "iso8601"),
			extra: func(ws []word, _ string, _ []word) string {
				if !ShortFlags(ws, "")['l'] && !HasLong(ws, "list") {
					return "chage without -l changes password ageing"
				}
				return ""
			}}},
		"pwck":  {args: &argSpec{flags: "rqs", operands: opNone, longs: ltLongs("read-only", "quiet", "sort"), extra: readOnlyCheck}},
		"grpck": {args: &argSpec{flags: "rs", operands: opNone, longs: ltLongs("read-only", "sort"), extra: readOnlyCheck}},
		// the NIS domain name (dnsdomainname asks the resolver)
		"domainname":    {args: &argSpec{flags: "V", operands: opNone, longs: ltLongs()}},
		"nisdomainname": {args: &argSpec{flags: "V", operands: opNone, longs: ltLongs()}},
		"ypdomainname":  {args: &argSpec{flags: "V", operands: opNone, longs: ltLongs()}},
		// net-tools: interfaces, and the routing and neighbour tables with
		// -n only (without it every address is looked up in the DNS)
		"ifconfig": {args: &argSpec{flags: "asv", operands: opNames, maxOps: 1}},
		"route": {args: &argSpec{flags: "CFvnNe46", values: "A", operands: opNone, longs: ltLongs("extend", "verbose", "numeric"),
			extra: numericOnly("route")}},
		"arp": {args: &argSpec{flags: "anve", values: "iH", operands: opNone, longs: ltLongs("all", "numeric", "verbose", "device=", "hw-type="),
			extra: numericOnly("arp")}},
		// loop devices: listing and status (attaching, detaching and -f
		// change them)
		"losetup": {args: &argSpec{flags: "alnJ", values: "jO", maxOps: 1,
			longs: ltLongs("all", "list", "noheadings", "json", "raw", "output=", "output-all", "associated=", "nooverlap")}},
		"zramctl": {args: &argSpec{flags: "bnr", values: "o", operands: opNone, longs: ltLongs("bytes", "noheadings", "raw", "output=", "output-all")}},
		// block device queries: --report and the --get… ioctls only
		"blockdev": {args: &argSpec{flags: "qv", maxOps: 8, longs: []string{"report", "getsz", "getro", "getdiscardzeroes",
			"getss", "getpbsz", "getiomin", "getioopt", "getalignoff", "getmaxsect", "getbsz", "getsize64", "getsize", "getra",
			"getfra", "getdiscardzeroes", "getzonesz", "version", "help"}}},
		// iproute2's other object tools: OBJECT show|list only (monitor never
		// ends)
		"devlink": {args: &argSpec{flags: "VnjpvsiN", verbs: []string{"dev", "port", "sb", "dpipe", "resource", "region", "health", "trap", "lc"},
			operands: opNames, longs: []string{"Version", "no-nice-names", "json", "pretty", "verbose", "statistics", "iec"}, extra: showVerb}},
		"rdma": {args: &argSpec{flags: "VdjpN", verbs: []string{"dev", "link", "resource", "statistic", "system"},
			operands: opNames, longs: []string{"version", "details", "json", "pretty"}, extra: showVerb}},
		// NVIDIA's management tool: its queries (-f writes a log, -l loops,
		// and the setting options change the GPU)
		"nvidia-smi": {args: &argSpec{flags: "qLx", values: "id", operands: opNone,
			longs: ltLongs("query", "list-gpus", "xml-format", "id=", "display=", "query-gpu=", "query-compute-apps=",
				"query-accounted-apps=", "query-retired-pages=", "query-remapped-rows=", "query-supported-clocks=", "format=")}},
		"ufw": {args: &argSpec{verbs: []string{"status", "show", "app"}, operands: opNames, longs: ltLongs(),
			extra: ufwExtra}},
	}
}

func dmesgCheck(ws []word) string {
	return first(ForbidShort("cCDEn", "", ws), ForbidLong(ws, "clear", "read-clear", "console-off", "console-on", "console-level"))
}

// ssCheck: -K kills sockets, -D writes a dump, -r looks every address up
// in the DNS.
func ssCheck(ws []word) string {
	return first(ForbidShort("KDr", "fAF", ws), ForbidLong(ws, "kill", "diag", "resolve"))
}

// whoCheck: who --lookup looks the hosts of the logins up in the DNS.
func whoCheck(ws []word) string { return ForbidLong(ws, "lookup") }

// lastCheck: last -d looks the hosts of the logins up in the DNS.
func lastCheck(ws []word) string { return first(ForbidShort("d", "fnst", ws), ForbidLong(ws, "dns")) }

// netstatCheck: netstat looks the addresses of the sockets and routes it
// lists up in the DNS unless told -n; its interface and statistics
// reports list none.
func netstatCheck(ws []word) string {
	sf := ShortFlags(ws, "")
	if sf['n'] || sf['i'] || sf['s'] || HasLong(ws, "numeric", "numeric-hosts", "interfaces", "statistics") {
		return ""
	}
	return "netstat without -n looks addresses up in the DNS"
}

// lsofCheck: lsof looks the addresses of the network files it lists up in
// the DNS unless told -n (alone or among its other letters without a
// value: -nP, -lnP). Without it only files named as operands (and +D/+d
// directories) are listed, never a socket.
func lsofCheck(ws []word) string {
	for _, w := range ws {
		if t := w.Text; len(t) > 1 && t[0] == '-' && strings.Trim(t[1:], "abChlnNOPRtUvVXw") == "" && strings.Contains(t, "n") {
			return ""
		}
	}
	const why = "lsof without -n looks the addresses of network files up in the DNS"
	if len(ws) == 0 {
		return why
	}
	for _, w := range ws {
		if t := w.Text; t != "+D" && t != "+d" && t != "--" && (strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+")) {
			return why
		}
	}
	return ""
}

func slabtopExtra(ws []word, _ string, _ []word) string {
	if !ShortFlags(ws, "s")['o'] && !HasLong(ws, "once") {
		return "slabtop without --once never ends"
	}
	return ""
}

func ldconfigExtra(ws []word, _ string, _ []word) string {
	if len(ws) == 0 {
		return "ldconfig rebuilds the linker cache"
	}
	return ""
}

func runPartsExtra(ws []word, _ string, _ []word) string {
	if !HasLong(ws, "test", "list") {
		return "run-parts runs the programs of a directory"
	}
	return ""
}

func chrtExtra(ws []word, _ string, ops []word) string {
	f := ShortFlags(ws, "")
	if f['m'] || HasLong(ws, "max") {
		return ""
	}
	if !(f['p'] || HasLong(ws, "pid")) || len(ops) != 1 {
		return "chrt without -p PID runs a command or sets a policy"
	}
	return ""
}

func tasksetExtra(ws []word, _ string, ops []word) string {
	if !(ShortFlags(ws, "")['p'] || HasLong(ws, "pid")) || len(ops) != 1 {
		return "taskset without -p PID runs a command or sets an affinity"
	}
	return ""
}

func choomExtra(ws []word, _ string, _ []word) string {
	if len(OptionValues(ws, 'p', "p", "pid")) == 0 {
		return "choom without -p runs a command"
	}
	return ""
}

func swaponExtra(ws []word, _ string, _ []word) string {
	if !ShortFlags(ws, "")['s'] && !HasLong(ws, "show", "summary") {
		return "swapon without --show enables swap areas"
	}
	return ""
}

func systemdAnalyzeExtra(_ []word, verb string, ops []word) string {
	switch verb {
	case "log-level", "log-target", "service-watchdogs":
		if len(ops) > 0 {
			return "systemd-analyze " + verb + " with a value changes the manager"
		}
	case "cat-config":
		for _, o := range ops {
			if secretConfig(o.Text) || !systemdConfigName(o.Text) {
				return "systemd-analyze cat-config " + o.Text + " may show keys"
			}
		}
	}
	return ""
}

func systemdCgtopExtra(ws []word, _ string, _ []word) string {
	f := ShortFlags(ws, "dn")
	if !(f['b'] || HasLong(ws, "batch")) || !(f['n'] || HasLong(ws, "iterations")) {
		return "systemd-cgtop without --batch and -n never ends"
	}
	return ""
}

func sshKeygenExtra(ws []word, _ string, _ []word) string {
	f := ShortFlags(ws, "fEF")
	if !f['l'] && !f['F'] {
		return "ssh-keygen without -l or -F makes or changes keys"
	}
	return ""
}

func numactlExtra(ws []word, _ string, _ []word) string {
	if len(ws) == 0 {
		return "numactl without --hardware or --show"
	}
	return ""
}

func ufwExtra(_ []word, verb string, ops []word) string {
	switch {
	case verb == "status" && (len(ops) == 0 || len(ops) == 1 && (ops[0].Text == "verbose" || ops[0].Text == "numbered")):
		return ""
	case verb == "show" && len(ops) == 1:
		switch ops[0].Text {
		case "raw", "builtins", "before-rules", "user-rules", "after-rules", "logging-rules", "listening", "added":
			return ""
		}
	case verb == "app" && len(ops) > 0 && (ops[0].Text == "list" && len(ops) == 1 || ops[0].Text == "info" && len(ops) == 2):
		return ""
	}
	return "ufw " + verb + " is not known to be read-only"
}

// psCheck: ps e and environment formats show processes' environments.
func psCheck(ws []word) string {
	for _, w := range ws {
		if !strings.HasPrefix(w.Text, "-") && strings.ContainsRune(w.Text, 'e') {
			return "ps e shows the environment of processes"
		}
		if strings.Contains(w.Text, "environ") || strings.Contains(w.Text, "args") && strings.Contains(w.Text, "=") {
			return "ps format shows process environments or arguments"
		}
	}
	return ""
}

func topCheck(ws []word) string {
	if !ShortFlags(ws, "dnpouUwEe")['b'] {
		return "top without -b is interactive"
	}
	return ""
}

// hostnameCheck: hostname with an operand sets the name; -f, -d, -i, -A
// and -a ask the resolver (strace shows nsswitch.conf and the DNS read),
// -s, -I and -y do not.
func hostnameCheck(ws []word) string {
	for _, w := range ws {
		switch w.Text {
		case "-s", "-I", "-y", "--short", "--all-ip-addresses", "--yp", "--nis":
		case "-f", "-d", "-i", "-A", "-a", "--fqdn", "--long", "--domain", "--ip-address", "--all-fqdns", "--alias":
			return "hostname " + w.Text + " looks the host's names up through the resolver (the DNS)"
		default:
			return "hostname with an argument sets the host name"
		}
	}
	return ""
}

func mountCheck(ws []word) string {
	for _, w := range ws {
		if w.Text != "-l" && w.Text != "--show-labels" {
			return "mount with arguments mounts"
		}
	}
	return ""
}

func getentCheck(ws []word) string {
	if AnyWord(ws, "shadow", "gshadow") {
		return "getent shadow reads password hashes"
	}
	if AnyWord(ws, "hosts", "ahosts", "ahostsv4", "ahostsv6", "networks") && len(Positionals(ws, "s")) > 1 {
		return "getent hosts looks names up over the network"
	}
	return ""
}

func sttyCheck(ws []word) string {
	for _, w := range ws {
		if w.Text != "-a" && w.Text != "--all" && w.Text != "size" && w.Text != "-g" {
			return "stty " + w.Text + " changes the terminal"
		}
	}
	return ""
}

func tputCheck(ws []word) string {
	for _, w := range ws {
		switch w.Text {
		case "cols", "lines", "colors", "longname":
		default:
			return "tput " + w.Text + " sends a terminal sequence"
		}
	}
	return ""
}

// journalctlCheck: -H reads another host's journal over ssh; the
// maintenance options write.
func journalctlCheck(ws []word) string {
	if why := first(ForbidShort("HM", "DiSUcutTpgonF", ws), ForbidLong(ws, "host", "machine")); why != "" {
		return why
	}
	return ForbidLong(ws, "vacuum-size", "vacuum-time", "vacuum-files", "rotate", "flush", "sync",
		"relinquish-var", "smart-relinquish-var", "update-catalog", "setup-keys", "cursor-file", "new-id128")
}

func systemctlCheck(ws []word) string {
	if r := first(ForbidShort("HM", "", ws), ForbidLong(ws, "host", "machine")); r != "" {
		return r
	}
	pos := Positionals(ws, "tspnPo", "type", "state", "property", "lines", "output")
	if len(pos) == 0 {
		return ""
	}
	switch pos[0].Text {
	case "status", "list-units", "list-unit-files", "list-timers", "list-sockets", "list-dependencies",
		"list-jobs", "list-machines", "list-paths", "is-active", "is-enabled", "is-failed",
		"is-system-running", "get-default", "help":
		return ""
	case "cat":
		return "systemctl cat prints unit files, whose Environment= lines may hold secrets"
	case "show":
		if props, ok := systemctlProperties(ws); ok && !slices.ContainsFunc(props, func(p string) bool {
			return strings.Contains(strings.ToLower(p), "environment")
		}) {
			return ""
		}
		return "systemctl show prints every property, Environment= (which may hold secrets) among them, unless -p names others"
	}
	return "systemctl " + pos[0].Text + " changes the system"
}

// settingsCtl is the check of systemd's settings tool name: its status
// and list verbs print, the others change settings.
func settingsCtl(name string) func(ws []word) string {
	return func(ws []word) string {
		if why := first(ForbidShort("HM", "", ws), ForbidLong(ws, "host", "machine")); why != "" {
			return why
		}
		pos := Positionals(ws, "HM")
		if len(pos) == 0 {
			return ""
		}
		switch pos[0].Text {
		case "status", "show", "list", "list-sessions", "list-users", "list-seats", "show-session", "show-user",
			"list-timezones", "list-locales", "list-keymaps", "session-status", "user-status", "seat-status":
			return ""
		}
		return name + " " + pos[0].Text + " changes settings"
	}
}

// ipObjects are ip's objects (ip [OPTIONS] OBJECT [show|list|get…]).
var ipObjects = map[string]bool{"addr": true, "address": true, "a": true, "link": true, "l": true, "route": true,
	"r": true, "ro": true, "neigh": true, "neighbour": true, "neighbor": true, "n": true, "rule": true, "ru": true,
	"maddress": true, "maddr": true, "m": true, "netns": true, "tunnel": true, "tuntap": true, "netconf": true,
	"ntable": true, "mroute": true, "vrf": true, "nexthop": true, "token": true, "stats": true, "mptcp": true}

func ipCheck(ws []word) string {
	i, why := verbAfter(ws, map[string]bool{"-n": true, "-netns": true, "-f": true, "-family": true, "-rc": true, "-rcvbuf": true},
		"-b", "-batch", "-force", "-r", "-resolve")
	if why != "" {
		return "ip " + why
	}
	if i >= len(ws) {
		return "ip without an object"
	}
	if !ipObjects[ws[i].Text] {
		return "ip " + ws[i].Text + " is not known to be read-only"
	}
	if i+1 >= len(ws) {
		return "" // the default command lists
	}
	switch ws[i+1].Text {
	case "show", "sh", "s", "list", "ls", "lst", "l", "get", "g":
		if ws[i].Text == "netns" && ws[i+1].Text != "list" && ws[i+1].Text != "ls" {
			return "ip netns " + ws[i+1].Text + " is not read-only"
		}
		return ""
	}
	if strings.HasPrefix(ws[i+1].Text, "-") || ws[i+1].Text == "dev" {
		return ""
	}
	return "ip " + ws[i].Text + " " + ws[i+1].Text + " is not known to be read-only"
}

// systemctlProperties lists the properties named by -p/-P/--property; ok
// is false when none is named (systemctl then shows them all).
func systemctlProperties(ws []word) (props []string, ok bool) {
	for i := 0; i < len(ws); i++ {
		t := ws[i].Text
		var v string
		switch {
		case t == "-p" || t == "-P" || t == "--property":
			if i+1 >= len(ws) {
				return nil, false
			}
			i++
			v = ws[i].Text
		case strings.HasPrefix(t, "--property="):
			v = strings.TrimPrefix(t, "--property=")
		case len(t) > 2 && (strings.HasPrefix(t, "-p") || strings.HasPrefix(t, "-P")):
			v = t[2:]
		default:
			continue
		}
		props = append(props, strings.Split(v, ",")...)
	}
	return props, len(props) > 0
}

// manPager: man -P runs its value as a shell command; only cat is known.
func manPager(ws []word, _ string, _ []word) string {
	for _, v := range OptionValues(ws, 'P', "sSLeERP", "pager") {
		if v != "cat" {
			return "man -P runs " + v
		}
	}
	return ""
}

// nmcliRead accepts nmcli's overview and its status and show commands,
// which nmcli lets users abbreviate ("nmcli d st", "nmcli c s").
func nmcliRead(_ []word, _ string, ops []word) string {
	pick := func(w string, names ...string) string {
		found := ""
		for _, n := range names {
			if strings.HasPrefix(n, w) {
				if found != "" {
					return ""
				}
				found = n
			}
		}
		return found
	}
	if len(ops) == 0 {
		return ""
	}
	rest := ops[1:]
	cmd := ""
	if len(rest) > 0 {
		cmd = rest[0].Text
		rest = rest[1:]
	}
	switch pick(ops[0].Text, "general", "networking", "radio", "connection", "device", "agent", "monitor", "help") {
	case "general":
		if c := pick(cmd, "status", "permissions", "hostname", "logging", "reload"); cmd == "" || (c == "status" || c == "permissions") && len(rest) == 0 {
			return ""
		}
	case "networking":
		if cmd == "" {
			return ""
		}
	case "radio":
		if cmd == "" || pick(cmd, "all", "wifi", "wwan") != "" && len(rest) == 0 {
			return ""
		}
	case "connection":
		if cmd == "" || pick(cmd, "show", "up", "down", "add", "modify", "clone", "edit", "delete", "monitor", "reload", "load", "import", "export", "migrate") == "show" {
			return ""
		}
	case "device":
		if c := pick(cmd, "status", "show", "set", "connect", "reapply", "modify", "disconnect", "delete", "monitor", "wifi", "lldp", "up", "down"); cmd == "" || (c == "status" || c == "show") && len(rest) <= 1 {
			return ""
		}
	}
	return "nmcli " + ops[0].Text + " " + cmd + " is not known to be read-only"
}

// showVerb: the object's command, if any, is show, list or ls.
func showVerb(_ []word, verb string, ops []word) string {
	if len(ops) == 0 {
		return ""
	}
	switch ops[0].Text {
	case "show", "list", "ls", "lst", "sh":
		return ""
	}
	return verb + " " + ops[0].Text + " is not known to be read-only"
}

// secretConfig reports configuration names that may hold keys
// (WireGuard keys in systemd-networkd's .netdev files).
// systemdConfigName reports a name systemd-analyze cat-config shows that
// is systemd's own configuration: below systemd/ but not its units
// (systemd/system, systemd/user: their Environment= settings, as
// systemctl cat shows them), or a drop-in directory of its tools. Any
// other name is a file below /etc, /run or /usr/lib, any of them
// (cat-config ssl/private/x, wireguard/wg0.conf); an absolute name is
// one below them.
func systemdConfigName(n string) bool {
	for _, pre := range []string{"/etc/", "/run/", "/usr/local/lib/", "/usr/lib/"} {
		if strings.HasPrefix(n, pre) {
			n = n[len(pre):]
			break
		}
	}
	if n == "" || n != path.Clean(n) || strings.HasPrefix(n, "/") || strings.HasPrefix(n, "..") {
		return false
	}
	first, rest, _ := strings.Cut(n, "/")
	switch first {
	case "tmpfiles.d", "user-tmpfiles.d", "sysctl.d", "binfmt.d", "modules-load.d", "sysusers.d", "repart.d", "udev":
		return true
	case "systemd":
		sub, _, _ := strings.Cut(rest, "/")
		return sub != "system" && sub != "user"
	}
	return false
}

func secretConfig(name string) bool {
	l := strings.ToLower(name)
	return strings.Contains(l, "network") || strings.Contains(l, "netdev") || strings.Contains(l, "cred") ||
		strings.Contains(l, "key") || strings.Contains(l, "secret") || strings.Contains(l, "upload")
}

// sarCheck reads sar's arguments as sysstat does: option letters
// (several may share a dash), the optional value after -F, -r, -u, -I,
// -q, -f, -s and -e, the value after -m, -n, -P, -j and -i, and at most
// an interval and a count. -o writes a file; an interval without a count
// samples for ever.
func sarCheck(ws []word) string {
	var numbers int
	file := false
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		t := w.Text
		if !w.Static() {
			return "sar argument " + w.Raw + " is chosen at run time"
		}
		switch {
		case strings.HasPrefix(t, "--"):
			n, _, _ := strings.Cut(t[2:], "=")
			switch n {
			case "dec", "dev", "fs", "iface", "int", "help", "human", "pretty", "sadc":
			default:
				return "sar option " + t + " is not known to be read-only"
			}
		case len(t) > 1 && t[0] == '-':
			if digits(t[1:]) {
				continue // -N: the file of N days ago
			}
			last := byte(0)
			for j := 1; j < len(t); j++ {
				c := t[j]
				if strings.IndexByte("ABbCDdFHhpSrtuVvWwyzIqfsemnPji", c) < 0 {
					return "sar option -" + string(c) + " is not known to be read-only"
				}
				last = c
			}
			if strings.IndexByte(t, 'f') > 0 {
				file = true
			}
			next := i+1 < len(ws) && ws[i+1].Static() && !strings.HasPrefix(ws[i+1].Text, "-")
			switch {
			case strings.IndexByte("mnPji", last) >= 0:
				i++
			case strings.IndexByte("FruIqfse", last) >= 0 && next && !digits(ws[i+1].Text):
				i++
			}
		case digits(t):
			numbers++
		default:
			return "sar " + w.Raw + " is not known to be read-only"
		}
	}
	if numbers > 2 {
		return "sar with these operands is not known to be read-only"
	}
	if numbers == 1 && !file {
		return "sar with an interval and no count samples for ever"
	}
	return ""
}

// numericOnly: net-tools' tables are printed without name lookups (which
// reach the DNS) only with -n.
func numericOnly(name string) func(ws []word, _ string, _ []word) string {
	return func(ws []word, _ string, _ []word) string {
		if !ShortFlags(ws, "A")['n'] && !HasLong(ws, "numeric") {
			return name + " without -n looks every address up in the DNS"
		}
		return ""
	}
}

// readOnlyCheck: pwck and grpck only report with -r (otherwise they offer
// to fix the files).
func readOnlyCheck(ws []word, _ string, _ []word) string {
	if !ShortFlags(ws, "")['r'] && !HasLong(ws, "read-only") {
		return "without -r it may change the account files"
	}
	return ""
}

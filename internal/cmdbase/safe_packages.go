package cmdbase

import "strings"

// Package managers and build tools (cmdbase/unix_packages.go): package
// query tools (the database of what is installed, never the network),
// go's version and environment queries, and binutils' views of binary
// files.
var _ = registerSafe(Packages, safePackages)

// safePackages is built on first use (safeTables).
var safePackages = func() map[string]safeCmd {
	return map[string]safeCmd{
		"dpkg": {check: dpkgCheck},
		// npm ls lists the packages node_modules holds; root and prefix print
		// paths (nb's commands run with npm's update notifier off, so nothing
		// reaches the registry; npm keeps its own debug log in its cache)
		"npm": {args: &argSpec{flags: "agl", verbs: []string{"ls", "list", "ll", "la", "root", "prefix", "run", "run-script"}, operands: opNames,
			extra: func(_ []word, verb string, ops []word) string {
				if (verb == "run" || verb == "run-script") && len(ops) > 0 {
					return "npm run runs a script of the project"
				}
				return ""
			},
			longs: ltLongs("all", "depth=", "global", "json", "long", "parseable", "omit=", "include=", "link", "package-lock-only",
				"unicode", "workspace=", "workspaces", "include-workspace-root", "prod", "production", "dev", "no-unicode")}},
		"go": {check: goCheck},
		// pip show, freeze and check read installed metadata; pip list
		// checks PyPI for a newer pip unless told not to (and -o/-u query
		// the index)
		"pip":  {args: &pipArgs},
		"pip3": {args: &pipArgs},
		// package query tools
		"dpkg-query": {args: &argSpec{flags: "lWLsSph?", values: "f",
			longs: ltLongs("list", "show", "listfiles", "status", "search", "print-avail", "showformat=", "no-pager",
				"control-path", "control-list", "control-show", "load-avail")}},
		"apt-cache": {args: &argSpec{flags: "qifanh", verbs: []string{"policy", "show", "showpkg", "showsrc", "depends", "rdepends",
			"search", "pkgnames", "madison", "stats", "dump", "dumpavail", "unmet", "dotty", "xvcg"}, operands: opNames,
			longs: ltLongs("quiet", "important", "full", "all-versions", "no-all-versions", "names-only", "all-names",
				"recurse", "installed", "no-generate", "no-pre-depends", "no-depends", "no-recommends", "no-suggests",
				"no-conflicts", "no-breaks", "no-replaces", "no-enhances", "implicit", "no-implicit")}},
		"apt": {args: &argSpec{flags: "aq", verbs: []string{"list", "show", "search", "policy", "depends", "rdepends", "showsrc"}, operands: opNames,
			longs: ltLongs("installed", "upgradable", "upgradeable", "all-versions", "manual-installed", "full", "names-only", "quiet")}},
		// rpm queries: an option cluster with q, no scripts (-V runs
		// %verifyscript), no macro evaluation (-E, -D, --eval), no --pipe
		"rpm": {args: &argSpec{flags: "qaflipcdsRvgL", operands: opFiles,
			extra: rpmExtra,
			longs: ltLongs("query", "all", "file", "list", "info", "configfiles", "docfiles", "state", "requires",
				"provides", "conflicts", "obsoletes", "changelog", "scripts", "triggers", "whatprovides", "whatrequires",
				"whatrecommends", "whatsuggests", "qf=", "queryformat=", "last", "dump", "package", "licensefiles", "filesbypkg", "nosignature", "nodigest")}},
		"apt-mark": {args: &argSpec{flags: "q", verbs: []string{"showauto", "showmanual", "showhold", "showinstall", "showremove", "showpurge"}, operands: opNames, longs: ltLongs("quiet")}},
		"gem": {args: &argSpec{flags: "ladi", verbs: []string{"", "list"}, operands: opNames,
			longs: ltLongs("local", "details", "no-details", "installed", "versions", "no-versions", "all", "exact", "prerelease", "quiet", "verbose")}},
		"snap":    {args: &argSpec{verbs: []string{"", "list", "version", "services", "changes", "connections"}, operands: opNames, longs: ltLongs("all", "color=", "unicode=")}},
		"flatpak": {args: &argSpec{flags: "ad", verbs: []string{"", "list", "info", "history"}, operands: opNames, longs: ltLongs("user", "system", "app", "runtime", "all", "columns=", "show-details", "show-ref", "show-commit", "show-size", "show-metadata", "show-permissions", "show-location", "show-extensions")}},
		// pacman's queries of the local database (-Q; -S, -R, -U, -D, -F and
		// -y change packages or reach the network)
		"pacman": {check: pacmanCheck},
		// linters that only report: yamllint (directories searched
		// recursively for YAML files), hadolint (Dockerfiles)
		"yamllint": {args: &argSpec{flags: "sv", values: "cdf", reads: true, recursive: true,
			longs: ltLongs("config-file=", "config-data=", "format=", "strict", "no-warnings", "list-files")}},
		"hadolint": {args: &argSpec{flags: "vV", values: "cft", reads: true,
			longs: ltLongs("config=", "format=", "failure-threshold=", "ignore=", "no-color", "no-fail", "strict-labels",
				"trusted-registry=", "verbose", "error=", "warning=", "info=", "style=", "require-label=",
				"disable-ignore-pragma", "file-path-in-report=")}},
		// binutils: show the headers, symbols and code of binary files (nm
		// --plugin loads code, so nm's arguments must be static)
		"readelf": {args: &argSpec{atFiles: true, flags: "ahlSgtesCnrudVAcDLzPIWTHv", values: "xpRU", attached: "w", reads: true, pure: true,
			longs: ltLongs("all", "file-header", "program-headers", "segments", "section-headers", "sections", "section-groups",
				"section-details", "headers", "syms", "symbols", "dyn-syms", "lto-syms", "demangle?", "notes", "relocs",
				"unwind", "dynamic", "version-info", "arch-specific", "archive-index", "use-dynamic", "hex-dump=", "string-dump=",
				"relocated-dump=", "decompress", "debug-dump?", "dwarf-depth=", "dwarf-start=", "histogram", "wide", "silent-truncation",
				"process-links", "sym-base=", "ctf=", "ctf-symbols=", "ctf-strings=", "ctf-parent=", "unicode=", "got-contents")}},
		"objdump": {args: &argSpec{atFiles: true, flags: "afpPhxdDSsgeGLtTrRviHlFCwz", values: "bmjMIU", attached: "W", reads: true, pure: true,
			longs: ltLongs("archive-headers", "file-headers", "private-headers", "private=", "headers", "section-headers",
				"all-headers", "disassemble?", "disassemble-all", "source", "source-comment?", "full-contents", "debugging",
				"debugging-tags", "stabs", "syms", "dynamic-syms", "reloc", "dynamic-reloc", "dwarf?", "target=", "architecture=",
				"section=", "disassembler-options=", "endian=", "EB", "EL", "file-start-context", "include=", "line-numbers",
				"file-offsets", "demangle?", "wide", "disassembler-color=", "disassemble-zeroes", "start-address=", "stop-address=",
				"prefix-addresses", "show-raw-insn", "no-show-raw-insn", "insn-width=", "adjust-vma=", "dwarf-depth=",
				"dwarf-start=", "dwarf-check", "ctf?", "sym-base=", "visualize-jumps?", "no-addresses", "prefix=",
				"prefix-strip=", "special-syms", "decompress", "process-links", "unicode=", "info")}},
		"nm": {args: &argSpec{atFiles: true, flags: "aABCDegjlnoPprSsuUWXhV", values: "ft", reads: true,
			longs: ltLongs("debug-syms", "print-file-name", "demangle?", "no-demangle", "dynamic", "extern-only", "format=",
				"line-numbers", "numeric-sort", "no-sort", "portability", "reverse-sort", "print-size", "print-armap",
				"size-sort", "special-syms", "synthetic", "radix=", "target=", "undefined-only", "defined-only", "with-symbol-versions",
				"without-symbol-versions", "quiet", "unicode=", "ifunc-chars=")}},
		"size": {args: &argSpec{atFiles: true, flags: "ABGdoxtV", reads: true, pure: true, longs: ltLongs("format=", "radix=", "totals", "common", "target=")}},
	}
}

func rpmExtra(ws []word, _ string, ops []word) string {
	if !ShortFlags(ws, "")['q'] && !HasLong(ws, "query") {
		return "rpm without -q is not a query"
	}
	for _, o := range ops {
		if strings.Contains(o.Text, "://") || !o.Static() {
			// rpm -qp URL downloads the package (through curl)
			return "rpm fetches a package named by a URL from the network"
		}
	}
	return ""
}

// dpkgCheck accepts dpkg's query options only.
func dpkgCheck(ws []word) string {
	query := false
	for _, w := range ws {
		switch w.Text {
		case "-l", "-L", "-s", "-S", "-p", "--list", "--listfiles", "--status", "--search", "--print-avail",
			"--get-selections", "--print-architecture", "--version":
			query = true
		default:
			if strings.HasPrefix(w.Text, "-") {
				return "dpkg " + w.Text + " is not a query"
			}
		}
	}
	if !query {
		return "dpkg without a query option"
	}
	return ""
}

// goCheck: go version (of go itself), go
// help, go env of variables known to hold no secret, go mod edit -json
// or -print (go.mod as it is). Whether go stays local where it runs (no
// toolchain download, no telemetry counters) is a disk fact the policy
// asks (policy.GoFacts).
func goCheck(ws []word) string {
	if len(ws) == 0 {
		return "go is not on the safe list"
	}
	rest := ws[1:]
	switch ws[0].Text {
	case "version":
		// (not -m: binaries' build settings may hold -ldflags values)
		if len(rest) > 0 {
			return "go version of binaries shows their build settings"
		}
		return ""
	case "help":
		for _, w := range rest {
			if strings.HasPrefix(w.Text, "-") || !IsIdent(strings.ReplaceAll(w.Text, "-", "_")) {
				return "go help " + w.Raw + " is not a topic"
			}
		}
		return ""
	case "env":
		names := 0
		for _, w := range rest {
			if w.Text == "-json" || w.Text == "-changed" {
				continue
			}
			if !goEnvVars[w.Text] {
				return "go env " + w.Text + " is not known to be read-only and secret-free"
			}
			names++
		}
		if names == 0 {
			return "go env prints every setting, which may hold credentials (GOPROXY, GOAUTH, GOFLAGS)"
		}
		return ""
	case "mod":
		if len(rest) == 2 && rest[0].Text == "edit" && (rest[1].Text == "-json" || rest[1].Text == "-print") {
			return ""
		}
	}
	return "go is not on the safe list"
}

var goEnvVars = map[string]bool{
	"GOPATH": true, "GOROOT": true, "GOOS": true, "GOARCH": true, "GOVERSION": true, "GOMODCACHE": true,
	"GOCACHE": true, "GOBIN": true, "GOEXE": true, "GOHOSTOS": true, "GOHOSTARCH": true, "GOMOD": true,
	"GOWORK": true, "CGO_ENABLED": true, "GOAMD64": true, "GOARM": true, "GOTOOLDIR": true,
}

// pipExtra: pip list asks PyPI whether pip is outdated unless
// --disable-pip-version-check or --no-index is given.
func pipExtra(ws []word, verb string, _ []word) string {
	if ShortFlags(ws, "")['f'] && verb != "show" {
		return "pip -f gives " + verb + " a place to find packages"
	}
	if verb == "list" && !HasLong(ws, "disable-pip-version-check", "no-index") {
		return "pip list may ask PyPI for a newer pip (add --disable-pip-version-check)"
	}
	return ""
}

// pipArgs is pip's grammar, also pip3's.
var pipArgs = argSpec{flags: "lveqVf", verbs: []string{"", "show", "freeze", "list", "check"}, operands: opNames,
	longs: ltLongs("local", "user", "format=", "not-required", "exclude-editable", "include-editable", "editable",
		"verbose", "quiet", "files", "all", "exclude=", "disable-pip-version-check", "no-index", "isolated", "no-color", "no-input", "no-python-version-warning"),
	extra: pipExtra}

// pacmanCheck accepts pacman -Q with its query letters and names.
func pacmanCheck(ws []word) string {
	if len(ws) == 0 || !ws[0].Static() || !strings.HasPrefix(ws[0].Text, "-Q") && ws[0].Text != "--query" {
		return "pacman without -Q is not a query"
	}
	for _, w := range ws {
		t := w.Text
		if !w.Static() {
			return "pacman argument " + w.Raw + " is chosen at run time"
		}
		switch {
		case t == "--query", t == "--":
		case strings.HasPrefix(t, "--"):
			switch t {
			case "--info", "--list", "--search", "--owns", "--deps", "--explicit", "--groups", "--check", "--native",
				"--foreign", "--unrequired", "--upgrades", "--quiet", "--changelog", "--color=never", "--color=auto":
			default:
				return "pacman option " + t + " is not known to be read-only"
			}
		case strings.HasPrefix(t, "-"):
			for _, c := range t[1:] {
				if !strings.ContainsRune("Qcdegiklmnoqstu", c) {
					return "pacman option -" + string(c) + " is not known to be read-only"
				}
			}
		}
	}
	return ""
}

package cmdbase

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Package managers, build tools and cloud command lines.
var _ = registerUnix(Packages, func() []Prog {
	return []Prog{
		{Name: "npm", Is: Subcommands | RunScripts | Alarm, Globals: []string{"--prefix", "-w", "--workspace"},
			// nb's commands run with npm's update notifier off
			Version: []string{"--version", "-v"},
			Subs: []ProgSub{{Name: "exec", Runs: true}, {Name: "x", Runs: true}, {Name: "config", Runs: true}, {Name: "set", Runs: true},
				{Name: "unpublish", Danger: "removes a published package"}}},
		{Name: "yarn", Is: Subcommands | RunScripts,
			Subs: []ProgSub{{Name: "dlx", Runs: true}, {Name: "exec", Runs: true}, {Name: "config", Runs: true}}},
		{Name: "pnpm", Is: Subcommands | RunScripts,
			Subs: []ProgSub{{Name: "dlx", Runs: true}, {Name: "exec", Runs: true}, {Name: "config", Runs: true}}},
		{Name: "bun", Is: Interpreter | Subcommands | RunScripts, Lang: JavaScript, Version: []string{"--version"},
			Subs: []ProgSub{{Name: "x", Runs: true}}},
		{Name: "npx", Is: NoRule}, {Name: "bunx", Is: NoRule}, {Name: "pnpx", Is: NoRule}, {Name: "uvx", Is: NoRule},
		{Name: "go", Is: Subcommands | Toolchain, Globals: []string{"-C"},
			Subs: []ProgSub{{Name: "env", Runs: true}, {Name: "tool", Runs: true}}},
		{Name: "cargo", Is: Subcommands, Globals: []string{"-C", "--config", "-Z"},
			Subs: []ProgSub{{Name: "config", Runs: true}}},
		{Name: "rustup", Is: Subcommands},
		{Name: "apt", Is: Subcommands | Alarm, Version: []string{"--version", "-v", "--help", "-h"}},
		{Name: "apt-get", Is: Subcommands | Alarm, Version: []string{"--version", "-v", "--help", "-h"}},
		{Name: "apt-cache", Version: []string{"--version", "-v", "--help", "-h"}},
		{Name: "dpkg", Version: []string{"--help"}},
		{Name: "brew", Is: Subcommands | Alarm}, {Name: "pip", Is: Subcommands | Alarm}, {Name: "dnf", Is: Subcommands | Alarm},
		{Name: "yum", Is: Subcommands | Alarm}, {Name: "zypper", Is: Subcommands}, {Name: "pacman"},
		{Name: "snap", Is: Subcommands}, {Name: "flatpak", Is: Subcommands}, {Name: "nix", Is: Subcommands},
		{Name: "conda", Is: Subcommands}, {Name: "poetry", Is: Subcommands}, {Name: "uv", Is: Subcommands},
		{Name: "gem", Is: Subcommands}, {Name: "bundle", Is: Subcommands}, {Name: "composer", Is: Subcommands},
		{Name: "mvn", Is: Subcommands}, {Name: "gradle", Is: Subcommands}, {Name: "dotnet", Is: Subcommands,
			// the host lists what is installed before any SDK code runs
			// (--info and --version run the SDK, whose first run writes)
			Version: []string{"--list-sdks", "--list-runtimes"}},
		{Name: "make", Version: []string{"--version", "-v", "--help", "-h"}},
		{Name: "cmake", Version: []string{"--version", "--help"}},
		{Name: "gcc", Version: []string{"--version", "--help"}}, {Name: "g++", Version: []string{"--version", "--help"}},
		{Name: "cc", Version: []string{"--version", "--help"}}, {Name: "clang", Version: []string{"--version", "--help"}},
		{Name: "java", Version: []string{"-version", "--version"}}, {Name: "javac", Version: []string{"-version", "--version"}},
		// cloud and infrastructure command lines: what deletes resources
		{Name: "terraform", Is: Subcommands, Subs: []ProgSub{
			{Name: "destroy", Danger: "destroys the managed infrastructure"},
			{Name: "apply", Danger: "destroys the managed infrastructure", Forms: []Form{{Words: []string{"-destroy", "--destroy"}}}}}},
		{Name: "aws", Is: Subcommands, Subs: []ProgSub{
			{Name: "* delete-*", Danger: "deletes cloud resources"}, {Name: "* terminate-*", Danger: "terminates instances"},
			{Name: "* remove-*", Danger: "removes cloud resources"}, {Name: "s3 rm", Danger: "deletes objects"},
			{Name: "s3 rb", Danger: "removes a bucket"}}},
		{Name: "az", Is: Subcommands, Forms: []Form{{Words: []string{"delete", "purge"}, Why: "deletes cloud resources"}}},
		{Name: "gcloud", Is: Subcommands | RunsArgs, Forms: []Form{{Words: []string{"delete"}, Why: "deletes cloud resources"}}},
		{Name: "gh", Is: Subcommands | Network, Forms: []Form{{Words: []string{"delete"}, Why: "deletes on GitHub"}}},
		{Name: "psql", Lang: SQL, Version: []string{"--version", "-V", "--help"}, Forms: slices.Concat(destroysData, psqlEffects())},
		{Name: "pg_dump", Version: []string{"--version", "-V", "--help"}},
		{Name: "mysql", Lang: SQL, Version: []string{"--version", "-V"}, Forms: slices.Concat(destroysData, mysqlEffects())},
		{Name: "mysqldump", Version: []string{"--version", "-V"}},
		{Name: "mariadb", Lang: SQL, Forms: slices.Concat(destroysData, mysqlEffects())},
		{Name: "sqlite3", Lang: SQL, Version: []string{"--version", "-version", "--help", "-help"}, Forms: slices.Concat(destroysData, sqliteEffects())},
		{Name: "sqlite", Lang: SQL, Forms: slices.Concat(destroysData, sqliteEffects())},
		{Name: "duckdb", Lang: SQL, Forms: slices.Concat(destroysData, sqliteEffects())},
		{Name: "clickhouse-client", Lang: SQL, Forms: destroysData},
		{Name: "cqlsh", Lang: SQL, Forms: destroysData}, {Name: "sqlcmd", Lang: SQL, Forms: destroysData},
		{Name: "redis-cli", Lang: SQL, Forms: destroysData},
		{Name: "mongosh", Lang: JavaScript, Forms: destroysData}, {Name: "mongo", Lang: JavaScript, Forms: destroysData},
		{Name: "rails", Lang: Ruby},
		{Name: "htop", Version: []string{"--version", "-V", "--help", "-h"}},
	}
})

// SQLiteDot are the dot-commands of sqlite3's shell (duckdb's is made
// from it), by whether they reach outside the database: true for those
// that run a program, load code, change directory, or read or write a
// file they name (.shell, .output, .save, .read, .archive ...); false
// for those that show or set the shell's own state. The shell runs a
// command by any prefix of its name, the first in its own order (.sh is
// .shell, .o is .once, .open or .output): a dot-command whose word
// begins the name of one that reaches outside is read as that one
// (SQLiteDotPattern). A test holds the list against the commands the
// installed sqlite3 lists, and the prefixes against what it does.
var SQLiteDot = map[string]bool{
	"archive": true, "backup": true, "cd": true, "clone": true, "excel": true, "import": true, "iotrace": true,
	"load": true, "log": true, "once": true, "open": true, "output": true, "read": true, "restore": true,
	"save": true, "selftest": true, "session": true, "shell": true, "system": true, "testcase": true,
	"testctrl": true, "trace": true,
	"auth": false, "bail": false, "binary": false, "changes": false, "check": false, "connection": false,
	"databases": false, "dbconfig": false, "dbinfo": false, "dump": false, "echo": false, "eqp": false,
	"exit": false, "expert": false, "explain": false, "filectrl": false, "fullschema": false, "headers": false,
	"help": false, "imposter": false, "indexes": false, "limit": false, "lint": false, "mode": false,
	"nonce": false, "nullvalue": false, "parameter": false, "print": false, "progress": false, "prompt": false,
	"quit": false, "recover": false, "scanstats": false, "schema": false, "separator": false, "sha3sum": false,
	"show": false, "stats": false, "tables": false, "timeout": false, "timer": false, "vfsinfo": false,
	"vfslist": false, "vfsname": false, "width": false,
}

// SQLiteDotPattern matches a line holding a dot-command that reaches
// outside the database (SQLiteDot), by any prefix of its name, in any
// case. It is made on first use, as the tables are, not at start-up.
var SQLiteDotPattern = sync.OnceValue(func() string {
	var prefixes []string
	for name, outside := range SQLiteDot {
		for n := 1; outside && n <= len(name); n++ {
			if !slices.Contains(prefixes, name[:n]) {
				prefixes = append(prefixes, name[:n])
			}
		}
	}
	// longer first: the alternation takes the first that matches
	slices.SortFunc(prefixes, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	return `(?mi)^[ \t]*\.(?:` + strings.Join(prefixes, "|") + `)(?:\s|$)`
})

// sqliteEffects are the dot-commands (SQLiteDotPattern) and the SQL
// functions of sqlite3's shell that run a program, load code or read or
// write files, in a statement given on its command line (sqlite3 DB
// STATEMENT..., -cmd STATEMENT).
var sqliteEffects = sync.OnceValue(func() []Form {
	return []Form{{Pattern: regexp.MustCompile(SQLiteDotPattern() + `|(?i)\b(writefile|readfile|load_extension|edit)\s*\(`),
		Why: "runs a program, loads code, or reads or writes files outside the database"}}
})

// psqlEffects are psql's own commands that run a program or read or
// write files (psql -c takes one backslash command), and the server's
// COPY to or from a program or file.
var psqlEffects = sync.OnceValue(func() []Form {
	return []Form{{Pattern: regexp.MustCompile(`(?m)^\s*\\(!|o|out|w|write|copy|i|ir|include|include_relative|g|gx|gexec|s|cd|setenv)(\s|$)|(?i)\bcopy\b.*\b(to|from)\s+(program\b|')|\bpg_(read|write)_\w*|\blo_(import|export)\b`),
		Why: "runs a program or reads or writes files outside the database"}}
})

// mysqlEffects are the mysql client's own commands that run a program or
// read or write files (system, \!, pager, tee, source), and the server's
// files (INTO OUTFILE, LOAD DATA, LOAD_FILE).
var mysqlEffects = sync.OnceValue(func() []Form {
	return []Form{{Pattern: regexp.MustCompile(`(?mi)^\s*(system|pager|tee|source)\b|\\[!PT.]|\binto\s+(outfile|dumpfile)\b|\bload\s+data\b|\bload_file\s*\(`),
		Why: "runs a program or reads or writes files outside the database"}}
})

// destroysData is a statement given to a database client on its command
// line (psql -c, mysql -e, sqlite3 DB SQL, redis-cli FLUSHALL, mongosh
// --eval) that drops, truncates or empties what the database holds.
var destroysData = []Form{{Pattern: regexp.MustCompile(`(?i)\b(drop\s+(database|schema|table|keyspace|index|view|user|role|collection|owned)\b|truncate(\s+table)?\s+[\w"` + "`" + `\[]|delete\s+from\b|flushall\b|flushdb\b|dropdatabase\s*\(|\.drop\s*\(|deletemany\s*\()`),
	Why: "runs a statement that destroys data"}}

package cmdbase

import "regexp"

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
		{Name: "psql", Lang: SQL, Version: []string{"--version", "-V", "--help"}, Forms: destroysData},
		{Name: "pg_dump", Version: []string{"--version", "-V", "--help"}},
		{Name: "mysql", Lang: SQL, Version: []string{"--version", "-V"}, Forms: destroysData},
		{Name: "mysqldump", Version: []string{"--version", "-V"}},
		{Name: "mariadb", Lang: SQL, Forms: destroysData},
		{Name: "sqlite3", Lang: SQL, Version: []string{"--version", "-version", "--help", "-help"}, Forms: destroysData},
		{Name: "sqlite", Lang: SQL, Forms: destroysData}, {Name: "duckdb", Lang: SQL, Forms: destroysData},
		{Name: "clickhouse-client", Lang: SQL, Forms: destroysData},
		{Name: "cqlsh", Lang: SQL, Forms: destroysData}, {Name: "sqlcmd", Lang: SQL, Forms: destroysData},
		{Name: "redis-cli", Lang: SQL, Forms: destroysData},
		{Name: "mongosh", Lang: JavaScript, Forms: destroysData}, {Name: "mongo", Lang: JavaScript, Forms: destroysData},
		{Name: "rails", Lang: Ruby},
		{Name: "htop", Version: []string{"--version", "-V", "--help", "-h"}},
	}
})

// destroysData is a statement given to a database client on its command
// line (psql -c, mysql -e, sqlite3 DB SQL, redis-cli FLUSHALL, mongosh
// --eval) that drops, truncates or empties what the database holds.
var destroysData = []Form{{Pattern: regexp.MustCompile(`(?i)\b(drop\s+(database|schema|table|keyspace|index|view|user|role|collection|owned)\b|truncate(\s+table)?\s+[\w"` + "`" + `\[]|delete\s+from\b|flushall\b|flushdb\b|dropdatabase\s*\(|\.drop\s*\(|deletemany\s*\()`),
	Why: "runs a statement that destroys data"}}

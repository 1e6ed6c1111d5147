package cmdbase

// What the external tests beside the data need of the package's insides.

// SafeNames are the names on the safe list.
func SafeNames() []string {
	safeTables()
	var out []string
	for n := range builtinSafe {
		out = append(out, n)
	}
	return out
}

// SafeChecked are the names of the family tables' entries that have a
// check or a manual grammar: a form that is not read-only.
func SafeChecked() []string {
	safeTables()
	var out []string
	for _, fam := range safeFamilies {
		for n, s := range fam {
			if s.check != nil || s.args != nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// SafeGrammarLetters maps the entries with a manual grammar to their
// short option letters.
func SafeGrammarLetters() map[string]string {
	safeTables()
	out := map[string]string{}
	for n, s := range builtinSafe {
		if s.args != nil {
			out[n] = s.args.flags + s.args.values
		}
	}
	return out
}

// SafeFamilyMismatches lists the names whose safe-list family is not
// their family in the program base.
func SafeFamilyMismatches() []string {
	safeTables()
	var out []string
	for f, fam := range safeFamilies {
		for n := range fam {
			if p := unix[n]; p != nil && p.Family != f {
				out = append(out, n)
			}
		}
	}
	return out
}

// EntryExample is one example of an entry of the base (examples.go).
type EntryExample struct {
	// Entry is the entry's name; Shells the Windows shells it runs in (0:
	// bash, a Unix entry).
	Entry   string
	Shells  Shells
	Want    string // "allow", "ask" or "warn"
	Command string
}

// EntryExamples are every entry's examples, Unix entries' and Windows
// entries'.
func EntryExamples() []EntryExample {
	var out []EntryExample
	add := func(name string, sh Shells, x Examples) {
		for _, w := range []struct {
			want string
			cmds []string
		}{{"allow", x.Allow}, {"ask", x.Ask}, {"warn", x.Warn}} {
			for _, c := range w.cmds {
				out = append(out, EntryExample{Entry: name, Shells: sh, Want: w.want, Command: c})
			}
		}
	}
	unixTables()
	winTables()
	seen := map[*Prog]bool{}
	for _, p := range unix {
		if !seen[p] {
			seen[p] = true
			add(p.Name, 0, p.Examples)
		}
	}
	specs := map[*Spec]bool{}
	for _, s := range programs {
		specs[s] = true
	}
	for _, m := range builtins {
		for _, s := range m {
			specs[s] = true
		}
	}
	for s := range specs {
		add(s.Name, s.In, s.Examples)
	}
	return out
}

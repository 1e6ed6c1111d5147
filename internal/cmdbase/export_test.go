package cmdbase

// What the external tests beside the data need of the package's insides.

// SafeNames are the names on the safe list.
func SafeNames() []string {
	var out []string
	for n := range builtinSafe {
		out = append(out, n)
	}
	return out
}

// SafeChecked are the names of the family tables' entries that have a
// check or a manual grammar: a form that is not read-only.
func SafeChecked() []string {
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

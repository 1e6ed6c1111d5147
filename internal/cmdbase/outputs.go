package cmdbase

// Output is an option whose value names a file the program writes
// (sort -o FILE, curl --output FILE).
type Output struct {
	Short byte
	Long  string
	// Std: a value of "-" (standard output) or /dev/null writes no file.
	Std bool
}

// OutputFile returns the first file p writes through one of its output
// options, as written (a value known only at run time is a file too).
func (p *Prog) OutputFile(args []Word) (Word, bool) {
	if p == nil {
		return Word{}, false
	}
	for _, o := range p.Outputs {
		for _, w := range OptionWords(args, o.Short, p.Values, o.Long) {
			if !o.Std || !w.Static() || w.Text != "-" && w.Text != "/dev/null" {
				return w, true
			}
		}
	}
	return Word{}, false
}

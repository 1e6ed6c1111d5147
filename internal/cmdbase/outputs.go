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
// options, or "".
func (p *Prog) OutputFile(args []Word) string {
	if p == nil {
		return ""
	}
	for _, o := range p.Outputs {
		for _, v := range OptionValues(args, o.Short, p.Values, o.Long) {
			if !o.Std || v != "-" && v != "/dev/null" {
				return v
			}
		}
	}
	return ""
}

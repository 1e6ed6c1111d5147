package cmdbase

import "strings"

// optionValueTexts returns the values given to an option, read as GNU getopt
// reads a command line, up to "--": the short option letter (attached,
// -ofile, or the next word) or the long option (or an abbreviation of it,
// --out=file or --out file). valueShort lists every short option letter
// of the program that takes a value, so that a cluster ends at one.
func optionValueTexts(args []string, letter byte, valueShort, long string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		t := args[i]
		if t == "--" {
			break
		}
		if strings.HasPrefix(t, "--") && len(t) > 2 {
			n, v, eq := strings.Cut(t[2:], "=")
			if long == "" || !strings.HasPrefix(long, n) {
				continue
			}
			if !eq {
				if i+1 >= len(args) {
					break
				}
				i++
				v = args[i]
			}
			out = append(out, v)
			continue
		}
		if len(t) < 2 || t[0] != '-' {
			continue
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte(valueShort, t[j]) < 0 {
				continue
			}
			v := t[j+1:]
			if v == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			if t[j] == letter {
				out = append(out, v)
			}
			break
		}
	}
	return out
}

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
func (p *Prog) OutputFile(args []string) string {
	if p == nil {
		return ""
	}
	for _, o := range p.Outputs {
		for _, v := range optionValueTexts(args, o.Short, p.Values, o.Long) {
			if !o.Std || v != "-" && v != "/dev/null" {
				return v
			}
		}
	}
	return ""
}

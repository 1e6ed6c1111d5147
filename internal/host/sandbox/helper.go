package sandbox

import "os"

// helperProgram is the program to execute as the helper: self when
// given, else this program's binary. Every program that can use the
// sandbox links package enter, which runs the helper when the program is
// executed with enter.Arg, before its main.
func helperProgram(self string) (string, error) {
	if self != "" {
		return self, nil
	}
	return os.Executable()
}

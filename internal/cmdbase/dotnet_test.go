package cmdbase

import "testing"

// .NET methods are found with or without System., in any case; unknown
// ones are not.
func TestDotNet(t *testing.T) {
	for _, c := range []struct {
		typ, method string
		does        Effect
		recursive   bool
	}{
		{"System.IO.File", "Delete", Writes, false},
		{"io.file", "writealltext", Writes, false},
		{"IO.Directory", "Delete", Writes, true},
		{"System.Diagnostics.Process", "Start", Runs, false},
		{"Reflection.Assembly", "LoadFile", Runs, false},
	} {
		got, ok := DotNet(c.typ, c.method)
		if !ok || got.Does != c.does || got.Recursive != c.recursive {
			t.Errorf("[%s]::%s: %+v %v, want %s recursive=%v", c.typ, c.method, got, ok, c.does, c.recursive)
		}
	}
	for _, c := range [][2]string{{"IO.File", "ReadAllText"}, {"Math", "Round"}, {"IO.Path", "Combine"}} {
		if got, ok := DotNet(c[0], c[1]); ok {
			t.Errorf("[%s]::%s: %+v, want unknown", c[0], c[1], got)
		}
	}
}

package style

import (
	"strings"
	"testing"
)

func TestFitMiddle(t *testing.T) {
	got := FitMiddle("run: "+strings.Repeat("a", 100), "… 9 bytes more …", strings.Repeat("z", 50)+"END", 60)
	if Width(got) > 60 || !strings.HasPrefix(got, "run: aaa") || !strings.HasSuffix(got, "zEND") || !strings.Contains(got, "… 9 bytes more …") {
		t.Errorf("FitMiddle = %q (%d cells)", got, Width(got))
	}
}

package secrets

import "testing"

func TestAliasMayBe(t *testing.T) {
	for _, s := range []string{"ENV~1", "AWS~1", "_AWS~HLO", "SSH~1", "CREDEN~1", "CRED~ATR", "ENV~1.LOC", "SERVER~1.PEM",
		"PROD~1.KEY", "ID_ED2~1", "GIT-CR~1", "SECRET~1.JSO", "TOKEN~1.TXT", "AW1B2C~1", "KUBE~1", "DOCKER~1", "XAUTHO~1", "A~B.TXT"} {
		if !AliasMayBe(s) {
			t.Errorf("%s: not taken for a secret's alias", s)
		}
	}
	for _, s := range []string{"HEAD~1", "HEAD~12", "main~3", "v1.2~1", "PROGRA~1", "README~1.MD", "notes.txt", "NOTES~1.TXT",
		"~1", "abc~", "TOOLONGNA~1", "ENV~1.LOCAL"} {
		if AliasMayBe(s) {
			t.Errorf("%s: taken for a secret's alias", s)
		}
	}
}

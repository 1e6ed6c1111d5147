package secrets

import "strings"

// Alias reports whether a path segment is shaped like a generated 8.3
// alias of a longer Windows name: at most eight characters with a "~"
// after the first, then at most three of extension (ENV~1, AWS~1,
// CREDEN~1.TXT, NTFS's hashed AW1B2C~1, Wine's _AWS~HLO).
func Alias(seg string) bool {
	base, ext, _ := strings.Cut(seg, ".")
	t := strings.IndexByte(base, '~')
	return t >= 1 && t < len(base)-1 && len(base) <= 8 && len(ext) <= 3 && !strings.Contains(ext, ".")
}

// AliasMayBe reports an 8.3 alias (Alias) that may stand for a secret
// name, as far as the alias tells: its first letters begin a secret
// name (a leading dot dropped or written as "_", ENV~1 for .env), or its
// extension begins a secret extension (SERVER~1.PEM). Its spelling keeps
// too little of the name for more: the alias of application-secrets.yaml
// is APPLIC~1.YAM, so where the disk can be asked, the long name is.
func AliasMayBe(seg string) bool {
	if !Alias(seg) {
		return false
	}
	seg = strings.ToLower(seg)
	base, ext, _ := strings.Cut(seg, ".")
	pre := strings.TrimLeft(base[:strings.IndexByte(base, '~')], "_")
	if hashed(pre) {
		pre = pre[:2] // NTFS's hashed aliases keep two letters of the name
	}
	for _, w := range words {
		if strings.HasPrefix(w, pre) || strings.HasPrefix(pre, w) {
			return true
		}
	}
	if ext != "" {
		for _, e := range extensions {
			if strings.HasPrefix(e[1:], ext) {
				return true
			}
		}
	}
	for _, s := range Samples() {
		n := strings.ReplaceAll(strings.TrimLeft(strings.ToLower(s), "."), " ", "")
		b, x := n, ""
		if i := strings.LastIndexByte(n, '.'); i > 0 {
			b, x = n[:i], n[i+1:]
		}
		b = strings.ReplaceAll(b, ".", "")
		if strings.HasPrefix(b, pre) && (ext == "" && x == "" || ext != "" && strings.HasPrefix(x, ext)) {
			return true
		}
	}
	return false
}

// hashed reports the first part of NTFS's hashed alias: two letters of
// the name, then four hexadecimal digits of its hash (AW1B2C).
func hashed(pre string) bool {
	if len(pre) != 6 {
		return false
	}
	for _, c := range []byte(pre[2:]) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

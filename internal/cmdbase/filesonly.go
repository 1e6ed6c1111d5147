package cmdbase

// filesOnly are programs whose only effects nb knows of are reading and
// writing the files their arguments name.
var filesOnly = map[string]bool{
	"cp": true, "mv": true, "rm": true, "mkdir": true, "rmdir": true, "touch": true, "ln": true,
	"chmod": true, "truncate": true, "tee": true, "sed": true, "patch": true, "install": true,
	"gzip": true, "gunzip": true, "sort": true, "uniq": true, "split": true, "csplit": true,
	"mktemp": true, "dos2unix": true, "unix2dos": true,
}

// FilesOnly reports a program whose only effects nb knows of are reading
// and writing the files its arguments name: a command made of them, of
// read-only commands and of harmless wrappers can run first in a
// copy-on-write view (SPEC §16), its changes approved instead of its text.
func FilesOnly(name string) bool { return filesOnly[name] }

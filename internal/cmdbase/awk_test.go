package cmdbase

import (
	"testing"
)

func TestAwkProgram(t *testing.T) {
	safe := []string{
		`{print $1}`, `$3 > 100`, `$3 > 100 {print $1}`, `{print "a\tb"}`, `{printf "%s\t%d\n", $1, $2}`,
		`NR > 1 && $2 >= 5`, `{ if ($3 > 100) print $1 }`, `{ print ($1 > $2) }`, `/foo/ {c++} END {print c}`,
		`!/^#/`, `{ sum += $2 } END { print sum / NR }`, `{ a[$1]++ } END { for (k in a) print k, a[k] }`,
		`BEGIN { FS = ":" } { print $1 }`, `length($0) > 72`, `{ x = $1 / 2; print x }`, `$1 ~ /a\/b/`,
		`{ gsub(/\r/, ""); print }`, `NR==FNR{a[$1];next} $1 in a`,
		"{ print $1 }\n# comment with > and | and system\n", `{ s = "x > y | system()"; print s }`,
		`{ if ($1) /foo/ ~ $0; print }`, `{ print substr($0, index($0, "=") + 1) }`, `{ n = split($0, p, "/"); print p[n] }`,
		`{ print toupper($1) }`, `{ $1 = ""; print }`, `{ printf("%-10s %s\n", $1, $2) }`, `{ print $1 || $2 }`,
		// the standard streams are no file
		`{ printf "%s", $1 > "/dev/stderr" }`, `{ print > "/dev/stdout" }`, `{ print >> "/dev/fd/2"; n++ }`,
	}
	unsafe := []string{
		`{ print > "out" }`, `{ print $1 >> "log" }`, `{ print > "/dev/stderr" x }`, `{ print > "/dev/stderr2" }`, `{ print | "sh" }`,
		`{ system("rm -rf x") }`, `{ "date" | getline d; print d }`, `{ getline line < "/etc/shadow"; print line }`,
		`BEGIN { print ENVIRON["AWS_SECRET"] }`, `BEGIN { ARGV[1] = "/home/u/.ssh/id_rsa"; ARGC = 2 } { print }`,
		`@load "filefuncs"`, `@include "x.awk"`, `{ close("x") }`, `{ print |& "cat" }`, `{ print ($1) > "f" }`,
		`{ if ($1) /"/; print > "f"; x = /"/ }`, `{ x = length /"/; print > "f"; y = /"/ }`, `{ print $1 > 3 ? "a" : "b" }`,
		`{ print "unterminated }`, `/[/]/ { print > "f" }`, `{ print PROCINFO["pid"] }`, `{ system ("id") }`,
		"{ print \\\n > \"f\" }", `{ print $1 }` + "\x01",
		`BEGIN { print "\"" /=/ getline x < "G1"; print x !/x/ }`, `{ print 1 /=/ system("id") /x/ }`,
	}
	for _, p := range safe {
		if why := awkProgramWhy(p); why != "" {
			t.Errorf("%q: %s", p, why)
		}
	}
	for _, p := range unsafe {
		if why := awkProgramWhy(p); why == "" {
			t.Errorf("%q judged safe", p)
		}
	}
}

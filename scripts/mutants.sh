#!/usr/bin/env bash
# Runs the mutation check: each mutant of scripts/mutants.txt is a one-line
# change at a security seam (deny rules, secrets, grants, the safe list,
# the remedy, the sandbox's binding, redaction…) that some test must
# catch. A mutant is applied through `go test -overlay` (the worktree is
# never touched) and only the tests it names run; it must make them fail.
# A mutant whose line is no longer in its file, or that no longer builds,
# is an error of the list: fix the list when the code moves.
#
# Usage: scripts/mutants.sh [NAME-REGEXP]   (only the mutants whose name matches)
set -euo pipefail
cd "$(dirname "$0")/.."

list=scripts/mutants.txt
only=${1:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail=0
n=0
run_mutant() {
	local name=$1 file=$2 pkg=$3 tests=$4 old=$5 new=$6
	if [ -n "$only" ] && ! [[ $name =~ $only ]]; then
		return
	fi
	n=$((n + 1))
	local mutated="$work/m$n.go"
	local count
	if [ ! -f "$file" ]; then
		printf 'STALE   %s: %s does not exist\n' "$name" "$file"
		fail=1
		return
	fi
	count=$(awk -v old="$old" -v new="$new" -v out="$mutated" '
		{
			line = $0
			lead = line; sub(/[^ \t].*$/, "", lead)
			trimmed = line; sub(/^[ \t]+/, "", trimmed); sub(/[ \t]+$/, "", trimmed)
			if (trimmed == old) { c++; line = lead new }
			print line > out
		}
		END { print c + 0 }' "$file")
	if [ "$count" != 1 ]; then
		printf 'STALE   %s: the line is in %s %s times, want once\n' "$name" "$file" "$count"
		fail=1
		return
	fi
	printf '{"Replace":{"%s":"%s"}}' "$PWD/$file" "$mutated" >"$work/overlay$n.json"
	local out rc=0
	out=$(timeout 600 go test -count=1 -overlay "$work/overlay$n.json" -run "$tests" "$pkg" 2>&1) || rc=$?
	if [ $rc = 0 ]; then
		printf 'SURVIVED %s (%s, %s -run %q)\n' "$name" "$file" "$pkg" "$tests"
		fail=1
	elif grep -q -e '\[build failed\]' -e '\[setup failed\]' <<<"$out"; then
		printf 'BROKEN  %s: the mutant does not build\n%s\n' "$name" "$out"
		fail=1
	else
		printf 'killed  %s\n' "$name"
	fi
}

name='' file='' pkg='' tests='' old='' new=''
flush() {
	if [ -n "$name" ]; then
		run_mutant "$name" "$file" "$pkg" "$tests" "$old" "$new"
	fi
	name='' file='' pkg='' tests='' old='' new=''
}
while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	'#'* | '') ;;
	'mutant: '*) flush; name=${line#mutant: } ;;
	'in: '*) file=${line#in: } ;;
	'run: '*) read -r pkg tests <<<"${line#run: }" ;;
	'old: '*) old=${line#old: } ;;
	'new: '*) new=${line#new: } ;;
	*) printf 'mutants.txt: cannot read %q\n' "$line"; exit 2 ;;
	esac
done <"$list"
flush

if [ "$fail" != 0 ]; then
	echo "mutation check failed: a seam's mutant survived or the list is stale" >&2
	exit 1
fi
echo "all $n mutants killed"

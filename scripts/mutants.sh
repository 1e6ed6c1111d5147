#!/usr/bin/env bash
# Runs the mutation check: each mutant of scripts/mutants.txt is a one-line
# change at a security seam (deny rules, secrets, grants, the safe list,
# the remedy, the sandbox's binding, redaction…) that some test must
# catch. A mutant is applied through -overlay in GOFLAGS (the worktree is
# never touched; a test that builds nb's binary builds the mutant too) and
# only the tests it names run; it must make them fail. Mutants are tested
# side by side, as many as there are processors (NB_MUTANT_JOBS): much of
# a mutant's time is its tests waiting for the processes they start.
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
jobs=${NB_MUTANT_JOBS:-$(nproc 2>/dev/null || echo 2)}
echo "mutation check: $jobs mutants at a time" >&2
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
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n || true
	done
	test_mutant "$n" "$name" "$file" "$pkg" "$tests" >"$work/result$n" &
}

# test_mutant runs mutant number n's tests and says whether they caught
# it: a line starting "killed" when they failed.
test_mutant() {
	local n=$1 name=$2 file=$3 pkg=$4 tests=$5
	local out rc=0
	out=$(GOFLAGS="${GOFLAGS:+$GOFLAGS }-overlay=$work/overlay$n.json" timeout 600 go test -count=1 -run "$tests" "$pkg" 2>&1) || rc=$?
	if [ $rc = 0 ]; then
		printf 'SURVIVED %s (%s, %s -run %q)\n' "$name" "$file" "$pkg" "$tests"
	elif grep -q -e '\[build failed\]' -e '\[setup failed\]' <<<"$out"; then
		printf 'BROKEN  %s: the mutant does not build\n%s\n' "$name" "$out"
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
wait
for ((i = 1; i <= n; i++)); do
	[ -f "$work/result$i" ] || continue
	cat "$work/result$i"
	grep -q '^killed ' "$work/result$i" || fail=1
done

if [ "$fail" != 0 ]; then
	echo "mutation check failed: a seam's mutant survived or the list is stale" >&2
	exit 1
fi
echo "all $n mutants killed"

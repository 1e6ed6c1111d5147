#!/usr/bin/env bash
# Records the outputs the secret detector's false-positive test reads
# (internal/redact/testdata/outputs.gz): every command of the
# policy's real-world read-only corpus (internal/redteam/testdata/readonly.txt)
# run in a bubblewrap sandbox (no network, its own process namespace, an
# empty HOME, a clean environment) in a copy of this repository with a few
# sample files the commands name (app.log, data.csv, package.json …), and
# the `go test -v` logs of several of the repository's packages.
#
# Usage: scripts/redact-corpus.sh   (then: go test ./internal/redact -run FalsePositives -v)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
command -v bwrap >/dev/null || { echo "bwrap is needed (apt-get install -y bubblewrap)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
work=$tmp/work
git clone -q --local "$repo" "$work"
mkdir -p "$tmp/home" "$work/src" "$work/other"
( cd "$work"
  for i in $(seq 1 200); do
    printf '10.0.%d.%d - - [12/Mar/2025:10:%02d:%02d +0000] "GET /api/items/%d HTTP/1.1" %d %d "-" "Mozilla/5.0"\n' \
      $((i % 7)) $((i % 250)) $((i % 60)) $((i * 7 % 60)) "$i" $((i % 9 == 0 ? 500 : 200)) $((i * 37))
  done > access.log
  for i in $(seq 1 120); do
    lvl=INFO; [ $((i % 11)) -eq 0 ] && lvl=ERROR; [ $((i % 17)) -eq 0 ] && lvl=WARN
    printf '2025-03-12T10:%02d:%02dZ %s worker-%d processed job %d in %dms\n' $((i % 60)) $((i * 3 % 60)) "$lvl" $((i % 4)) "$i" $((i * 13 % 900))
  done > app.log
  gzip -k app.log
  printf 'id,name,count\n1,alpha,12\n2,beta,7\n3,gamma,31\n' > data.csv
  printf 'a 1 120\nb 2 80\nc 3 150\n' > data.txt
  printf 'x\ty\n1\t2\n' > data.tsv; cp data.tsv a.tsv; cp data.tsv b.tsv
  printf 'carol\nalice\nbob\nalice\n' > names.txt
  printf 'apple 1\nbanana 2\n' > a.txt; printf 'apple 1\ncherry 3\n' > b.txt; printf 'date 4\n' > c.txt
  printf 'line one\n\tline two\n' > file.txt; head -c 256 /usr/bin/ls > file.bin; cp file.bin a.bin; cp file.bin b.bin
  printf '%s\n' '{"name": "web", "version": "1.2.0", "dependencies": {"express": "^4.18.2"}, "items": [{"id": 1}, {"id": 2}]}' > package.json
  cp package.json data.json
  printf '[server]\n# comment\nport = 8080\n' > config.ini
  printf 'package main\n\nfunc main() {}\n' > main.go; cp main.go old.go; printf 'package main\n\n// new\nfunc main() {}\n' > new.go
  cp main.go src/; cp new.go other/
  printf 'all:\n\tgo build ./...\n' > Makefile
  printf 'hello\n' | base64 > encoded.txt
  tar -cf archive.tar main.go; gzip -k archive.tar; cp archive.tar.gz archive.gz; xz -k archive.tar; cp archive.tar.xz archive.xz
  bzip2 -k -c main.go > archive.bz2; zip -q archive.zip main.go 2>/dev/null || true
  git add -A >/dev/null; git -c user.name=t -c user.email=t@example.com commit -qm samples )
# Records: a header line, then exactly the bytes it counts:
#   nb-corpus cmd N EXIT STDOUT_BYTES STDERR_BYTES COMMAND
#   nb-corpus log PACKAGE BYTES
out=$tmp/outputs
: > "$out"
n=0
while IFS= read -r cmd; do
  case "$cmd" in ''|'#'*) continue ;; esac
  n=$((n + 1))
  set +e
  bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --tmpfs /root --tmpfs /run \
    --bind "$work" "$work" --bind "$tmp/home" "$tmp/home" --chdir "$work" \
    --unshare-all --die-with-parent --new-session --clearenv \
    --setenv PATH /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --setenv HOME "$tmp/home" \
    --setenv LANG C.UTF-8 --setenv TERM dumb --setenv PAGER cat --setenv GIT_PAGER cat --setenv USER user \
    timeout -k 1 5 bash -c "$cmd" </dev/null >"$tmp/stdout" 2>"$tmp/stderr"
  code=$?
  set -e
  head -c 65536 "$tmp/stdout" | sed "s#$tmp#/tmp/corpus#g" >"$tmp/o"
  head -c 16384 "$tmp/stderr" | sed "s#$tmp#/tmp/corpus#g" >"$tmp/e"
  printf 'nb-corpus cmd %d %d %d %d %s\n' "$n" "$code" "$(wc -c <"$tmp/o")" "$(wc -c <"$tmp/e")" "$cmd" >>"$out"
  cat "$tmp/o" "$tmp/e" >>"$out"
done < internal/redteam/testdata/readonly.txt

for pkg in sandwich jsonstr visible store compact config render approval report instructions secrets mention policy cmdbase fsfacts agent wiring llm/openai; do
  set +e
  go test -count=1 -v "./internal/$pkg" 2>&1 | head -c 524288 | sed "s#$repo#/src/nb#g" >"$tmp/log"
  set -e
  printf 'nb-corpus log %s %d\n' "$pkg" "$(wc -c <"$tmp/log")" >>"$out"
  cat "$tmp/log" >>"$out"
done
mkdir -p internal/redact/testdata
gzip -9 -n -c "$out" > internal/redact/testdata/outputs.gz
echo "recorded $n command outputs and the test logs of 18 packages in internal/redact/testdata/outputs.gz ($(wc -c < internal/redact/testdata/outputs.gz) bytes)"

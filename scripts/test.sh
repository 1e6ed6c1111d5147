#!/usr/bin/env bash
# Runs nb's whole test suite on a fresh Debian/Ubuntu machine: installs what
# the tests need when it is missing (bubblewrap, openssh-server, tmux,
# procps, patch, sudo and util-linux, python3, less, man, curl, sqlite3, vim, npm, wine64 and
# mingw-w64, the MCP npm packages, staticcheck), then checks formatting, vet
# and staticcheck (also of the Windows build), runs every test (with the
# race detector wherever goroutines meet), the fuzzers for a bounded time,
# and the Windows tests under Wine. It ends with the time each phase took.
#
# Usage: scripts/test.sh [go test flags...]   e.g. scripts/test.sh -run TestScripts/history
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '==> %s\n' "$*" >&2; }

# Phases and their times, printed at the end.
start=$SECONDS phase_name="" phase_start=$SECONDS times=()
phase() {
	if [ -n "$phase_name" ]; then
		times+=("$(printf '%-34s %4ds' "$phase_name" $((SECONDS - phase_start)))")
	fi
	phase_name=$1 phase_start=$SECONDS
	[ -n "$1" ] && log "$1"
	return 0
}

phase "installing packages (when missing)"
need_apt=()
command -v bwrap >/dev/null 2>&1 || need_apt+=(bubblewrap)
[ -x /usr/sbin/sshd ] || need_apt+=(openssh-server)
command -v ssh-keygen >/dev/null 2>&1 || need_apt+=(openssh-client)
command -v tmux >/dev/null 2>&1 || need_apt+=(tmux)
command -v top >/dev/null 2>&1 || need_apt+=(procps)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
/usr/bin/python3 -c "import jinja2" >/dev/null 2>&1 || need_apt+=(python3-jinja2)
command -v git >/dev/null 2>&1 || need_apt+=(git)
# the sandbox's tests reach unix sockets with curl
[ -x /usr/bin/curl ] || need_apt+=(curl)
command -v strace >/dev/null 2>&1 || need_apt+=(strace)
command -v gawk >/dev/null 2>&1 || need_apt+=(gawk)
command -v mawk >/dev/null 2>&1 || need_apt+=(mawk)
command -v less >/dev/null 2>&1 || need_apt+=(less)
command -v man >/dev/null 2>&1 || need_apt+=(man-db)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)
# What scripts/wine-setup.sh needs, in the same apt run.
command -v wine >/dev/null 2>&1 || need_apt+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need_apt+=(gcc-mingw-w64-x86-64)
command -v patch >/dev/null 2>&1 || need_apt+=(patch)
# the secret detector's probes run the encoders a command could use (internal/redact)
command -v xxd >/dev/null 2>&1 || need_apt+=(xxd)
command -v hexdump >/dev/null 2>&1 || need_apt+=(bsdextrautils)
command -v jq >/dev/null 2>&1 || need_apt+=(jq)
# the policy's readers of what programs write are held against them (internal/cmdbase)
command -v zip >/dev/null 2>&1 || need_apt+=(zip)
command -v unzip >/dev/null 2>&1 || need_apt+=(unzip)
command -v perl >/dev/null 2>&1 || need_apt+=(perl)
command -v openssl >/dev/null 2>&1 || need_apt+=(openssl)
# database clients' and editors' ways of running programs are held against them (internal/cmdbase)
command -v sqlite3 >/dev/null 2>&1 || need_apt+=(sqlite3)
command -v vim >/dev/null 2>&1 || need_apt+=(vim)
# the sudo tests (internal/askpass/sudotest) also need util-linux's unshare and setpriv
# (the preview's differential test runs its direct run under setpriv too)
[ -x /usr/bin/sudo ] || need_apt+=(sudo)
command -v setpriv >/dev/null 2>&1 || need_apt+=(util-linux)
if [ ${#need_apt[@]} -gt 0 ]; then
	log "installing ${need_apt[*]}"
	sudo_cmd=()
	[ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
	"${sudo_cmd[@]}" apt-get update -qq
	DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# Downloads and the Wine prefix (wineboot, the ProcessPrng DLL) are made in
# the background while the checks and tests run: their time is mostly
# waiting. Each writes its output to a file read when it is needed.
work=$(mktemp -d)
# On the way out the background work this script started goes too.
trap 'jobs -pr | xargs -r kill 2>/dev/null; rm -rf "$work"' EXIT
npm_pid=""
if command -v npm >/dev/null 2>&1; then
	sh internal/mcpserver/testdata/setup.sh >"$work/npm.out" 2>"$work/npm.log" &
	npm_pid=$!
fi
scripts/wine-setup.sh >"$work/wine.env" 2>"$work/wine.log" &
wine_pid=$!

export PATH="$(go env GOPATH)/bin:$PATH"
if ! command -v staticcheck >/dev/null 2>&1; then
	phase "installing staticcheck"
	go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
fi
# .goreleaser.yaml is checked by goreleaser's own configuration package
# (internal/e2e/release_test.go, a small module in its testdata): the
# release tool itself is not built here.

phase "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi
phase "go vet"
go vet ./...
phase "Windows build and vet"
GOOS=windows go build ./...
GOOS=windows go vet ./...
phase "staticcheck"
staticcheck ./...
GOOS=windows staticcheck ./...

if [ -n "$npm_pid" ]; then
	phase "MCP interop packages (waiting)"
	if ! wait "$npm_pid"; then
		cat "$work/npm.log" >&2
		exit 1
	fi
	NB_TEST_NPM=$(cat "$work/npm.out")
	# The interop tests must run, not skip, when the packages are there.
	export NB_TEST_NPM NB_REQUIRE_INTEROP=1
fi

# The decision room (the policy, the command base, the parsers and the
# adversarial corpus) is pure, single-goroutine code whose tests are CPU
# bound: the race detector makes them five times slower and has nothing to
# find there but in the engine's concurrency test, which runs with it. The
# sandbox's tests are bound by the processes and namespaces they start for
# each mechanism (four times slower with it, past the time allowed): its
# goroutines meet in the guard, whose tests run with it. The end-to-end
# scripts run nb as the test binary, several times slower with it: those
# where nb's goroutines meet (a line "# race:" says how) run with it, and
# every script runs without it. Every other package runs with it. The two
# runs go side by side.
phase "go test (race where goroutines meet)"
pure=(./internal/policy ./internal/redteam ./internal/cmdbase ./internal/shellparse ./internal/winshell ./internal/host/sandbox)
mapfile -t raced < <(go list ./... | grep -v -x -F -f <(printf 'github.com/nb-cli/nb/%s\n' "${pure[@]#./}"))
{
	go test -count=1 -timeout 15m "$@" "${pure[@]}" &&
		go test -count=1 -timeout 15m -run '^TestScripts$' "$@" ./internal/e2e
} >"$work/pure.out" 2>&1 &
pure_pid=$!
race_ok=0
go test -race -count=1 -timeout 15m "$@" "${raced[@]}" || race_ok=$?
go test -race -count=1 -run '^TestConcurrentUse$' ./internal/policy || race_ok=$?
go test -race -count=1 -run '^TestGuard' ./internal/host/sandbox || race_ok=$?
pure_ok=0
wait "$pure_pid" || pure_ok=$?
cat "$work/pure.out"
if [ "$race_ok" != 0 ] || [ "$pure_ok" != 0 ]; then
	exit 1
fi

# The security seams' one-line mutants (scripts/mutants.txt): each must
# make the tests it names fail, or a seam is held by no test.
phase "mutation check"
scripts/mutants.sh

# What users rely on from every decision (FuzzDecide: no panic, the same
# answer twice, a display without control characters, warned means default
# No, nothing a deny rule matches and no rm -rf / allowed), explored from
# the project's corpora for a bounded time (the first ~15 s replay the
# ~3,900 seeds for their coverage, the rest explores). Unlike the
# differential below, any failure fails the run: its input is written to
# internal/policy/testdata/fuzz/FuzzDecide and stays a seed once fixed.
phase "decision fuzz"
go test -run '^$' -fuzz '^FuzzDecide$' -fuzztime 30s ./internal/policy

# The parser's view of a command against a real bash, explored for a few
# seconds. The inputs it ever failed on are seeds that the go test above
# runs and fails on; what the exploration newly finds is printed for a
# developer to fix and add as a seed, without making the run's outcome
# depend on the luck of a random search.
phase "bash differential fuzz (exploration)"
if ! go test -run '^$' -fuzz FuzzBashDifferential -fuzztime 20s ./internal/shellparse; then
	log "WARNING: the bash differential fuzz found a new divergence; its input is in internal/shellparse/testdata/fuzz/FuzzBashDifferential"
fi

# The Windows code really runs under Wine: cmd.exe, Job Objects, LockFileEx,
# PATHEXT, Windows paths in the policy. scripts/wine-setup.sh (started
# above) installs wine64 and mingw-w64 when missing and prepares the
# prefix; its failure fails the run. The tests named TestWin* are the
# Windows suite; the rest assume a Unix host.
phase "Wine prefix (waiting)"
if ! wait "$wine_pid"; then
	cat "$work/wine.log" >&2
	exit 1
fi
eval "$(cat "$work/wine.env")"
phase "Windows tests under Wine"
wine_test=(env GOOS=windows go test -exec wine -count=1 -timeout 10m ${NB_WINE_OVERLAY:+-overlay "$NB_WINE_OVERLAY"})
"${wine_test[@]}" -run 'TestWin' \
	./internal/host ./internal/store ./internal/sysinfo ./internal/fsfacts ./internal/policy ./internal/tool/runcmd ./internal/tool/files \
	./internal/ptysession ./internal/cli ./internal/proctest ./internal/e2e
# the output sandwich (CRLF, binary detection, spill files) and the Windows
# shells' parsers and command base run whole
"${wine_test[@]}" ./internal/sandwich ./internal/winshell ./internal/cmdbase

phase ""
log "times"
printf '%s\n' "${times[@]}" >&2
printf '%-34s %4ds\n' "total" $((SECONDS - start)) >&2

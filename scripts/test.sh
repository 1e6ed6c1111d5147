#!/usr/bin/env bash
# Runs nb's whole test suite on a fresh Debian/Ubuntu machine: installs what
# the tests need when it is missing (bubblewrap, curl, openssh-server, tmux, procps, patch,
# sudo, python3, the MCP npm packages, staticcheck, goreleaser, wine64 and mingw-w64), then
# checks formatting, vet and staticcheck (also of the Windows build), runs
# every test with the race detector, and the Windows tests under Wine.
#
# Usage: scripts/test.sh [go test flags...]   e.g. scripts/test.sh -run TestE2E
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '==> %s\n' "$*" >&2; }

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
command -v patch >/dev/null 2>&1 || need_apt+=(patch)
# the secret detector's probes run the encoders a command could use (internal/redact)
command -v xxd >/dev/null 2>&1 || need_apt+=(xxd)
command -v hexdump >/dev/null 2>&1 || need_apt+=(bsdextrautils)
command -v jq >/dev/null 2>&1 || need_apt+=(jq)
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

if command -v npm >/dev/null 2>&1; then
	log "MCP interop packages"
	NB_TEST_NPM=$(sh internal/mcpserver/testdata/setup.sh)
	# The interop tests must run, not skip, when the packages are there.
	export NB_TEST_NPM NB_REQUIRE_INTEROP=1
fi

export PATH="$(go env GOPATH)/bin:$PATH"
if ! command -v staticcheck >/dev/null 2>&1; then
	log "installing staticcheck"
	go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
fi
# `goreleaser check` validates .goreleaser.yaml (internal/e2e/release_test.go)
if ! command -v goreleaser >/dev/null 2>&1; then
	log "installing goreleaser (a few minutes, once)"
	go install github.com/goreleaser/goreleaser/v2@v2.15.1
fi

log "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi
log "go vet"
go vet ./...
log "Windows build and vet"
GOOS=windows go build ./...
GOOS=windows go vet ./...
log "staticcheck"
staticcheck ./...
GOOS=windows staticcheck ./...

log "go test -race"
go test -race -count=1 -timeout 15m "$@" ./...

# What users rely on from every decision (FuzzDecide: no panic, the same
# answer twice, a display without control characters, warned means default
# No, nothing a deny rule matches and no rm -rf / allowed), explored from
# the project's corpora for a bounded time (the first ~15 s replay the
# ~3,900 seeds for their coverage, the rest explores). Unlike the
# differential below, any failure fails the run: its input is written to
# internal/policy/testdata/fuzz/FuzzDecide and stays a seed once fixed.
log "decision fuzz"
go test -run '^$' -fuzz '^FuzzDecide$' -fuzztime 30s ./internal/policy

# The parser's view of a command against a real bash, explored for a few
# seconds. The inputs it ever failed on are seeds that the go test above
# runs and fails on; what the exploration newly finds is printed for a
# developer to fix and add as a seed, without making the run's outcome
# depend on the luck of a random search.
log "bash differential fuzz (exploration)"
if ! go test -run '^$' -fuzz FuzzBashDifferential -fuzztime 20s ./internal/shellparse; then
	log "WARNING: the bash differential fuzz found a new divergence; its input is in internal/shellparse/testdata/fuzz/FuzzBashDifferential"
fi

# The Windows code really runs under Wine: cmd.exe, Job Objects, LockFileEx,
# PATHEXT, Windows paths in the policy. scripts/wine-setup.sh installs wine64
# and mingw-w64 when missing and prepares the prefix. The tests named TestWin*
# are the Windows suite; the rest assume a Unix host.
log "Windows tests under Wine"
wine_env=$(scripts/wine-setup.sh) # fails the run when the setup fails
eval "$wine_env"
wine_test=(env GOOS=windows go test -exec wine -count=1 -timeout 10m ${NB_WINE_OVERLAY:+-overlay "$NB_WINE_OVERLAY"})
"${wine_test[@]}" -run 'TestWin' \
	./internal/host ./internal/store ./internal/sysinfo ./internal/fsfacts ./internal/policy ./internal/tool/runcmd ./internal/tool/files \
	./internal/ptysession ./internal/cli ./internal/proctest ./internal/e2e
# the output sandwich (CRLF, binary detection, spill files) and the Windows
# shells' parsers and command base run whole
"${wine_test[@]}" ./internal/sandwich ./internal/winshell ./internal/cmdbase

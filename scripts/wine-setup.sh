#!/usr/bin/env bash
# Prepares a Wine prefix that runs Windows builds of nb's tests:
# installs wine64 and the mingw-w64 compiler when missing, creates the
# prefix, and puts a bcryptprimitives.dll exporting ProcessPrng (which Go
# 1.24+ needs and Wine 8 lacks) into its system32.
#
# Usage: eval "$(scripts/wine-setup.sh)"   # exports WINEPREFIX, WINEDEBUG, NB_WINE_OVERLAY
# Then:  GOOS=windows go test -overlay "$NB_WINE_OVERLAY" -exec wine -run TestWin ./internal/store/
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '==> %s\n' "$*" >&2; }

need=()
command -v wine >/dev/null 2>&1 || need+=(wine64)
[ -x /usr/lib/wine/wine64 ] || [ -x /usr/bin/wine64 ] || need+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need+=(gcc-mingw-w64-x86-64)
if [ ${#need[@]} -gt 0 ]; then
	log "installing ${need[*]}"
	sudo_cmd=()
	[ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
	"${sudo_cmd[@]}" apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi

prefix=${NB_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/nb/wine}
export WINEPREFIX=$prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
if [ ! -f "$prefix/system.reg" ]; then
	log "creating the Wine prefix $prefix"
	mkdir -p "$prefix"
	wineboot -i >/dev/null 2>&1 || wine wineboot -i >/dev/null 2>&1
	wineserver -w
fi
dll=$prefix/drive_c/windows/system32/bcryptprimitives.dll
src=scripts/wine/processprng.c
if [ ! -f "$dll" ] || [ "$src" -nt "$dll" ]; then
	log "building bcryptprimitives.dll (ProcessPrng)"
	x86_64-w64-mingw32-gcc -shared -O2 -s -o "$dll.tmp" "$src" scripts/wine/processprng.def
	mv "$dll.tmp" "$dll"
fi

# Wine 8 answers STATUS_NOT_IMPLEMENTED where Windows before 10 1607 answers
# STATUS_INVALID_INFO_CLASS, so Go's os.RemoveAll does not take its fallback
# and t.TempDir cleanups fail. For test builds under Wine only, a build
# overlay of that one standard-library file adds the status to the fallback
# case; nb's own code is built unchanged.
overlay=""
std=$(go env GOROOT)/src/internal/syscall/windows/at_windows.go
if [ -f "$std" ]; then
	dir=$prefix/go-overlay
	mkdir -p "$dir"
	sed 's|^\(\t*\)STATUS_NOT_SUPPORTED: .*|\1STATUS_NOT_SUPPORTED, NTStatus(0xC0000002): // and STATUS_NOT_IMPLEMENTED (Wine)|' "$std" >"$dir/at_windows.go"
	if cmp -s "$std" "$dir/at_windows.go"; then
		log "Go's at_windows.go changed shape: no RemoveAll overlay (t.TempDir cleanups may fail under Wine)"
	else
		printf '{"Replace":{"%s":"%s"}}\n' "$std" "$dir/at_windows.go" >"$dir/overlay.json"
		overlay=$dir/overlay.json
	fi
fi
printf 'export WINEPREFIX=%q WINEDEBUG=-all WINEDLLOVERRIDES=%q NB_WINE_OVERLAY=%q\n' "$prefix" "mscoree,mshtml=" "$overlay"

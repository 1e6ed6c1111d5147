#!/usr/bin/env bash
# Prepares a Wine prefix that runs Windows builds of nb's tests:
# installs wine64 and the mingw-w64 compiler when missing, creates the
# prefix, and puts a bcryptprimitives.dll exporting ProcessPrng (which Go
# 1.24+ needs and Wine 8 lacks) into its system32.
#
# Usage: eval "$(scripts/wine-setup.sh)"   # exports WINEPREFIX and WINEDEBUG
# Then:  GOOS=windows go test -exec wine ./internal/store/
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
printf 'export WINEPREFIX=%q WINEDEBUG=-all WINEDLLOVERRIDES=%q\n' "$prefix" "mscoree,mshtml="

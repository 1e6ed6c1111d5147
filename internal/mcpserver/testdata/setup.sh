#!/bin/sh
# Installs the node packages nb's MCP interop tests talk to, into a cache
# directory outside the repository, only when they are missing. Prints the
# directory. Usage: setup.sh [DIR] (default $NB_TEST_NPM or
# $HOME/.cache/nb-test-npm).
set -eu
dir=${1:-${NB_TEST_NPM:-$HOME/.cache/nb-test-npm}}
mkdir -p "$dir"
need=0
for p in @modelcontextprotocol/inspector @modelcontextprotocol/sdk \
	@modelcontextprotocol/server-everything @modelcontextprotocol/server-filesystem; do
	[ -f "$dir/node_modules/$p/package.json" ] || need=1
done
if [ "$need" = 1 ]; then
	[ -f "$dir/package.json" ] || echo '{"name":"nb-test-npm","private":true}' >"$dir/package.json"
	npm install --silent --no-audit --no-fund --prefix "$dir" \
		@modelcontextprotocol/inspector@0.15 @modelcontextprotocol/sdk@1 \
		@modelcontextprotocol/server-everything @modelcontextprotocol/server-filesystem >&2
fi
echo "$dir"

#!/bin/sh
# setup_speedscope.sh DIR - install the npm package speedscope into DIR (the build tree)
# for the export browser tests; exit 77 (skip) when npm or the registry is unavailable.
set -u
dir=$1
if [ -f "$dir/node_modules/speedscope/dist/release/index.html" ]; then
	exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
	echo "setup_speedscope: npm not installed" >&2
	exit 77
fi
mkdir -p "$dir"
if ! npm install --no-audit --no-fund --prefix "$dir" speedscope@1 >&2; then
	echo "setup_speedscope: npm install speedscope failed" >&2
	exit 77
fi

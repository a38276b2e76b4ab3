#!/bin/bash
# bench/merge.sh - the merge benchmark of docs/PERFORMANCE.md: deepprof-genprof writes
# N_RUNS runs of one synthetic program of SIZE contexts (one structure, counters varying
# by run), and `deepprof merge` folds 2, 10 and N_RUNS of them into one file (wall
# seconds and peak RSS from /usr/bin/time), checking that two orders give the same bytes.
# usage: bench/merge.sh BUILD_DIR [SIZE=100000] [N_RUNS=100]
set -euo pipefail
build=${1:?usage: bench/merge.sh BUILD_DIR [SIZE] [N_RUNS]}
size=${2:-100000}
n=${3:-100}
work=$(mktemp -d "${TMPDIR:-/tmp}/dp-merge-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
for r in $(seq 1 "$n"); do
	"$build/bin/deepprof-genprof" "$size" "$work/run$r.data" --run "$r" >/dev/null
done
echo "| files | input MB | merged PDs | merged CSDs | wall s | peak RSS MB | s per file |"
echo "|---|---|---|---|---|---|---|"
for k in 2 10 "$n"; do
	files=$(for r in $(seq 1 "$k"); do echo "$work/run$r.data"; done)
	mb=$(du -cm $files | tail -1 | cut -f1)
	/usr/bin/time -f "%e %M" -o "$work/time" "$build/bin/deepprof" merge -o "$work/m$k.data" $files
	read -r wall rss <"$work/time"
	counts=$("$build/bin/deepprof" dump "$work/m$k.data" | sed -n 's/^\(pd\|csd\) (\([0-9]*\))$/\2/p' | tr '\n' ' ')
	set -- $counts
	echo "| $k | $mb | $1 | $2 | $wall | $((rss / 1024)) | $(echo "$wall $k" | awk '{printf "%.3f", $1 / $2}') |"
done
rev=$(for r in $(seq "$n" -1 1); do echo "$work/run$r.data"; done)
"$build/bin/deepprof" merge -o "$work/rev.data" $rev
cmp -s "$work/m$n.data" "$work/rev.data" && echo "reverse order: same bytes" || echo "reverse order: DIFFERENT"

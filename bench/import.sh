#!/bin/bash
# bench/import.sh - `deepprof import` speed on a large uftrace trace: records fib(N) (and
# 100000 calls of a two-level loop) built with -pg under `uftrace record`, then times,
# with a warm page cache, reading the records (`cat`), `deepprof import` (wall and CPU
# time, peak RSS) and `uftrace report` on the same directory. Prints a Markdown table.
#
# Environment:
#   BUILD           deepprof build tree (default build/)
#   BENCH_WORK      work directory (default $BUILD/bench/import); the trace is kept and
#                   recorded again only when missing
#   BENCH_IMPORT_N  fib's argument (default 35: 30 million calls, 0.9 GB of records)
#   BENCH_IMPORT_REPS  repetitions (default 3)
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(cd "${BUILD:-$REPO/build}" && pwd)
WORK=${BENCH_WORK:-$BUILD/bench/import}
N=${BENCH_IMPORT_N:-35}
REPS=${BENCH_IMPORT_REPS:-3}
DP=$BUILD/bin/deepprof
mkdir -p "$WORK"
cd "$WORK"
cat > fib.c <<'C'
#include <stdlib.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int leaf(int i) { return i * 3; }
static int middle(int i) { return leaf(i) + leaf(i + 1); }
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 30, s = 0;
	for (int i = 0; i < 100000; i++)
		s += middle(i);
	return (fib(n) + s) & 1;
}
C
if [ ! -d "trace$N" ]; then
	gcc -pg -O0 -g -o fib_pg fib.c
	uftrace record --no-pager -d "trace$N.tmp" ./fib_pg "$N" || true # exit status = fib's
	mv "trace$N.tmp" "trace$N"
fi
dat=$(ls trace$N/[0-9]*.dat)
bytes=$(cat $dat | wc -c)
cat $dat > /dev/null # warm the page cache
# "label wall user sys rss" lines from GNU time
t() { /usr/bin/time -f "%e %U %S %M" "$@" 2>&1 >/dev/null | tail -1; }
row() {
	local what=$1 runs wall cpu
	shift
	runs=$(for i in $(seq "$REPS"); do t "$@"; done)
	wall=$(echo "$runs" | awk '{ print $1 }' | sort -n)
	cpu=$(echo "$runs" | awk '{ print $2 + $3 }' | sort -n)
	awk -v what="$what" -v b="$bytes" -v n="$REPS" -v wall="$(echo $wall)" -v cpu="$(echo $cpu)" \
		-v rss="$(echo "$runs" | awk '{ print $4 }' | sort -n | tail -1)" 'BEGIN {
		split(wall, w, " "); split(cpu, c, " "); m = int((n + 1) / 2)
		printf "| %s | %.2f (%.2f-%.2f) | %.2f | %.0f | %.0f |\n", what, w[m], w[1], w[n],
		       c[m], (c[m] > 0 ? b / 1e6 / c[m] : 0), rss / 1024 }'
}
echo "fib($N) recorded by $(uftrace --version | head -1 | cut -d' ' -f1-2): $((bytes / 16)) records," \
	"$((bytes / 1000000)) MB; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
	"$(nproc) CPUs; load average $(cut -d' ' -f1 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')."
echo
echo "| command | wall s (median, min-max) | CPU s (median) | MB/s of CPU | peak RSS MB |"
echo "|---|--:|--:|--:|--:|"
row "cat TID.dat > /dev/null" cat $dat
row "deepprof import" "$DP" import "trace$N" -o "fib$N.data"
row "uftrace report" uftrace report --no-pager -d "trace$N"

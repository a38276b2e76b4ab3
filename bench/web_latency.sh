#!/bin/sh
# bench/web_latency.sh - latency of the built-in web server (`deepprof serve`) on every
# page kind of one data file, measured with wrk on loopback: prints p50 and p99 per page.
#
# usage: bench/web_latency.sh [-d SECONDS] [-c CONNECTIONS] [-t THREADS] DEEPPROF DATAFILE
#   -d  how long wrk hammers each page (default 5)
#   -c  concurrent connections (default 1: the latency of one client; answers are
#       serialised by the server, so more connections measure queueing too)
#   -t  wrk threads (default 1)
# Output: one line per page, "page status p50_ms p99_ms requests_per_s", after a header
# line; the pages' ids are taken from the file's own pages (the first clique of the
# root, the most called procedure, its first call site, the first module).
# Exit status: 0, 1 when the server did not start or a page did not answer 200,
# 77 when wrk or curl is missing.
set -eu

dur=5 conns=1 threads=1
while getopts d:c:t: opt; do
	case $opt in
	d) dur=$OPTARG ;;
	c) conns=$OPTARG ;;
	t) threads=$OPTARG ;;
	*) sed -n '4,8p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 2 ]; then
	sed -n '4,8p' "$0" >&2
	exit 2
fi
deepprof=$1 data=$2
for tool in wrk curl; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "web_latency: $tool is not installed (Debian package $tool)" >&2
		exit 77
	fi
done

tmp=$(mktemp -d)
pid=
cleanup() {
	rc=$?
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

: >"$tmp/out"
"$deepprof" serve --port 0 "$data" >"$tmp/out" 2>"$tmp/err" &
pid=$!
# loading a large profile takes a while: wait up to 10 minutes for the URL line
i=0
url=
while [ $i -lt 6000 ]; do
	url=$(sed -n 's/^deepprof: serving .* at \(http:[^ ]*\)$/\1/p' "$tmp/out")
	[ -n "$url" ] && break
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "web_latency: deepprof serve failed:" >&2
		cat "$tmp/err" >&2
		exit 1
	fi
	sleep 0.1
	i=$((i + 1))
done
if [ -z "$url" ]; then
	echo "web_latency: deepprof serve printed no URL" >&2
	exit 1
fi

# The first id=N of a link to page=$2 on the page at query $1.
first_id() {
	curl -s "${url}?file=0&$1" |
		sed -n "s/.*page=$2&amp;\(id\|proc\)=\([0-9][0-9]*\).*/\2/p" | head -n 1
}
clique=$(first_id "page=root" clique)
proc=$(first_id "page=top&metric=calls" proc)
module=$(first_id "page=modules" module)
site=$(first_id "page=proc&id=${proc:-1}" site)

pages="menu root action clique&id=${clique:-1} proc&id=${proc:-1} callers&proc=${proc:-1}
modules module&id=${module:-1} top top&metric=callseqs&scope=total site&id=${site:-1} threads
flame flame_callers&proc=${proc:-1} dump_ps&id=1 dump_pd&id=1 dump_css&id=1 dump_csd&id=1
dump_clique&id=1"

# wrk prints latencies as 812.00us, 1.23ms or 1.02s: to milliseconds
to_ms='function ms(v) {
	if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0;
	if (v ~ /m$/) return v * 60000; if (v ~ /s$/) return v * 1000; return v }'

printf '%-34s %6s %9s %9s %9s\n' page status p50_ms p99_ms req/s
bad=0
for p in $pages; do
	target="${url}?file=0&page=$p"
	status=$(curl -s -o /dev/null -w '%{http_code}' "$target")
	[ "$status" = 200 ] || bad=1
	wrk -t"$threads" -c"$conns" -d"${dur}s" --latency "$target" >"$tmp/wrk" 2>&1 || true
	awk -v page="$p" -v status="$status" "$to_ms"'
		/^ +50%/ { p50 = ms($2) }
		/^ +99%/ { p99 = ms($2) }
		/^Requests\/sec:/ { rps = $2 }
		/Non-2xx/ { non2xx = $NF }
		END { printf "%-34s %6s %9.3f %9.3f %9.1f%s\n", page, status, p50, p99, rps,
			non2xx ? "  (non-2xx: " non2xx ")" : "" }' "$tmp/wrk"
done
kill -TERM "$pid" # (SIGINT is ignored by background jobs of scripts)
wait "$pid" || bad=1
pid=
exit $bad

#!/bin/bash
# bench/load.sh - the analysis side's scale benchmark (the load and query targets):
# generate synthetic profiles of 0.1, 1.4 and 10 million contexts (deepprof-genprof),
# then time loading each and answering the menu (`deepprof report FILE page=menu`, wall
# and CPU time, peak RSS) and the phases of the same load (deepprof-loadbench: read, merge,
# merged analysis, as front/session_load.c does them; then the per-thread view's
# analysis, which a session builds on its first per-thread query). Prints a Markdown
# section between <!-- bench-load:begin --> and <!-- bench-load:end -->; bench/run
# splices it into docs/PERFORMANCE.md.
#
# Environment (bench/run passes its own):
#   BUILD             deepprof build tree (default build/)
#   BENCH_WORK        work directory (default $BUILD/bench); profiles are kept in
#                     $BENCH_WORK/load and regenerated only when the generator changes
#   BENCH_LOAD_SIZES  contexts per profile (default "100k 1.4M 10M")
#   BENCH_LOAD_REPS   repetitions of each measurement (default 3; at most 2 for 5 million
#                     contexts and more)
#   BENCH_LOAD_SEED   generator seed (default 1)
#   BENCH_QUERY_RUNS  processes of deepprof-querybench per profile of a million contexts
#                     or more (default 3; 0 = none): each loads the profile and times the
#                     heavy pages (QUERIES below), 9 answers each after one to warm up
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH=$REPO/bench
BUILD=$(cd "${BUILD:-$REPO/build}" && pwd)
WORK=${BENCH_WORK:-$BUILD/bench}
SIZES=${BENCH_LOAD_SIZES:-100k 1.4M 10M}
REPS=${BENCH_LOAD_REPS:-3}
SEED=${BENCH_LOAD_SEED:-1}
QRUNS=${BENCH_QUERY_RUNS:-3}
# the pages that read the most on a large profile; {P} is the procedure with the most
# contexts (deepprof-querybench finds it)
QUERIES=("page=menu" "page=top" "page=flame" "page=flame&min=0" "page=proc&id={P}"
	"page=callers&proc={P}" "page=callers&proc={P}&group=clique"
	"page=callers&proc={P}&group=clique&sort=cost" "page=flame_callers&proc={P}"
	"page=flame_callers&proc={P}&min=0")
DIR=$WORK/load
TOOLS=$WORK/tools
DP=$BUILD/bin/deepprof
mkdir -p "$DIR" "$TOOLS"
# shellcheck source=bench/lib.sh
. "$BENCH/lib.sh"

# med FILE COLUMN [FORMAT] - "median min max" of a column of numbers, each printed with
# FORMAT (default %.1f).
med() {
	sort -g -k"$2,$2" "$1" | awk -v c="$2" -v f="${3:-%.1f}" '{ v[++n] = $c }
		END { if (!n) { print "- - -"; exit }
		      m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		      printf f " " f " " f "\n", m, v[1], v[n] }'
}

# kv LINE KEY - the value of KEY=value in a deepprof-loadbench line.
kv() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }

# query_rows SIZE FILE - Markdown rows of deepprof-querybench's lines in FILE (run, query,
# median, min, max, status, bytes): per query, the median of the processes' medians, their
# range, the slowest answer, and whether every process's median is under 10 ms.
query_rows() {
	awk -F'\t' -v size="$1" '
		{ q = $2; if (!(q in n)) order[++nq] = q; v[q, ++n[q]] = $3
		  if (!(q in mx) || $5 > mx[q]) mx[q] = $5; st[q] = $6; by[q] = $7 }
		END {
			for (i = 1; i <= nq; i++) {
				q = order[i]; k = n[q]
				for (a = 1; a <= k; a++) s[a] = v[q, a]
				for (a = 2; a <= k; a++)
					for (b = a; b > 1 && s[b - 1] > s[b]; b--) {
						t = s[b]; s[b] = s[b - 1]; s[b - 1] = t }
				med = k % 2 ? s[(k + 1) / 2] : (s[k / 2] + s[k / 2 + 1]) / 2
				printf "| %s | `%s` | %d | %.2f | %.2f–%.2f | %.2f | %s |\n", size, q,
					st[q], med, s[1], s[k], mx[q], s[k] < 10 ? "yes" : "**no**"
			} }' "$2"
}

GEN=$(tool deepprof-genprof) || { echo "load: cannot build deepprof-genprof" >&2; exit 1; }
LB=$(tool deepprof-loadbench) || { echo "load: cannot build deepprof-loadbench" >&2; exit 1; }
QB=$(tool deepprof-querybench) || QB=
[ -x "$TOOLS/launch" ] || cc -std=c17 -D_GNU_SOURCE -O2 -o "$TOOLS/launch" "$BENCH/src/launch.c"

# deepprof report is timed only where this build's command line has it
HAVE_REPORT=
first=$DIR/gen-100-s$SEED.data
"$GEN" 100 "$first" >/dev/null
if "$DP" report "$first" page=menu >/dev/null 2>&1; then
	HAVE_REPORT=1
fi

started=$(date +%s)
out=$DIR/results.md
rows_e2e=
rows_phase=
rows_query=
for size in $SIZES; do
	f=$DIR/gen-$size-s$SEED.data
	if ! [ -s "$f" ] || [ "$GEN" -nt "$f" ]; then
		echo "load: generating $size contexts" >&2
		: >"$DIR/gen-$size.time"
		"$TOOLS/launch" "$DIR/gen-$size.time" "$GEN" "$size" "$f" >"$DIR/gen-$size.out"
	fi
	gen_s=$(awk 'END { printf "%.1f", $1 / 1e9 }' "$DIR/gen-$size.time")
	: >"$DIR/lb-$size.tsv"
	: >"$DIR/rep-$size.tsv"
	# profiles of 5 million contexts and more take seconds a load: at most 2 repetitions
	reps=$REPS
	if awk -v s="$size" 'BEGIN { m = s ~ /[kK]$/ ? 1e3 : s ~ /[mM]$/ ? 1e6 : 1
		exit !((s + 0) * m >= 5e6) }' && [ "$reps" -gt 2 ]; then
		reps=2
	fi
	for ((r = 1; r <= reps; r++)); do
		echo "load: $size, repetition $r/$reps" >&2
		line=$("$LB" "$f")
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(kv "$line" read_cpu)" \
			"$(kv "$line" merge_cpu)" "$(kv "$line" merged_analysis_cpu)" \
			"$(kv "$line" load_ms)" "$(kv "$line" load_cpu)" \
			"$(kv "$line" load_main_cpu)" "$(kv "$line" load_rss_mb)" \
			"$(kv "$line" threads_analysis_cpu)" "$(kv "$line" rss_mb)" \
			>>"$DIR/lb-$size.tsv"
		if [ -n "$HAVE_REPORT" ]; then
			: >"$DIR/rep.time"
			"$TOOLS/launch" "$DIR/rep.time" "$DP" report "$f" page=menu \
				>"$DIR/menu-$size.txt" 2>&1 || true
			awk '$5 == 0 { printf "%.3f\t%.3f\t%.1f\n", $1 / 1e9, ($2 + $3) / 1e9,
				$4 / 1024 }' "$DIR/rep.time" >>"$DIR/rep-$size.tsv"
		fi
	done
	# the heavy pages, from a million contexts on: QRUNS processes (the same query on the
	# same binary varies between processes with where their memory lands)
	if [ -n "$QB" ] && [ "$QRUNS" -gt 0 ] && awk -v s="$size" 'BEGIN {
		m = s ~ /[kK]$/ ? 1e3 : s ~ /[mM]$/ ? 1e6 : 1; exit !((s + 0) * m >= 1e6) }'; then
		: >"$DIR/qb-$size.tsv"
		for ((r = 1; r <= QRUNS; r++)); do
			echo "load: $size, queries, process $r/$QRUNS" >&2
			"$QB" "$f" 9 "${QUERIES[@]}" | sed "s/^/$r\t/" >>"$DIR/qb-$size.tsv"
		done
		rows_query+=$(query_rows "$size" "$DIR/qb-$size.tsv")$'\n'
	fi
	pd=$(kv "$line" pd) csd=$(kv "$line" csd) ps=$(kv "$line" ps)
	cl=$(kv "$line" merged_cliques) mpd=$(kv "$line" merged_pd)
	mb=$(du -m "$f" | cut -f1)
	read -r rd _ _ <<<"$(med "$DIR/lb-$size.tsv" 1)"
	read -r mg _ _ <<<"$(med "$DIR/lb-$size.tsv" 2)"
	read -r ma _ _ <<<"$(med "$DIR/lb-$size.tsv" 3)"
	read -r tw twmin twmax <<<"$(med "$DIR/lb-$size.tsv" 4)"
	read -r tc _ _ <<<"$(med "$DIR/lb-$size.tsv" 5)"
	read -r tm _ _ <<<"$(med "$DIR/lb-$size.tsv" 6)"
	read -r lrss _ _ <<<"$(med "$DIR/lb-$size.tsv" 7)"
	read -r th _ _ <<<"$(med "$DIR/lb-$size.tsv" 8)"
	read -r rss _ _ <<<"$(med "$DIR/lb-$size.tsv" 9)"
	rows_phase+="| $size | $pd | $csd | $ps | $mpd | $cl | $mb MB | $gen_s | $rd | $mg | $ma |"
	rows_phase+=" $(awk -v w="$tw" -v a="$twmin" -v b="$twmax" 'BEGIN { printf "%.0f (%.0f–%.0f)", w, a, b }')"
	rows_phase+=" | $tc | $tm | $lrss | $th | $rss |"$'\n'
	# the end-to-end row: deepprof report if it ran, else deepprof-loadbench's total
	if [ -s "$DIR/rep-$size.tsv" ]; then
		read -r w wmin wmax <<<"$(med "$DIR/rep-$size.tsv" 1 %.3f)"
		read -r c _ _ <<<"$(med "$DIR/rep-$size.tsv" 2 %.3f)"
		read -r m _ _ <<<"$(med "$DIR/rep-$size.tsv" 3)"
		# shellcheck disable=SC2016 # Markdown backquotes
		how='`deepprof report FILE page=menu`'
	else
		w=$(awk -v x="$tw" 'BEGIN { printf "%.3f", x / 1e3 }')
		wmin=$(awk -v x="$twmin" 'BEGIN { printf "%.3f", x / 1e3 }')
		wmax=$(awk -v x="$twmax" 'BEGIN { printf "%.3f", x / 1e3 }')
		c=$(awk -v x="$tc" 'BEGIN { printf "%.3f", x / 1e3 }')
		m=$lrss
		# shellcheck disable=SC2016 # Markdown backquotes
		how='deepprof-loadbench (no menu: `deepprof report` not built)'
	fi
	target=$(awk -v n="$pd" -v w="$w" -v m="$m" 'BEGIN {
		if (n >= 9000000 && n <= 11000000) { t = "< 5 s and < 4096 MB"; ok = (w < 5 && m < 4096) }
		else if (n >= 1200000 && n <= 1600000) { t = "< 1 s"; ok = (w < 1) }
		else { print "–"; exit }
		printf "%s: %s", t, ok ? "**met**" : "**not met**" }')
	rows_e2e+="| $size ($pd PDs, $csd CSDs) | $how | $w ($wmin–$wmax) | $c | $m | $target |"$'\n'
done

{
	echo "<!-- bench-load:begin: generated by bench/load.sh; edit the text outside the markers -->"
	echo "Measured by \`bench/load.sh\` ($REPS repetitions, 2 from 5 million contexts," \
		"$(($(date +%s) - started)) s," \
		"seed $SEED): $(machine_line). Load average (1 min) at the end $(load1)."
	echo
	echo "| profile | measured | wall s (median, min–max) | CPU s | peak RSS MB | target |"
	echo "|---|---|--:|--:|--:|---|"
	printf '%s' "$rows_e2e"
	echo
	echo "Load phases (deepprof-loadbench; CPU ms of all threads, medians), as \`deepprof"
	echo "report\` loads a file: read and validate, merge the threads, analyse the merged"
	echo "view; *main thread* is the loading thread's own CPU time (the rest ran on the second"
	echo "core: the checksum, faulting in big arrays, parts of the analysis). The per-thread"
	echo "view is analysed on its first query (*per-thread analysis*; *peak RSS with both*"
	echo "once it exists)."
	echo
	echo "| contexts | PDs | CSDs | PSs | merged PDs | merged cliques | file | generate s | read | merge | merged analysis | load wall ms (min–max) | load CPU ms | main thread CPU ms | load peak RSS MB | per-thread analysis | peak RSS with both MB |"
	echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
	printf '%s' "$rows_phase"
	if [ -n "$rows_query" ]; then
		echo
		echo "Answers on the loaded profile (deepprof-querybench: a session as the servers"
		echo "load it; HTML; wall ms, 9 answers after one to warm up, in each of $QRUNS"
		echo "processes; *P* is the procedure with the most contexts). The same query on"
		echo "the same binary varies between processes with where their memory lands, so"
		echo "the table gives the median and the range of the processes' medians, and the"
		echo "slowest single answer. The query target: any query under 10 ms (every"
		echo "process's median)."
		echo
		echo "| profile | query | status | ms (median) | process medians | slowest | under 10 ms |"
		echo "|---|---|--:|--:|--:|--:|:-:|"
		printf '%s' "$rows_query"
	fi
	echo "<!-- bench-load:end -->"
} >"$out"
cat "$out"

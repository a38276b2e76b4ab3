#!/bin/sh
# tests/real/sqlite3.sh - Debian's sqlite3 (autoconf, libtool, Tcl-generated amalgamation)
# configured and built twice, plainly and with CC="deepprof cc", up to its speedtest1
# benchmark, which then runs in both builds on an in-memory database with --verify: the
# same tests and the same verification hash (a checksum of every query's results),
# sqlite_cfg.h identical (configure's test programs are not instrumented), no profile in
# the build tree (the build's own instrumented tools, lemon and the others, write theirs
# where DEEPPROF_OUTPUT says). The profile under deepprof run: main once, the VDBE and
# sqlite3_step called thousands of times, most samples in sqlite3.c's functions, and the
# time in the C library as library leaves under sqlite's functions.
# Usage: sqlite3.sh BUILD_DIR WORK_DIR REPO_DIR    Exit: 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"

command -v tclsh >/dev/null 2>&1 || die "tclsh not found (Debian tcl: scripts/install-deps)"
fetch sqlite3 >"$work/src.path"
src=$(cat "$work/src.path")
rm -rf "$work/prof"
mkdir -p "$work/prof"

# build DIR CC - a fresh copy of the source in DIR, configured and speedtest1 built with
# CC (also the build's own tools: configure makes BUILD_CC the same compiler).
build() {
	rm -rf "$1"
	cp -a "$src" "$1"
	(cd "$1" && ./configure -q CC="$2" CFLAGS="-O2 -g" --disable-tcl \
		--disable-readline >"$1.cfg.log" 2>&1) ||
		die "configuring sqlite3 with '$2' failed (see $1.cfg.log)"
	DEEPPROF_OUTPUT="$work/prof/%e.%p.data" make -C "$1" -j2 speedtest1 \
		>"$1.build.log" 2>&1 || die "building speedtest1 with '$2' failed (see $1.build.log)"
}
build "$work/plain" cc
build "$work/deep" "$dp cc"
cmp -s "$work/plain/sqlite_cfg.h" "$work/deep/sqlite_cfg.h" ||
	fail "sqlite_cfg.h differs: $(diff "$work/plain/sqlite_cfg.h" "$work/deep/sqlite_cfg.h" | head -5 | tr '\n' ' ')"
no_stray "$work/deep"
tools=$(find "$work/prof" -name 'lemon.*.data' -o -name 'mkkeywordhash.*.data' | wc -l)
[ "$tools" -ge 2 ] || fail "the build's tools wrote $tools profiles, expected lemon's and mkkeywordhash's"

args="--size 30 --memdb --verify --nomemstat speed.db"
# tests: the test lines without their times; hash: the verification hash
# shellcheck disable=SC2086 # args are words
"$work/plain/speedtest1" $args >"$work/plain.out" 2>&1 || die "plain speedtest1 failed"
cd "$work/deep"
rm -f st.data
# shellcheck disable=SC2086 # args are words
"$dp" run -o st.data -- ./speedtest1 $args >deep.out 2>run.log ||
	die "deepprof run speedtest1 failed: $(tail -3 run.log)"
for f in "$work/plain.out" deep.out; do
	sed -n 's/^ *\([0-9][0-9]* - [^.]*\)\.*.*/\1/p' "$f" >"$f.tests"
	grep '^Verification Hash:' "$f" >"$f.hash" || true
done
n=$(wc -l <deep.out.tests)
[ "$n" -ge 30 ] || fail "speedtest1 ran $n tests"
cmp -s deep.out.tests "$work/plain.out.tests" || fail "the profiled speedtest1 ran other tests"
[ -s deep.out.hash ] || fail "no verification hash from the profiled speedtest1"
cmp -s deep.out.hash "$work/plain.out.hash" ||
	fail "verification hash $(cat deep.out.hash), plain $(cat "$work/plain.out.hash")"

functions st.data >st.fn || die "cannot read st.data"
[ "$(calls_of st.fn main)" -eq 1 ] || fail "main called $(calls_of st.fn main) times"
for fn in sqlite3_step sqlite3VdbeExec; do
	[ "$(calls_of st.fn $fn)" -ge 1000 ] || fail "$fn called $(calls_of st.fn $fn) times"
done
# most of the time in sqlite3.c's functions, and the C library's as leaves under them
awk -F'\t' '{ all += $3 } $4 ~ /^sqlite3\.c:/ { in_sqlite += $3 }
	END { exit !(all >= 100 && in_sqlite * 2 >= all) }' st.fn ||
	fail "sqlite3.c's functions have less than half of the samples"
python3 "$repo/tests/real/profile.py" "$dp" st.data leaves >st.leaves ||
	die "cannot read the leaves of st.data"
grep -q '\[libc\.so\.6\]	[^	]*	[1-9]' st.leaves || fail "no C library leaf with samples"
# a leaf in the program itself is code built without instrumentation: the runtime's
# allocation wrappers only (sqlite3.c and speedtest1.c are all instrumented)
own=$(awk -F'\t' '$1 ~ /\[speedtest1\]$/ && $1 !~ /^(malloc|free|realloc|calloc) / { print $1 }' st.leaves | sort -u | head -3)
[ -z "$own" ] || fail "leaves in instrumented code: $own"
finish real_sqlite3 "$n tests alike, $(wc -l <st.fn) functions, $(wc -l <st.leaves) library leaves"

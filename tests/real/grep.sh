#!/bin/sh
# tests/real/grep.sh - Debian's grep (autotools, gnulib) configured and built twice,
# plainly and with CC="deepprof cc", and checked by its own `make check` (grep's tests
# and gnulib's): the same result for every test, config.h identical (configure's test
# programs are not instrumented) and no profile written into the build tree (the test
# programs' DEEPPROF_OUTPUT is one directory). Then the profiled grep searches a
# generated file under deepprof run: same output, and grep's own functions in the
# profile (main, the search through EGexecute).
# Usage: grep.sh BUILD_DIR WORK_DIR REPO_DIR    Exit: 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"

fetch grep >"$work/src.path"
src=$(cat "$work/src.path")
rm -rf "$work/prof"
mkdir -p "$work/prof"

# Debian's patches touch a Makefile.am: the generated files are used as they are (no
# automake needed), the same for both builds.
noauto="ACLOCAL=true AUTOCONF=true AUTOMAKE=true AUTOHEADER=true MAKEINFO=true"

# build DIR CC - a fresh copy of the source in DIR, configured, built and checked.
build() {
	rm -rf "$1"
	cp -a "$src" "$1"
	(cd "$1" && ./configure -q CC="$2" CFLAGS="-O2 -g" >"$1.cfg.log" 2>&1) ||
		die "configuring grep with '$2' failed (see $1.cfg.log)"
	# shellcheck disable=SC2086 # noauto is words
	make -C "$1" -j2 $noauto >"$1.build.log" 2>&1 ||
		die "building grep with '$2' failed (see $1.build.log)"
	# shellcheck disable=SC2086
	DEEPPROF_OUTPUT="$work/prof/%e.%p.data" make -C "$1" -j2 $noauto check \
		>"$1.check.log" 2>&1 || true
}
# results DIR - "TEST RESULT" for every test `make check` ran in DIR.
results() {
	find "$1" -name '*.trs' | while read -r f; do
		printf '%s %s\n' "${f#"$1"/}" "$(sed -n 's/^:test-result: //p' "$f" | head -1)"
	done | LC_ALL=C sort
}

build "$work/plain" cc
build "$work/deep" "$dp cc"
results "$work/plain" >"$work/plain.results"
results "$work/deep" >"$work/deep.results"
n=$(wc -l <"$work/plain.results")
[ "$n" -ge 100 ] || die "the plain make check ran $n tests"
grep -q ' FAIL$\| ERROR$' "$work/plain.results" &&
	echo "note: the plain build fails: $(grep ' FAIL$\| ERROR$' "$work/plain.results" | tr '\n' ' ')"
# the same tests, with the same results; but a test that skips itself on a busy machine
# (dfa-infloop skips when `timeout 0.01 sleep 0.02` does not time out) may pass in the
# other build: SKIP against PASS is no difference
awk 'NR == FNR { plain[$1] = $2; next }
	!($1 in plain) { print "only in the profiled build: " $1; bad = 1; next }
	{ p = plain[$1]; delete plain[$1] }
	p != $2 && !((p == "SKIP" && $2 == "PASS") || (p == "PASS" && $2 == "SKIP")) {
		print $1 ": " p " plain, " $2 " profiled"; bad = 1 }
	END { for (t in plain) { print "only in the plain build: " t; bad = 1 }; exit bad }' \
	"$work/plain.results" "$work/deep.results" >"$work/results.diff" ||
	fail "make check results differ: $(head -5 "$work/results.diff" | tr '\n' ' ')"
cmp -s "$work/plain/config.h" "$work/deep/config.h" ||
	fail "config.h differs: $(diff "$work/plain/config.h" "$work/deep/config.h" | head -5 | tr '\n' ' ')"
no_stray "$work/deep"
profiles=$(find "$work/prof" -name '*.data' | wc -l)
[ "$profiles" -ge 50 ] || fail "the tests' programs wrote $profiles profiles, expected 50 or more"

# the profiled grep on a generated file
awk 'BEGIN { srand(7); for (i = 0; i < 200000; i++)
	printf "line %d key%d value %d\n", i, int(rand() * 1000), int(rand() * 100000) }' \
	>"$work/input.txt"
pat='key(12|345)7? value [0-9]*9$'
"$work/plain/src/grep" -E -c "$pat" "$work/input.txt" >"$work/plain.out" || die "plain grep failed"
cd "$work/deep"
rm -f g.data
"$dp" run -o g.data -- ./src/grep -E -c "$pat" "$work/input.txt" >deep.out 2>run.log ||
	die "deepprof run grep failed: $(tail -3 run.log)"
cmp -s deep.out "$work/plain.out" || fail "profiled grep counted $(cat deep.out), plain $(cat "$work/plain.out")"
functions g.data >g.fn || die "cannot read g.data"
[ "$(calls_of g.fn main)" -eq 1 ] || fail "main called $(calls_of g.fn main) times"
for fn in grepfile grepdesc EGexecute; do
	[ "$(calls_of g.fn $fn)" -gt 0 ] || fail "$fn not called in the profile"
done
grep -q "^main	1	[0-9]*	grep.c:[1-9]" g.fn || fail "main not placed in grep.c"

finish real_grep "$n tests alike, $profiles test profiles, $(wc -l <g.fn) functions in grep's profile"

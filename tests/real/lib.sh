# tests/real/lib.sh - sourced by the real-program tests (not bzip2.sh, which predates it).
# Sets build, work, repo, dp (the deepprof binary) from the three arguments BUILD_DIR
# WORK_DIR REPO_DIR; fail() counts a failed check, die() fails at once, fetch PKG
# prints the unpacked Debian source of PKG (exit 77 when it cannot be downloaded),
# functions/callers/threads read a profile (profile.py), finish NAME ends the test.
set -eu

build=$(cd "$1" && pwd)
mkdir -p "$2"
work=$(cd "$2" && pwd)
repo=$(cd "$3" && pwd)
dp="$build/bin/deepprof"
fails=0
started=$(date +%s)

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}
die() {
	echo "FAIL: $*" >&2
	exit 1
}

[ -x "$dp" ] || die "$dp not built"
command -v python3 >/dev/null 2>&1 || die "python3 not found"

# fetch PKG - the unpacked Debian source of PKG (cached in $work/src).
fetch() {
	rc=0
	"$repo/scripts/get-debian-source" "$1" "$work/src" || rc=$?
	if [ $rc -eq 3 ]; then
		echo "SKIP: $1's Debian source cannot be downloaded" >&2
		exit 77
	fi
	[ $rc -eq 0 ] || die "scripts/get-debian-source $1 failed ($rc)"
}

# functions FILE / callers FILE NAME / threads FILE / main_calls FILE NAME - see
# profile.py.
functions() {
	python3 "$repo/tests/real/profile.py" "$dp" "$1" functions
}
callers() {
	python3 "$repo/tests/real/profile.py" "$dp" "$1" callers "$2"
}
threads() {
	python3 "$repo/tests/real/profile.py" "$dp" "$1" threads
}
main_calls() {
	python3 "$repo/tests/real/profile.py" "$dp" "$1" main-calls "$2"
}

# calls_of FN-FILE NAME - summed calls of function NAME in a `functions` listing.
calls_of() {
	awk -F'\t' -v n="$2" '$1 == n { c += $2 } END { print c + 0 }' "$1"
}

# no_stray DIR - fail if a profile (Deep*.data) was written anywhere under DIR.
no_stray() {
	stray=$(find "$1" -name 'Deep*.data' | head -3)
	[ -z "$stray" ] || fail "profiles written into $1: $stray"
}

# finish NAME SUMMARY - exit 1 if a check failed, else print the summary and the time.
finish() {
	if [ $fails -ne 0 ]; then
		echo "$1: $fails check(s) failed (work dir $work)" >&2
		exit 1
	fi
	echo "$1: ok, $2 ($(($(date +%s) - started)) s)"
}

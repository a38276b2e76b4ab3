#!/bin/sh
# bench/gen/test_genprof.sh - checks deepprof-genprof: the same seed gives the same bytes,
# another seed other bytes; the profile has about the contexts asked for, every clique
# has one entry CSD (as in files the runtime writes), the merged view merges the two
# worker threads that run the same code, and `deepprof check` renders every page of it
# in both thread views with every analysis invariant holding.
# Usage: test_genprof.sh GENPROF LOADBENCH DEEPPROF WORKDIR
set -eu
gen=$1 lb=$2 dp=$3 dir=$4
mkdir -p "$dir"
fail() { echo "test_genprof: $*" >&2; exit 1; }

"$gen" 5000 "$dir/a.data" --seed 5 >/dev/null
"$gen" 5000 "$dir/b.data" --seed 5 >/dev/null
"$gen" 5000 "$dir/c.data" --seed 6 >/dev/null
cmp -s "$dir/a.data" "$dir/b.data" || fail "same seed, different files"
cmp -s "$dir/a.data" "$dir/c.data" && fail "different seeds, same file"

line=$("$lb" "$dir/a.data")
val() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
pd=$(val pd) csd=$(val csd) extra=$(val extra_entries) merged=$(val merged_pd)
if [ "$pd" -lt 4900 ] || [ "$pd" -gt 5100 ]; then fail "asked for 5000 contexts, got $pd PDs"; fi
[ "$csd" -gt "$pd" ] || fail "$csd CSDs for $pd PDs: no recursion or no indirect calls"
[ "$extra" -eq 0 ] || fail "$extra CSDs enter a clique besides its entry"
if [ "$merged" -ne 0 ]; then
	[ "$merged" -lt "$pd" ] || fail "merging threads merged nothing ($merged PDs)"
fi

"$dp" check --max 30 "$dir/a.data" || fail "deepprof check failed"
echo "test_genprof: ok ($pd PDs, $csd CSDs, $merged merged PDs)"

#!/bin/sh
# tests/real/bzip2.sh - profile Debian's bzip2 end to end (CTest real_bzip2).
# Fetches bzip2's source (apt-get source, cached in WORK), builds it twice with its own
# Makefile (plain cc, and CC="deepprof cc"), compresses and decompresses a generated
# ~2 MB file with both, requires byte-identical output, and checks the profiles'
# `deepprof dump --format=json`: exact counts, calls == exits, symbolized file:line.
# Usage: bzip2.sh BUILD_DIR WORK_DIR REPO_DIR    Exit: 0 pass, 1 fail, 77 skip (no source).
set -eu

build=$(cd "$1" && pwd)
mkdir -p "$2"
work=$(cd "$2" && pwd)
repo=$(cd "$3" && pwd)
dp="$build/bin/deepprof"
fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}
die() {
	echo "FAIL: $*" >&2
	exit 1
}

command -v jq >/dev/null 2>&1 || die "jq not found (scripts/install-deps installs it)"
[ -x "$dp" ] || die "$dp not built"

rc=0
src=$("$repo/scripts/get-debian-source" bzip2 "$work/src") || rc=$?
if [ $rc -eq 3 ]; then
	echo "SKIP: bzip2's Debian source cannot be downloaded" >&2
	exit 77
fi
[ $rc -eq 0 ] || die "scripts/get-debian-source bzip2 failed ($rc)"

# build_bzip2 DIR CC - a fresh copy of the source in DIR, built by its Makefile with CC,
# and bzip2 linked statically against libbz2.a (Debian's Makefile links the .so).
build_bzip2() {
	rm -rf "$1"
	cp -r "$src" "$1"
	flags="-O2 -g -D_FILE_OFFSET_BITS=64"
	make -s -C "$1" CC="$2" CFLAGS="$flags" libbz2.a bzip2.o >"$1.log" 2>&1 ||
		die "building bzip2 with '$2' failed (see $1.log)"
	# shellcheck disable=SC2086 # CC is a command with arguments, flags are words
	(cd "$1" && $2 $flags -o bzip2 bzip2.o libbz2.a) >>"$1.log" 2>&1 ||
		die "linking bzip2 with '$2' failed (see $1.log)"
}
build_bzip2 "$work/plain" cc
build_bzip2 "$work/deep" "$dp cc"

# ~2 MB of deterministic word salad, without runs of 4 equal bytes (so that bzip2's block
# count follows from the size and can be read back from `bzip2 -vv`).
awk 'BEGIN {
	srand(20261122)
	n = split("the of deep profiler call site graph context bzip2 block sort huffman " \
		"compress stream mercury proc dynamic static caller callee count sample", w, " ")
	while (size < 2000000) {
		line = ""
		for (i = 0; i < 12; i++)
			line = line w[int(rand() * n) + 1] " " int(rand() * 1000) " "
		print line
		size += length(line) + 1
	}
}' >"$work/input.txt"

# Plain build: reference output, and the number of blocks it compressed.
cp "$work/input.txt" "$work/plain/in.txt"
(cd "$work/plain" && ./bzip2 -vv -k -f in.txt) 2>"$work/plain/vv.log" ||
	die "plain bzip2 failed"
blocks=$(grep -c 'block [0-9]*: crc' "$work/plain/vv.log" || true)
[ "$blocks" -ge 2 ] || die "plain bzip2 -vv reported $blocks blocks"

# Profiled build, under deepprof run: compress, then decompress a copy.
cd "$work/deep"
rm -f in.txt.bz2 out.bz2 out comp.dp decomp.dp
cp "$work/input.txt" in.txt
"$dp" run -o comp.dp -- ./bzip2 -k -f in.txt >run-comp.log 2>&1 ||
	die "deepprof run bzip2 (compress) failed: $(tail -3 run-comp.log)"
cmp -s in.txt.bz2 "$work/plain/in.txt.bz2" ||
	fail "profiled bzip2 wrote a different .bz2 than the plain build"
cp in.txt.bz2 out.bz2
"$dp" run -o decomp.dp -- ./bzip2 -d -f out.bz2 >run-decomp.log 2>&1 ||
	die "deepprof run bzip2 (decompress) failed: $(tail -3 run-decomp.log)"
cmp -s out "$work/input.txt" || fail "profiled bzip2 -d did not restore the input"

"$dp" dump --format=json comp.dp >comp.json || die "deepprof dump comp.dp failed"
"$dp" dump --format=json decomp.dp >decomp.json || die "deepprof dump decomp.dp failed"

# Per function (callee PS of kind "function": not the root or thread nodes): summed calls, exits, unwinds, and the PS's file:line.
# Output lines (tab-separated): NAME CALLS EXITS UNWINDS FILE LINE; "?" for no name.
per_function() {
	jq -r '
	  (.ps | map({key: (.id | tostring), value: .}) | from_entries) as $ps
	  | (.pd | map({key: (.id | tostring), value: (.ps | tostring)}) | from_entries) as $pdps
	  | [.csd[] | {ps: $ps[$pdps[.callee | tostring]], calls, exits, unwinds}
	     | select((.ps.kind // "function") == "function")]
	  | group_by(.ps.id)[]
	  | [(.[0].ps.name // "" | if . == "" then "?" else . end),
	     (map(.calls) | add), (map(.exits) | add), (map(.unwinds) | add),
	     (.[0].ps.file // "" | if . == "" then "-" else . end), (.[0].ps.line // 0)]
	  | map(tostring) | join("\t")' "$1"
}
per_function comp.json >comp.fn || die "comp.json does not follow the dump schema"
per_function decomp.json >decomp.fn || die "decomp.json does not follow the dump schema"

# calls_of FN-FILE NAME - summed calls of NAME (0 when absent)
calls_of() {
	awk -F'\t' -v n="$2" '$1 == n { c += $2 } END { print c + 0 }' "$1"
}

# check_fn FN-FILE NAME SOURCE-FILE - present, called, defined at a line of SOURCE-FILE
# that names it.
check_fn() {
	row=$(awk -F'\t' -v n="$2" '$1 == n { print $2, $6 }' "$1" | head -1)
	if [ -z "$row" ]; then
		fail "$1: $2 missing from the profile"
		return
	fi
	calls=${row%% *}
	line=${row##* }
	file=$(awk -F'\t' -v n="$2" '$1 == n { print $5; exit }' "$1")
	[ "$calls" -gt 0 ] || fail "$1: $2 has $calls calls"
	[ "$(basename "$file")" = "$3" ] || fail "$1: $2 in file '$file', expected $3"
	text=$(sed -n "${line}p" "$work/deep/$3")
	case $text in
	*"$2"*) ;;
	*) fail "$1: $2 at $3:$line, but that line reads '$text'" ;;
	esac
}

for f in comp.fn decomp.fn; do
	[ "$(calls_of $f main)" -eq 1 ] || fail "$f: main called $(calls_of $f main) times, expected 1"
	check_fn $f main bzip2.c
	# every function but main returns normally: calls == exits, no unwinds
	awk -F'\t' '$1 != "main" && ($2 != $3 || $4 != 0) { print "FAIL: " FILENAME ": " $1 \
		" calls " $2 " exits " $3 " unwinds " $4; bad = 1 } END { exit bad }' $f ||
		fails=$((fails + 1))
done
for fn in compressStream:bzip2.c BZ2_bzWriteOpen:bzlib.c BZ2_bzWrite:bzlib.c \
	BZ2_bzCompress:bzlib.c BZ2_compressBlock:compress.c BZ2_blockSort:blocksort.c \
	BZ2_hbMakeCodeLengths:huffman.c; do
	check_fn comp.fn "${fn%%:*}" "${fn#*:}"
done
for fn in uncompressStream:bzip2.c BZ2_bzReadOpen:bzlib.c BZ2_bzRead:bzlib.c \
	BZ2_bzDecompress:bzlib.c BZ2_decompress:decompress.c; do
	check_fn decomp.fn "${fn%%:*}" "${fn#*:}"
done
# exact: one BZ2_compressBlock per block, as many blocks as the plain build reported
n=$(calls_of comp.fn BZ2_compressBlock)
[ "$n" -eq "$blocks" ] || fail "BZ2_compressBlock called $n times, plain bzip2 made $blocks blocks"
[ "$(calls_of comp.fn BZ2_bzDecompress)" -eq 0 ] || fail "compressing called BZ2_bzDecompress"

if [ $fails -ne 0 ]; then
	echo "real_bzip2: $fails check(s) failed (work dir $work/deep)" >&2
	exit 1
fi
echo "real_bzip2: ok ($blocks blocks, $(wc -l <comp.fn) functions profiled in compress," \
	"$(wc -l <decomp.fn) in decompress)"

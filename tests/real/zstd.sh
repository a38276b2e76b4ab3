#!/bin/sh
# tests/real/zstd.sh - Debian's zstd (threads, assembly) built by its own Makefile
# (programs/zstd) twice, plainly and with CC="deepprof cc", compressing a generated 8 MB
# file with two worker threads (-T2, 1 MiB jobs) under deepprof run: byte-identical
# .zst with the plain build, the file decompresses to the input, and the profile has
# the main thread and both workers, with the compression jobs run in the workers.
# Usage: zstd.sh BUILD_DIR WORK_DIR REPO_DIR    Exit: 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"

fetch libzstd >"$work/src.path"
src=$(cat "$work/src.path")

# build DIR CC - a fresh copy of the source in DIR, programs/zstd built with CC.
build() {
	rm -rf "$1"
	cp -r "$src" "$1"
	make -C "$1/programs" -j2 CC="$2" MOREFLAGS="-g" zstd >"$1.log" 2>&1 ||
		die "building zstd with '$2' failed (see $1.log)"
}
build "$work/plain" cc
build "$work/deep" "$dp cc"

# 8 MB of deterministic text: compressible, but not trivially
awk 'BEGIN {
	srand(20261125)
	n = split("deep profile call graph thread worker job block literal match " \
		"sequence entropy huffman window level frame dictionary", w, " ")
	while (size < 8000000) {
		line = ""
		for (i = 0; i < 10; i++)
			line = line w[int(rand() * n) + 1] int(rand() * 100000) " "
		print line
		size += length(line) + 1
	}
}' >"$work/input.txt"

opts="-T2 -B1048576 -3 -q -f"
# shellcheck disable=SC2086 # opts are words
"$work/plain/programs/zstd" $opts "$work/input.txt" -o "$work/plain.zst" ||
	die "plain zstd failed"
cd "$work/deep"
rm -f c.data out.zst
# shellcheck disable=SC2086
"$dp" run -o c.data -- ./programs/zstd $opts "$work/input.txt" -o out.zst >run.log 2>&1 ||
	die "deepprof run zstd failed: $(tail -3 run.log)"
cmp -s out.zst "$work/plain.zst" || fail "profiled zstd -T2 wrote another .zst than the plain one"
"$work/plain/programs/zstd" -d -q -c out.zst | cmp -s - "$work/input.txt" ||
	fail "the profiled build's .zst does not decompress to the input"

functions c.data >c.fn || die "cannot read c.data"
t=$(threads c.data)
[ "$t" -ge 3 ] || fail "$t threads with calls, expected the main thread and 2 workers"
[ "$(calls_of c.fn main)" -eq 1 ] || fail "main called $(calls_of c.fn main) times"
jobs=$(calls_of c.fn ZSTDMT_compressionJob)
[ "$jobs" -ge 8 ] || fail "ZSTDMT_compressionJob called $jobs times, expected 8 or more"
grep -q "^ZSTD_compressBlock_[a-z_]*	[1-9]" c.fn || fail "no ZSTD_compressBlock_* called"
# the jobs run in the workers, not in the main thread
m=$(main_calls c.data ZSTDMT_compressionJob)
[ "$m" -eq 0 ] || fail "ZSTDMT_compressionJob called $m times in the main thread"
finish real_zstd "$t threads, $jobs jobs, $(wc -l <c.fn) functions"

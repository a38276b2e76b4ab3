# bench/src/gentext.awk - deterministic text input for the compression workloads:
# `awk -v size=BYTES -f gentext.awk` prints about BYTES bytes of seeded word salad with
# numbers (compresses like prose, no long runs). Same output for the same awk.
BEGIN {
	if (size == "")
		size = 8000000
	srand(20261122)
	n = split("the of and a to in is that for it as was with be by on not he this are " \
		"or his from at which but have an they you were her she there been one all " \
		"profile call graph context caller callee sample block sort compress stream " \
		"function return address thread signal timer counter", w, " ")
	while (total < size) {
		line = ""
		for (i = 0; i < 10; i++) {
			line = line w[int(rand() * n) + 1]
			line = line (rand() < 0.2 ? " " int(rand() * 10000) ", " : " ")
		}
		print line
		total += length(line) + 1
	}
}

# bench/src/gprof-calls.awk - the total number of calls in a `gprof -b -q` call graph:
# the "called" field (N or N+R, R being recursive calls) of each primary line "[i] ...".
/^\[[0-9]+\]/ {
	for (i = 2; i <= NF; i++) {
		if ($i ~ /^[0-9]+(\+[0-9]+)?$/ && $(i - 1) ~ /^[0-9.]+$/ && i >= 5) {
			split($i, p, "+")
			total += p[1] + p[2]
			break
		}
	}
}
END { printf "%.0f\n", total }

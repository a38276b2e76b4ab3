# bench/src/uftrace-calls.awk - the number of calls in `uftrace report` output: the sum
# of the Calls column (the fifth field: total and self time each take a value and a unit).
# uftrace's own events ("linux:schedule (pre-empted)") are not calls. Fails when it
# finds none (the report did not run).
/^ *=+/ { body = 1; next }
body && NF >= 6 && $5 ~ /^[0-9]+$/ && $6 !~ /^linux:/ { total += $5 }
END { if (!total) exit 1; printf "%.0f\n", total }

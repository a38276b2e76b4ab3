# bench/src/callgrind-calls.awk - the number of calls to the program's own functions in
# a callgrind output file: the sum of the "calls=N" lines whose callee lies in the
# executable (named -v exe=PATH) and has a symbol (PLT stubs and other address-only
# entries, and Valgrind's "(below main)", are left out). Fails when it finds none. Names are compressed as "(id) name" on first use; the callee's
# object is the last cob= line before the call, or else the caller's ob=.
function name_of(kind, s,   id) {
	if (match(s, /^\([0-9]+\)/)) {
		id = substr(s, 2, RLENGTH - 2)
		s = substr(s, RLENGTH + 1)
		sub(/^ /, "", s)
		if (s != "")
			names[kind, id] = s
		return names[kind, id]
	}
	return s
}
/^ob=/ { ob = name_of("ob", substr($0, 4)); cob = ob; next }
/^cob=/ { cob = name_of("ob", substr($0, 5)); next }
/^fn=/ { name_of("fn", substr($0, 4)); cob = ob; next }
/^cfn=/ { cfn = name_of("fn", substr($0, 5)); next }
/^calls=/ {
	split(substr($0, 7), f, " ")
	if (cob == exe && cfn !~ /^(0x|\()/ && cfn != "")
		total += f[1]
	cob = ob
	next
}
END { if (!total) exit 1; printf "%.0f\n", total }

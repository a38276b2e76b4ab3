# bench/render.awk - render bench/run's statistics as Markdown: one table per workload
# (median and spread of CPU time, median wall time, slowdown, ns added per call, data
# written, time to the first report, peak memory, same output as plain) and the targets
# (per-call cost on fib at most 6 ns above the empty hooks; real programs slowed less
# than by gprof's -pg). Slowdowns and ns per call are paired CPU-time medians (paired.awk).
# Input files, in order (tab-separated): meta (C/W/N lines), cpu.stat, wall.stat,
# report.stat, rss.stat, data.stat (workload config median min max n), differs
# (workload config), paired (paired.awk's columns: medians and confidence intervals of
# the ratio to plain, the ns over plain and hooks, the ratio to gprof). A target is
# "met" or "not met" only when the whole confidence interval says so; otherwise the
# difference is "within noise".

FNR == 1 { file++ }
/^#/ { next }
file == 1 && $1 == "C" { nc++; cname[nc] = $2; clabel[$2] = $3; next }
file == 1 && $1 == "W" {
	nw++; wname[nw] = $2; wlabel[$2] = $3; wcalls[$2] = $4; wcounted[$2] = $5
	wreal[$2] = $6; wfloor[$2] = $7; next
}
file == 1 && $1 == "N" { seen[$2 SUBSEP $3] = $4; next }
file == 2 { k = $1 SUBSEP $2; cpu[k] = $3; cmin[k] = $4; cmax[k] = $5; cn[k] = $6; next }
file == 3 { wall[$1 SUBSEP $2] = $3; next }
file == 4 { rep[$1 SUBSEP $2] = $3; next }
file == 5 { rss[$1 SUBSEP $2] = $3; next }
file == 6 { data[$1 SUBSEP $2] = $3; next }
file == 7 { differs[$1 SUBSEP $2] = 1; next }
file == 8 {
	k = $1 SUBSEP $2
	pr[k] = $3; dplain[k] = $4; dhooks[k] = $5; prlo[k] = $6; prhi[k] = $7
	dhlo[k] = $8; dhhi[k] = $9; rg[k] = $10; rglo[k] = $11; rghi[k] = $12; rgn[k] = $13
	rgcover[k] = $14
	next
}

function secs(ns) { return sprintf("%.3f", ns / 1e9) }
function bytes(b) {
	if (b < 10000)
		return sprintf("%d B", b)
	if (b < 10000000)
		return sprintf("%.1f kB", b / 1e3)
	return sprintf("%.1f MB", b / 1e6)
}
function commas(n,   s) {
	s = sprintf("%d", n)
	while (s ~ /[0-9][0-9][0-9][0-9]/)
		sub(/[0-9][0-9][0-9]([,]|$)/, ",&", s)
	return s
}
function calls_of(w) {
	if (wcalls[w] != "-")
		return wcalls[w]
	return wcounted[w] != "-" ? wcounted[w] : 0
}
# per_call W C BASE - ns added per call by config C over BASE (plain or hooks), paired
# per repetition; "" if unknown
function per_call(w, c, base,   n, d) {
	n = calls_of(w)
	if (base == "plain")
		d = dplain[w SUBSEP c]
	else if (base == "hooks-lo" || base == "hooks-hi")
		d = (base == "hooks-lo") ? dhlo[w SUBSEP c] : dhhi[w SUBSEP c]
	else
		d = dhooks[w SUBSEP c]
	if (n <= 0 || d == "" || d == "-")
		return ""
	return d / n
}
# ratio W C - slowdown of C against plain, paired per repetition; "" if unknown
function ratio(w, c,   r) {
	r = pr[w SUBSEP c]
	return (r == "" || r == "-") ? "" : r
}

function workload_table(w,   i, c, k, s, pc, fl, r, d, t, o, n) {
	printf "#### %s\n\n", wlabel[w]
	if (wcalls[w] != "-")
		s = commas(wcalls[w]) " calls (exact, from the program's structure)"
	else if (wcounted[w] != "-")
		s = commas(wcounted[w]) " calls (counted by deepprof)"
	else
		s = "call count unknown"
	if (wcalls[w] != "-" && wcounted[w] != "-")
		s = s (wcalls[w] == wcounted[w] ? "; deepprof counted the same" : \
			"; **deepprof counted " commas(wcounted[w]) "**")
	printf "%s.\n\n", s
	print "| configuration | CPU s (median) | CPU min–max | runs | wall s | × plain | " \
		"ns/call added | ns/call above hooks | calls seen | data written | " \
		"first report s | peak RSS MB | output |"
	print "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|:-:|"
	for (i = 1; i <= nc; i++) {
		c = cname[i]; k = w SUBSEP c
		if (!(k in cpu)) {
			printf "| %s | – | – | 0 | – | – | – | – | – | – | – | – | not run |\n", clabel[c]
			continue
		}
		pc = per_call(w, c, "plain"); fl = per_call(w, c, "hooks"); r = ratio(w, c)
		pc = (c == "plain" || pc == "") ? "–" : sprintf("%.2f", pc)
		fl = (c == "plain" || c == "hooks" || fl == "") ? "–" : sprintf("%.2f", fl)
		r = (r == "") ? "–" : sprintf("%.2f", r)
		if (r != "–" && c != "plain" && prlo[k] != "-" && prlo[k] != prhi[k])
			r = r sprintf(" (%.2f–%.2f)", prlo[k], prhi[k])
		d = ((k in data) && data[k] > 0) ? bytes(data[k]) : "–"
		t = ((k in rep) && rep[k] > 0) ? secs(rep[k]) : "–"
		o = (c == "plain") ? "reference" : ((k in differs) ? "**differs**" : "same")
		n = (k in seen) ? commas(seen[k]) : "–"
		printf "| %s | %s | %s–%s | %d | %s | %s | %s | %s | %s | %s | %s | %.1f | %s |\n",
			clabel[c], secs(cpu[k]), secs(cmin[k]), secs(cmax[k]), cn[k], secs(wall[k]), r,
			pc, fl, n, d, t, rss[k] / 1024, o
	}
	print ""
}

function verdict(ok) { return ok ? "**met**" : "**not met**" }
# verdict3 LO HI LIMIT - the target "at most LIMIT" judged on a confidence interval
function verdict3(lo, hi, limit) {
	if (hi < limit)
		return "**met**"
	if (lo > limit)
		return "**not met**"
	return "**within noise** (the interval holds the target's limit)"
}

function targets(   i, w, fl, fl0, s, rd, rgp, any, lo, hi, k) {
	print "#### Targets"
	print ""
	for (i = 1; i <= nw; i++) {
		w = wname[i]
		if (!wfloor[w])
			continue
		fl = per_call(w, "deepprof", "hooks"); fl0 = per_call(w, "deepprof-hz0", "hooks")
		any = 1
		if (fl == "" && fl0 == "") {
			printf "- %s: per-call cost above the empty-hook floor: not measured (deepprof " \
				"or hooks did not run).\n", wlabel[w]
			continue
		}
		lo = per_call(w, "deepprof", "hooks-lo"); hi = per_call(w, "deepprof", "hooks-hi")
		s = fl != "" ? sprintf("deepprof %.2f ns", fl) : "deepprof not run"
		if (fl != "" && lo != "")
			s = s sprintf(" (%.2f–%.2f)", lo, hi)
		s = s (fl0 != "" ? sprintf(", with DEEPPROF_HZ=0 %.2f ns", fl0) : "")
		printf "- %s: cost per call above the empty-hook floor: %s (target at most 6 ns): %s\n",
			wlabel[w], s, (fl == "" || lo == "") ? verdict(0) : verdict3(lo, hi, 6.0001)
	}
	for (i = 1; i <= nw; i++) {
		w = wname[i]
		if (!wreal[w])
			continue
		any = 1
		rd = ratio(w, "deepprof"); rgp = ratio(w, "gprof"); k = w SUBSEP "deepprof"
		if (rd == "" || rgp == "" || rg[k] == "" || rg[k] == "-") {
			printf "- %s: deepprof vs gprof slowdown: not measured.\n", wlabel[w]
			continue
		}
		s = ""
		if (rg[w SUBSEP "deepprof-hz0"] != "" && rg[w SUBSEP "deepprof-hz0"] != "-")
			s = sprintf("; sampling off %.3f (%.3f–%.3f)", rg[w SUBSEP "deepprof-hz0"],
				rglo[w SUBSEP "deepprof-hz0"], rghi[w SUBSEP "deepprof-hz0"])
		printf "- %s: slowdown deepprof %.2fx vs gprof %.2fx; deepprof's CPU time over " \
			"gprof's in the same repetition, median of %d pairs %.3f (%.1f %% interval " \
			"%.3f–%.3f)%s (target: below 1): %s\n", wlabel[w], rd, rgp, rgn[k], rg[k],
			rgcover[k], rglo[k], rghi[k], s, verdict3(rglo[k], rghi[k], 1)
	}
	if (!any)
		print "- no workload with a target was run."
	print ""
}

END {
	for (i = 1; i <= nw; i++)
		workload_table(wname[i])
	targets()
}

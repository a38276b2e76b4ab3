# bench/render.awk - render bench/run's statistics as Markdown: one table per workload
# (median and spread of CPU time, median wall time, slowdown, ns added per call, data
# written, time to the first report, peak memory, same output as plain) and the targets
# of issues 2 and 5. Slowdowns and ns per call are paired CPU-time medians (paired.awk).
# Input files, in order (tab-separated): meta (C/W/N lines), cpu.stat, wall.stat,
# report.stat, rss.stat, data.stat (workload config median min max n), differs
# (workload config), paired (workload config ratio ns_over_plain ns_over_hooks).

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
file == 8 { pr[$1 SUBSEP $2] = $3; dplain[$1 SUBSEP $2] = $4; dhooks[$1 SUBSEP $2] = $5; next }

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
	d = (base == "plain") ? dplain[w SUBSEP c] : dhooks[w SUBSEP c]
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

function targets(   i, w, fl, fl0, s, rd, rg, any) {
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
		s = fl != "" ? sprintf("deepprof %.2f ns", fl) : "deepprof not run"
		s = s (fl0 != "" ? sprintf(", with DEEPPROF_HZ=0 %.2f ns", fl0) : "")
		printf "- %s: cost per call above the empty-hook floor: %s (target at most 6 ns): %s\n",
			wlabel[w], s, verdict(fl != "" && fl <= 6)
	}
	for (i = 1; i <= nw; i++) {
		w = wname[i]
		if (!wreal[w])
			continue
		any = 1
		rd = ratio(w, "deepprof"); rg = ratio(w, "gprof")
		if (rd == "" || rg == "") {
			printf "- %s: deepprof vs gprof slowdown: not measured.\n", wlabel[w]
			continue
		}
		printf "- %s: slowdown deepprof %.2fx vs gprof %.2fx (target: below gprof's): %s\n",
			wlabel[w], rd, rg, verdict(rd < rg)
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

# bench/render.awk - render bench/run's statistics as Markdown: one table per workload
# (median and spread of CPU time, median wall time, slowdown, ns added per call, data
# written, time to the first report, peak memory, same output as plain) and the targets
# of deepprof's default configuration, each workload's `target` field: "percall N" (at
# most N ns added per call over plain), "ratio R" (at most R times plain), "context N"
# (at most N ns added per new calling context, of the workload's `contexts`) and
# "gprofhalf" (adds at most half of what gprof's -pg adds). Slowdowns and ns per call are
# paired CPU-time medians (paired.awk). Input files, in order (tab-separated): meta
# (C/W/N lines), cpu.stat, wall.stat, report.stat, rss.stat, data.stat (workload config
# median min max n), differs (workload config), paired (paired.awk's columns). A target
# is "met" or "not met" only when the whole confidence interval says so; otherwise the
# difference is "within noise".

FNR == 1 { file++ }
/^#/ { next }
file == 1 && $1 == "C" { nc++; cname[nc] = $2; clabel[$2] = $3; next }
file == 1 && $1 == "W" {
	nw++; wname[nw] = $2; wlabel[$2] = $3; wcalls[$2] = $4; wcounted[$2] = $5
	wreal[$2] = $6; wtarget[$2] = $7; wctx[$2] = $8; next
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
	rgcover[k] = $14; dplo[k] = $15; dphi[k] = $16; hx[k] = $17; hxlo[k] = $18; hxhi[k] = $19
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
# per_call W C BASE - ns added per call by config C over BASE (plain, plain-lo,
# plain-hi: the median and the interval; hooks, hooks-lo, hooks-hi: over its method's
# floor), paired per repetition; "" if unknown
function per_call(w, c, base,   n, d) {
	n = calls_of(w)
	if (base == "plain")
		d = dplain[w SUBSEP c]
	else if (base == "plain-lo" || base == "plain-hi")
		d = (base == "plain-lo") ? dplo[w SUBSEP c] : dphi[w SUBSEP c]
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
		"ns/call added | ns/call above its floor | calls seen | data written | " \
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
		fl = (c == "plain" || c == "hooks" || c == "stubs" || fl == "") ? "–" : sprintf("%.2f", fl)
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

# num_or X - X, or "" for a missing value ("-")
function val(x) { return (x == "" || x == "-") ? "" : x }

# interval LO HI FMT - " (LO–HI)" formatted, or "" when unknown or a single value
function interval(lo, hi, fmt) {
	if (val(lo) == "" || val(hi) == "" || lo == hi)
		return ""
	return sprintf(" (" fmt "–" fmt ")", lo, hi)
}

# target W - the line of workload W's target for deepprof's default configuration
function target(w,   t, a, c, k, m, lo, hi, n, s, g, v) {
	split(wtarget[w], a, " ")
	t = a[1]; c = "deepprof"; k = w SUBSEP c
	if (!(k in cpu))
		return sprintf("- %s: deepprof not run.", wlabel[w])
	if (t == "percall") {
		m = per_call(w, c, "plain"); lo = per_call(w, c, "plain-lo")
		hi = per_call(w, c, "plain-hi")
		if (m == "")
			return sprintf("- %s: ns per call over plain: not measured.", wlabel[w])
		s = sprintf("- %s: cost per call over the plain build: deepprof %.2f ns%s",
			wlabel[w], m, interval(lo, hi, "%.2f"))
		if (val(per_call(w, "deepprof-hz0", "plain")) != "")
			s = s sprintf(", with DEEPPROF_HZ=0 %.2f ns", per_call(w, "deepprof-hz0", "plain"))
		if (val(per_call(w, c, "hooks")) != "")
			s = s sprintf("; %.2f ns of it above the empty stubs", per_call(w, c, "hooks"))
		v = (lo == "") ? verdict(m <= a[2]) : verdict3(lo, hi, a[2] + 0.00001)
		return s sprintf(" (target at most %s ns): %s", a[2], v)
	}
	if (t == "ratio") {
		m = val(pr[k])
		if (m == "")
			return sprintf("- %s: slowdown: not measured.", wlabel[w])
		v = (val(prlo[k]) == "") ? verdict(m <= a[2]) : verdict3(prlo[k], prhi[k], a[2] + 0.00001)
		return sprintf("- %s: slowdown deepprof %.2fx%s of plain, paired median of %d " \
			"(target at most %sx): %s", wlabel[w], m, interval(prlo[k], prhi[k], "%.2f"),
			cn[k], a[2], v)
	}
	if (t == "context") {
		n = wctx[w]
		m = val(dplain[k])
		if (m == "" || n <= 0)
			return sprintf("- %s: cost per new context: not measured.", wlabel[w])
		lo = (val(dplo[k]) == "") ? "" : dplo[k] / n
		hi = (val(dphi[k]) == "") ? "" : dphi[k] / n
		v = (lo == "") ? verdict(m / n <= a[2]) : verdict3(lo, hi, a[2] + 0.00001)
		return sprintf("- %s: cost per new calling context (%s contexts, each created " \
			"by one call; the run's whole overhead, the write at exit included): " \
			"deepprof %.0f ns%s (target at most %s ns): %s", wlabel[w], commas(n), m / n,
			interval(lo, hi, "%.0f"), a[2], v)
	}
	if (t == "gprofhalf") {
		g = w SUBSEP "gprof"
		if (val(hx[k]) == "" || val(pr[g]) == "")
			return sprintf("- %s: deepprof against half of gprof's overhead: not measured.",
				wlabel[w])
		s = sprintf("- %s: deepprof adds %.1f %% to plain, gprof %.1f %% (paired medians); " \
			"(2 t_deepprof - t_gprof - t_plain) / t_plain, at most 0 when deepprof adds " \
			"at most half of gprof's overhead: median of %d %.3f%s", wlabel[w],
			100 * (pr[k] - 1), 100 * (pr[g] - 1), cn[k], hx[k],
			interval(hxlo[k], hxhi[k], "%.3f"))
		if (val(rg[k]) != "")
			s = s sprintf("; deepprof over gprof %.3f%s", rg[k],
				interval(rglo[k], rghi[k], "%.3f"))
		v = (val(hxlo[k]) == "") ? verdict(hx[k] <= 0) : verdict3(hxlo[k], hxhi[k], 0)
		return s sprintf(" (target: at most half): %s", v)
	}
	return sprintf("- %s: unknown target '%s'.", wlabel[w], wtarget[w])
}

function targets(   i, w, any) {
	print "#### Targets"
	print ""
	for (i = 1; i <= nw; i++) {
		w = wname[i]
		if (wtarget[w] == "" || wtarget[w] == "-")
			continue
		any = 1
		print target(w)
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

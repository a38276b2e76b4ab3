/*
 * deepprof.js - the script of deepprof's HTML pages (served by `deepprof serve` and
 * deepprof-cgi as ?asset=deepprof.js, written inline into the command line's HTML
 * files). Plain JavaScript, no build step, no library; every page works without it.
 *
 * Tables: a filter box over big tables, j/k to move between rows, Enter to follow one.
 *
 * Flame pages (page=flame, flame_callers, sandwich): the server's SVG is replaced by an
 * interactive graph drawn from the report's JSON, which the page carries in a data block
 * (a script element of type application/json, id dp-data; the JSON of format=json,
 * docs/REPORTS.md). Each div of class fg draws the report's section named by its
 * data-sec; its data-kind says what it is: "tree" (the calling-context tree, nodes are
 * cliques), "callers" (a procedure's callers, inverted) or "callees" (its callees); with
 * data-down="1" the root is drawn at the top. Click a frame to zoom in. In the
 * calling-context tree the zoom is root=CLIQUE in the URL and the subtree is fetched
 * from the server (format=json), with the frames the node cap left out at the top
 * level; in the other graphs it is #z-SEC=PS.PS... in the URL's fragment. Search (#s=),
 * the orientation (#o=flip), tooltips, a details panel with links, the metric chooser
 * (metric=: a new page) and keys (press ?) work on every graph of the page.
 *
 * Profile strings only ever reach the page as text (textContent), never as markup.
 */
(function () {
	'use strict';

	/* ---- tables ---- */

	function tables() {
		var ts = document.querySelectorAll('table.cost');
		Array.prototype.forEach.call(ts, function (t) {
			if (!t.tBodies[0] || t.tBodies[0].rows.length < 10)
				return;
			var i = document.createElement('input');
			i.className = 'filter';
			i.placeholder = 'filter rows';
			t.parentNode.insertBefore(i, t);
			i.addEventListener('input', function () {
				var v = i.value.toLowerCase();
				Array.prototype.forEach.call(t.tBodies[0].rows, function (r) {
					r.style.display = r.textContent.toLowerCase().indexOf(v) < 0 ? 'none' : '';
				});
			});
		});
		var rows = document.querySelectorAll('table.cost tbody tr'), k = -1;
		document.addEventListener('keydown', function (e) {
			var q = document.getElementById('q');
			if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT')
				return;
			/* '/' goes to the search box (a flame graph keeps it for its own search) */
			if (e.key === '/' && q && !document.querySelector('svg')) {
				e.preventDefault();
				q.focus();
				return;
			}
			if (!rows.length)
				return;
			if (e.key === 'j' || e.key === 'k') {
				if (k >= 0)
					rows[k].classList.remove('sel');
				k = Math.max(0, Math.min(rows.length - 1, k + (e.key === 'j' ? 1 : -1)));
				rows[k].classList.add('sel');
				rows[k].scrollIntoView({block: 'nearest'});
			} else if (e.key === 'Enter' && k >= 0) {
				var a = rows[k].querySelector('a');
				if (a)
					location.href = a.href;
			}
		});
	}

	/* ---- units, as the server's display writes them ---- */

	function fixed1(v) { /* one decimal below 100, none above */
		return v < 100 ? (Math.round(v * 10) / 10).toFixed(1).replace(/\.0$/, '') :
			String(Math.round(v));
	}

	function fmtCount(v) {
		if (v < 10000)
			return String(Math.round(v));
		var u = ['k', 'M', 'G', 'T', 'P'], i = -1;
		while (v >= 999.95 && i < u.length - 1) {
			v /= 1000;
			i++;
		}
		return fixed1(v) + u[i];
	}

	function fmtBytes(v) {
		var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
		while (v >= 1024 && i < u.length - 1) {
			v /= 1024;
			i++;
		}
		return (i ? fixed1(v) : String(Math.round(v))) + ' ' + u[i];
	}

	function fmtSeconds(s) {
		if (s === 0)
			return '0 s';
		var u = [[1, 's'], [1e-3, 'ms'], [1e-6, 'us'], [1e-9, 'ns']];
		for (var i = 0; i < u.length; i++)
			if (s >= u[i][0] * 0.99995 || i === u.length - 1)
				return fixed1(s / u[i][0]) + ' ' + u[i][1];
		return String(s);
	}

	function fmtPct(num, den) {
		if (!den)
			return '-';
		var p = 100 * num / den;
		if (num === 0)
			return '0%';
		if (p < 0.05)
			return '<0.1%';
		return (p >= 99.95 ? '100' : fixed1(p)) + '%';
	}

	/* ---- the report's rows as trees ---- */

	var METRICS = ['time', 'calls', 'callseqs', 'allocs', 'bytes'];

	/* A row's width for metric @m (calls weigh by callseqs: calls are not inherited). */
	function rowValue(r, m) {
		switch (m) {
		case 'calls':
		case 'callseqs':
			return r.own.callseqs + r.desc.callseqs;
		case 'allocs':
			return r.own.allocs + r.desc.allocs;
		case 'bytes':
			return r.own.bytes + r.desc.bytes;
		default:
			return r.own.samples + r.desc.samples;
		}
	}

	function rowSelf(r, m) {
		switch (m) {
		case 'calls':
			return r.own.calls;
		case 'callseqs':
			return r.own.callseqs;
		case 'allocs':
			return r.own.allocs;
		case 'bytes':
			return r.own.bytes;
		default:
			return r.own.samples;
		}
	}

	/* Nodes of one section, preorder: each with kids, parent, x and w (fractions of
	 * the first row's width), depth; the first row is the root. */
	function buildTree(rows, m) {
		var nodes = [], stack = [];
		for (var i = 0; i < rows.length; i++) {
			var r = rows[i];
			if (i > 0 && (r.depth === 0 || r.depth > stack.length))
				continue;
			if (i === 0 && r.depth !== 0)
				break;
			var n = {row: r, name: r.name, depth: r.depth, v: rowValue(r, m), kids: [],
				 parent: null, x: 0, w: 1, i: nodes.length, other: r.kind === 'none'};
			stack.length = r.depth;
			if (r.depth) {
				n.parent = stack[r.depth - 1];
				n.parent.kids.push(n);
			}
			stack.push(n);
			nodes.push(n);
		}
		if (!nodes.length)
			return null;
		/* widths by value; a graph whose root has none (a profile without the metric)
		 * shares each parent's width evenly among its children, to show its shape */
		var rv = nodes[0].v;
		nodes.forEach(function (n) {
			if (!n.parent)
				return;
			var p = n.parent, k = p.kids.indexOf(n);
			n.w = rv > 0 ? n.v / rv : p.w / p.kids.length;
			n.x = k ? p.kids[k - 1].x + p.kids[k - 1].w : p.x;
			if (n.x + n.w > p.x + p.w)
				n.w = Math.max(0, p.x + p.w - n.x);
		});
		nodes.even = !(rv > 0);
		return nodes;
	}

	function section(rep, id) {
		for (var i = 0; i < rep.sections.length; i++)
			if (rep.sections[i].id === id)
				return rep.sections[i].rows;
		return [];
	}

	/* The members section: clique id -> {n, names}. */
	function members(rep) {
		var out = {}, cur = null;
		section(rep, 'members').forEach(function (r) {
			if (r.depth === 0) {
				cur = out[r.clique] = {n: r.n, names: []};
			} else if (cur) {
				cur.names.push(r.name);
			}
		});
		return out;
	}

	/* ---- URL state: the query string and the fragment ---- */

	function hashParams() {
		return new URLSearchParams(location.hash.replace(/^#/, ''));
	}

	function setHash(key, value, push) {
		var h = hashParams();
		if (value)
			h.set(key, value);
		else
			h.delete(key);
		var s = h.toString(), url = location.pathname + location.search + (s ? '#' + s : '');
		try {
			history[push ? 'pushState' : 'replaceState'](history.state, '', url);
		} catch (e) { /* a file: page may not change its URL */
		}
	}

	/* ---- the page's state shared by its graphs ---- */

	var ui = {
		prefix: '?', /* the link prefix of the page's links */
		rep: null, /* the report the page shows (the first, then the last fetched) */
		metric: 'time',
		graphs: [],
		active: null, /* the graph keys act on */
		matcher: null,
		cache: {}, /* query -> report fetched */
		want: null /* the query of the zoom under way */
	};

	function link(q) {
		return ui.prefix + q;
	}

	/* The query of the address bar (without the link prefix), or null. */
	function currentQuery() {
		var u = location.pathname + location.search, p = ui.prefix;
		if (p.charAt(0) === '?')
			u = location.search;
		return u.indexOf(p) === 0 ? u.slice(p.length) : null;
	}

	function queryWith(q, key, value) {
		var p = new URLSearchParams(q);
		if (value === null || value === undefined || value === '')
			p.delete(key);
		else
			p.set(key, value);
		return p.toString().replace(/%3A/gi, ':').replace(/%2F/gi, '/');
	}

	function el(tag, cls, text) {
		var e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (text !== undefined)
			e.textContent = text;
		return e;
	}

	/* A warm colour per name, as the server's SVG has it (FNV-1a of the UTF-8 bytes). */
	function colour(name) {
		var h = 2166136261, b = new TextEncoder().encode(name);
		for (var i = 0; i < b.length; i++)
			h = Math.imul(h ^ b[i], 16777619) >>> 0;
		var r = 205 + (h & 255) % 50, g = Math.floor(((h >>> 8) & 255) * 200 / 255),
		    bl = Math.floor(((h >>> 16) & 255) * 60 / 255);
		return 'rgb(' + r + ',' + g + ',' + bl + ')';
	}

	/* ---- one graph ---- */

	function Graph(div) {
		this.div = div;
		this.sec = div.getAttribute('data-sec') || 'tree';
		this.kind = div.getAttribute('data-kind') || 'tree';
		this.down = div.getAttribute('data-down') === '1';
		this.flip = false; /* the user turned it upside down (#o=icicle / flame) */
		this.nodes = null;
		this.path = []; /* tree: the rows above the root (section "path"), top first */
		this.mem = {};
		this.view = null; /* the zoomed node */
		this.sel = null;
		this.els = [];
		this.box = el('div', 'fgv');
		this.box.setAttribute('tabindex', '0');
		this.box.setAttribute('role', 'application');
		this.box.setAttribute('aria-label', 'flame graph: press ? for keys');
		this.info = el('div', 'fgd');
		this.info.textContent = 'Click a frame to zoom in; press ? for keys.';
		Array.prototype.forEach.call(div.children, function (c) {
			c.style.display = 'none';
		});
		div.appendChild(this.box);
		div.appendChild(this.info);
		var g = this;
		this.box.addEventListener('click', function (e) {
			var n = g.nodeAt(e.target);
			ui.active = g;
			if (n)
				g.clicked(n);
		});
		this.box.addEventListener('mousemove', function (e) {
			var n = g.nodeAt(e.target);
			if (n)
				tip.show(g, n, e.clientX, e.clientY);
			else
				tip.hide();
		});
		this.box.addEventListener('mouseleave', function () {
			tip.hide();
		});
		this.box.addEventListener('focus', function () {
			ui.active = g;
		});
	}

	Graph.prototype.load = function (rep) {
		this.nodes = buildTree(section(rep, this.sec), ui.metric);
		this.mem = members(rep);
		this.path = [];
		if (this.kind === 'tree') {
			var prows = section(rep, 'path');
			for (var i = 0; i < prows.length; i++)
				this.path.push({row: prows[i], name: prows[i].name, v: rowValue(prows[i], ui.metric),
						anc: true, kids: [], i: -1 - i, depth: i});
		}
		this.view = this.nodes ? this.nodes[0] : null;
		this.sel = null;
	};

	Graph.prototype.upsideDown = function () {
		return this.down !== this.flip;
	};

	Graph.prototype.nodeAt = function (t) {
		while (t && t !== this.box) {
			if (t.dpNode)
				return t.dpNode;
			t = t.parentNode;
		}
		return null;
	};

	/* The view's ancestors, top first: the path above the tree, then the tree's. */
	Graph.prototype.ancestors = function () {
		var a = [];
		for (var n = this.view && this.view.parent; n; n = n.parent)
			a.unshift(n);
		return this.path.concat(a);
	};

	/* The node's full depth: below the path rows. */
	Graph.prototype.absDepth = function (n) {
		return n.anc && n.i < 0 ? n.depth : this.path.length + n.depth;
	};

	Graph.prototype.render = function () {
		var box = this.box, W = box.clientWidth || 1000, ROW = 18;
		var frag = document.createDocumentFragment(), items = [], maxd = 0, g = this;
		this.els = [];
		if (!this.view) {
			box.textContent = '(empty graph)';
			return;
		}
		var anc = this.ancestors(), v = this.view;
		anc.forEach(function (a) {
			items.push({n: a, x: 0, w: 1, anc: true});
		});
		/* the view's subtree, frames narrower than half a pixel left out */
		var stack = [v];
		while (stack.length) {
			var n = stack.pop(), w = v.w > 0 ? n.w / v.w : 0;
			if (w * W < 0.5 && n !== v)
				continue;
			items.push({n: n, x: v.w > 0 ? (n.x - v.x) / v.w : 0, w: w, anc: false});
			for (var k = n.kids.length - 1; k >= 0; k--)
				stack.push(n.kids[k]);
		}
		items.forEach(function (it) {
			maxd = Math.max(maxd, g.absDepth(it.n));
		});
		var top = this.upsideDown();
		items.forEach(function (it) {
			var n = it.n, d = g.absDepth(n), e = el('div', 'fn');
			e.style.left = (100 * it.x) + '%';
			e.style.width = (100 * it.w) + '%';
			e.style.top = ((top ? d : maxd - d) * ROW) + 'px';
			if (it.w * W >= 22)
				e.textContent = n.name;
			if (it.anc)
				e.classList.add('anc');
			else if (n.other)
				e.classList.add('oth');
			else
				e.style.backgroundColor = n.col || (n.col = colour(n.name));
			if (ui.matcher && !n.other && ui.matcher(n.name))
				e.classList.add('m');
			if (n === g.sel)
				e.classList.add('sel');
			e.dpNode = n;
			e.setAttribute('data-name', n.name);
			g.els.push(e);
			frag.appendChild(e);
		});
		box.textContent = '';
		box.style.height = ((maxd + 1) * ROW) + 'px';
		box.appendChild(frag);
		if (this.nodes.even)
			status('no ' + ui.metric + ' in this graph: its frames share their parent evenly');
	};

	/* Select @n: its frame marked, its details below the graph. */
	Graph.prototype.select = function (n) {
		this.sel = n;
		ui.active = this;
		this.els.forEach(function (e) {
			e.classList.toggle('sel', e.dpNode === n);
		});
		details(this, n);
	};

	Graph.prototype.clicked = function (n) {
		this.select(n);
		if (n.other)
			return;
		this.zoom(n, true);
	};

	/* Zoom to @n, a node of the tree or of the path above it. */
	Graph.prototype.zoom = function (n, push) {
		if (n === this.view)
			return;
		if (this.kind === 'tree')
			return zoomTree(this, n, push);
		if (n.anc)
			return;
		this.view = n;
		this.render();
		var ids = [];
		for (var p = n; p.parent; p = p.parent)
			ids.unshift(p.row.ps);
		setHash('z-' + this.sec, ids.join('.'), push);
		search.update();
	};

	/* The zoom of the fragment (#z-SEC=PS.PS...) for the callers and callees graphs. */
	Graph.prototype.zoomFromHash = function () {
		if (this.kind === 'tree' || !this.nodes)
			return;
		var z = hashParams().get('z-' + this.sec), n = this.nodes[0];
		(z ? z.split('.') : []).forEach(function (ps) {
			for (var k = 0; n && k < n.kids.length; k++)
				if (String(n.kids[k].row.ps) === ps && !n.kids[k].other) {
					n = n.kids[k];
					return;
				}
		});
		this.view = n;
	};

	/* ---- zoom in the calling-context tree: root=CLIQUE, fetched ---- */

	/* The query of the graph from clique @k (the top of the graph: no root=). */
	function rootQuery(k) {
		var q = ui.rep.query, top = topClique();
		return queryWith(q, 'root', k && k !== top ? String(k) : null);
	}

	function topClique() {
		var g = ui.graphs[0], p = section(ui.rep, 'path');
		if (p.length)
			return p[0].clique;
		return g && g.nodes ? g.nodes[0].row.clique : 0;
	}

	function zoomTree(g, n, push) {
		var k = n.row.clique;
		if (!k)
			return;
		/* at once: the subtree as loaded, or for a node of the path nothing new yet */
		if (!n.anc || n.i >= 0) {
			g.view = n;
			g.render();
			search.update();
		}
		var q = rootQuery(k);
		try {
			history[push ? 'pushState' : 'replaceState']({q: q}, '', link(q) + location.hash);
		} catch (e) {
		}
		fetchReport(q);
	}

	function status(text) {
		var s = document.getElementById('dp-status');
		if (s)
			s.textContent = text || '';
	}

	/* Show the report of query @q: from the cache, else fetched from the server. */
	function fetchReport(q) {
		ui.want = q;
		if (ui.cache[q])
			return install(ui.cache[q]);
		if (location.protocol === 'file:') {
			status('zoomed within the graph as loaded (no server to ask for more)');
			return;
		}
		status('loading...');
		fetch(link(q) + '&format=json', {credentials: 'same-origin'}).then(function (r) {
			if (!r.ok)
				throw new Error('the server answered ' + r.status);
			return r.json();
		}).then(function (rep) {
			rep.query = queryWith(rep.query, 'format', null); /* the page's, not the JSON's */
			ui.cache[q] = rep;
			if (ui.want === q)
				install(rep);
		}).catch(function (e) {
			if (ui.want === q)
				status('could not load the zoomed graph: ' + e.message);
		});
	}

	function install(rep) {
		ui.rep = rep;
		status('');
		ui.graphs.forEach(function (g) {
			g.load(rep);
			g.zoomFromHash();
			g.render();
		});
		if (rep.title) {
			var h1 = document.querySelector('h1');
			if (h1) {
				document.title = document.title.replace(h1.textContent, rep.title);
				h1.textContent = rep.title;
			}
		}
		facts(rep);
		downloads(rep);
		search.update();
	}

	/* The facts table of the page, as the server writes it, for report @rep. */
	function facts(rep) {
		var t = document.querySelector('table.facts');
		if (!t)
			return;
		t.textContent = '';
		rep.facts.forEach(function (f) {
			var tr = el('tr'), v = f.value;
			if (typeof v === 'number' && !Number.isInteger(v))
				v = Number(v.toPrecision(6));
			tr.appendChild(el('td', '', f.label));
			tr.appendChild(el('td', '', String(v)));
			t.appendChild(tr);
		});
	}

	/* The "download as" links: the zoomed graph's clique (root=), or the whole graph. */
	function downloads(rep) {
		var k = new URLSearchParams(rep.query).get('root'),
		    view = new URLSearchParams(rep.query).get('view');
		Array.prototype.forEach.call(document.querySelectorAll('details.dl a'), function (a) {
			var fmt = new URLSearchParams(a.getAttribute('href').split('?')[1] || '').get(
				'download');
			if (fmt)
				a.href = link((k ? 'page=clique&id=' + k + '&' : '') +
					      (view ? 'view=' + view + '&' : '') + 'download=' + fmt);
		});
	}

	/* ---- tooltip and details ---- */

	function valueText(m, v) {
		if (m === 'time')
			return ui.rep.sample_period_ns ? fmtSeconds(v * ui.rep.sample_period_ns * 1e-9) :
				fmtCount(v) + ' samples';
		if (m === 'bytes')
			return fmtBytes(v);
		return fmtCount(v);
	}

	/* The denominator of "% of all": the profile's total (calls: the graph's root). */
	function allOf(g, m) {
		var t = ui.rep.totals;
		switch (m) {
		case 'time':
			return t.samples;
		case 'callseqs':
			return t.callseqs;
		case 'allocs':
			return t.allocs;
		case 'bytes':
			return t.bytes;
		default:
			return g.nodes ? g.nodes[0].v : 0;
		}
	}

	/* The lines describing node @n of graph @g: [label, text] pairs. */
	function describe(g, n) {
		var m = ui.metric, r = n.row, out = [], tot = m === 'calls' ? r.own.calls : n.v;
		var self = rowSelf(r, m), calls = r.own.calls;
		if (r.file)
			out.push(['where', r.file + (r.line ? ':' + r.line : '')]);
		out.push([m === 'calls' ? 'calls' : 'total ' + m,
			  valueText(m, tot) + ' (' + fmtPct(tot, allOf(g, m)) + ' of all, ' +
			  fmtPct(n.v, g.view ? g.view.v : 0) + ' of the view)']);
		if (m !== 'calls')
			out.push(['self', valueText(m, self) + ' (' + fmtPct(self, allOf(g, m)) + ')']);
		if (n.other) {
			out.push(['', r.n + ' frames too narrow to show, summed']);
			return out;
		}
		out.push(['calls', fmtCount(calls)]);
		if (calls && m !== 'calls')
			out.push(['per call', valueText(m, tot / calls) + ' total, ' +
				  valueText(m, self / calls) + ' self']);
		if (r.flags.indexOf('sum') >= 0 && r.n > 1)
			out.push(['contexts', fmtCount(r.n) + ' merged']);
		var mem = r.clique && g.mem[r.clique];
		if (mem) /* the server names at most 4 other procedures */
			out.push(['clique', fmtCount(mem.n) + ' contexts, also ' + mem.names.join(', ') +
				  (mem.n > mem.names.length + 1 && mem.names.length >= 4 ? ', ...' : '')]);
		return out;
	}

	var tip = {
		e: null,
		show: function (g, n, x, y) {
			if (!this.e) {
				this.e = el('div', 'fgtip');
				document.body.appendChild(this.e);
			}
			var e = this.e;
			e.textContent = '';
			e.appendChild(el('b', '', n.name));
			describe(g, n).forEach(function (l) {
				var d = el('div');
				if (l[0])
					d.appendChild(el('span', 'k', l[0] + ': '));
				d.appendChild(document.createTextNode(l[1]));
				e.appendChild(d);
			});
			e.style.display = 'block';
			var w = e.offsetWidth, h = e.offsetHeight;
			e.style.left = Math.max(0, Math.min(x + 14, window.innerWidth - w - 4)) + 'px';
			e.style.top = (y + 18 + h > window.innerHeight ? Math.max(0, y - h - 8) : y + 18) + 'px';
		},
		hide: function () {
			if (this.e)
				this.e.style.display = 'none';
		}
	};

	/* The details panel of graph @g for node @n, with links to the pages about it. */
	function details(g, n) {
		var d = g.info, r = n.row;
		d.textContent = '';
		d.appendChild(el('b', '', n.name));
		describe(g, n).forEach(function (l) {
			d.appendChild(document.createTextNode(' \u00b7 ' + (l[0] ? l[0] + ': ' : '') + l[1]));
		});
		var links = el('div', 'fgl'), base = new URLSearchParams(ui.rep.query), keep = [];
		['view', 'mq', 'unit', 'fields', 'sort'].forEach(function (k) {
			if (base.get(k))
				keep.push(k + '=' + encodeURIComponent(base.get(k)));
		});
		function add(label, q) {
			var a = el('a', '', label);
			a.href = link(q + (keep.length ? '&' + keep.join('&') : ''));
			links.appendChild(a);
		}
		if (r.clique && g.kind === 'tree')
			add('clique', 'page=clique&id=' + r.clique);
		if (r.ps) {
			add('procedure', 'page=proc&id=' + r.ps);
			add('callers graph', 'page=flame_callers&proc=' + r.ps);
			add('callees graph', 'page=flame&proc=' + r.ps);
			add('sandwich', 'page=sandwich&proc=' + r.ps);
		}
		if (r.clique && g.kind !== 'tree')
			add('flame graph from this context', 'page=flame&root=' + r.clique);
		if (links.children.length)
			d.appendChild(links);
	}

	/* ---- search ---- */

	var search = {
		input: null,
		out: null,
		compile: function (text) {
			if (!text)
				return null;
			var m = /^\/(.*)\/([i]*)$/.exec(text);
			if (m && m[1]) {
				var re = new RegExp(m[1], m[2]);
				return function (s) {
					return re.test(s);
				};
			}
			var t = text.toLowerCase();
			return function (s) {
				return s.toLowerCase().indexOf(t) >= 0;
			};
		},
		set: function (text, push) {
			try {
				ui.matcher = this.compile(text);
				status('');
			} catch (e) {
				ui.matcher = null;
				status('not a regular expression: ' + e.message);
			}
			setHash('s', text, push);
			ui.graphs.forEach(function (g) {
				g.render();
			});
			this.update();
		},
		/* Matches and their share: the widest matching frames, none counted inside
		 * another, in each graph's view. */
		update: function () {
			if (!this.out)
				return;
			if (!ui.matcher) {
				this.out.textContent = '';
				return;
			}
			var parts = [];
			ui.graphs.forEach(function (g) {
				if (!g.view)
					return;
				var n = 0, sum = 0, stack = [[g.view, false]], under = false;
				g.ancestors().forEach(function (a) {
					under = under || ui.matcher(a.name);
				});
				while (stack.length) {
					var s = stack.pop(), x = s[0], hit = !x.other && ui.matcher(x.name);
					if (hit)
						n++;
					if (hit && !s[1])
						sum += x.v;
					for (var k = 0; k < x.kids.length; k++)
						stack.push([x.kids[k], s[1] || hit]);
				}
				if (under)
					sum = g.view.v;
				parts.push((ui.graphs.length > 1 ? g.sec + ': ' : '') + n + ' frames match, ' +
					   fmtPct(sum, g.view.v) + ' of the view, ' +
					   fmtPct(sum, allOf(g, ui.metric)) + ' of all');
			});
			this.out.textContent = parts.join('; ');
		}
	};

	/* The next (@dir 1) or previous (-1) matching node of graph @g after its selection. */
	function nextMatch(g, dir) {
		if (!ui.matcher || !g.nodes)
			return;
		var list = g.nodes.filter(function (n) {
			return !n.other && ui.matcher(n.name);
		});
		if (!list.length)
			return;
		var i = list.indexOf(g.sel);
		g.select(list[(i + dir + list.length) % list.length]);
	}

	/* ---- keys ---- */

	var KEYS = [
		['click', 'zoom into a frame (a frame below the zoomed one: zoom out to it)'],
		['\u2190 \u2192', 'select the previous / next frame of the same parent'],
		['\u2191 \u2193', 'select the parent or the widest child (as drawn)'],
		['Enter', 'zoom into the selected frame'],
		['u, Backspace', 'zoom out one level'],
		['r, 0', 'reset the zoom'],
		['/', 'search (substring, or /regex/)'],
		['n, N', 'select the next / previous match'],
		['i', 'turn the graph upside down (flame / icicle)'],
		['Esc', 'close this, leave the search box, clear the selection'],
		['?', 'show or hide these keys']
	];

	function helpBox() {
		var h = document.getElementById('dp-help');
		if (h)
			return h;
		h = el('div', 'fghelp');
		h.id = 'dp-help';
		h.appendChild(el('b', '', 'Keys of the flame graph'));
		var t = el('table');
		KEYS.forEach(function (k) {
			var tr = el('tr');
			tr.appendChild(el('td', 'k', k[0]));
			tr.appendChild(el('td', '', k[1]));
			t.appendChild(tr);
		});
		h.appendChild(t);
		h.style.display = 'none';
		h.addEventListener('click', function () {
			h.style.display = 'none';
		});
		document.body.appendChild(h);
		return h;
	}

	function toggleHelp(show) {
		var h = helpBox();
		h.style.display = (show === undefined ? h.style.display === 'none' : show) ? 'block' :
			'none';
	}

	function onKey(e) {
		var g = ui.active || ui.graphs[0], tag = e.target.tagName;
		if (e.ctrlKey || e.metaKey || e.altKey)
			return;
		if (tag === 'BUTTON' && (e.key === 'Enter' || e.key === ' '))
			return; /* the button's own */
		if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') {
			if (e.key === 'Escape')
				e.target.blur();
			else if (e.key === 'Enter' && e.target === search.input)
				nextMatch(g, 1);
			return;
		}
		var n = g && (g.sel || g.view), done = true;
		switch (e.key) {
		case '?':
			toggleHelp();
			break;
		case 'Escape':
			toggleHelp(false);
			if (g && g.sel) {
				g.sel = null;
				g.render();
			}
			break;
		case '/':
			search.input.focus();
			break;
		case 'ArrowLeft':
		case 'ArrowRight':
			if (n && n.parent) {
				var s = n.parent.kids, k = s.indexOf(n) + (e.key === 'ArrowLeft' ? -1 : 1);
				if (k >= 0 && k < s.length)
					g.select(s[k]);
			} else if (n) {
				g.select(n);
			}
			break;
		case 'ArrowUp':
		case 'ArrowDown':
			if (!n)
				break;
			var toParent = (e.key === 'ArrowUp') === g.upsideDown();
			if (toParent && n.parent && n !== g.view)
				g.select(n.parent);
			else if (!toParent && n.kids.length)
				g.select(n.kids.reduce(function (a, b) {
					return b.v > a.v ? b : a;
				}));
			else
				g.select(n);
			break;
		case 'Enter':
			if (g && g.sel && !g.sel.other)
				g.zoom(g.sel, true);
			break;
		case 'u':
		case 'Backspace':
			if (g) {
				var a = g.ancestors();
				if (a.length)
					g.zoom(a[a.length - 1], true);
			}
			break;
		case 'r':
		case '0':
			reset();
			break;
		case 'n':
			nextMatch(g, 1);
			break;
		case 'N':
			nextMatch(g, -1);
			break;
		case 'i':
			flip();
			break;
		default:
			done = false;
		}
		if (done)
			e.preventDefault();
	}

	function reset() {
		ui.graphs.forEach(function (g) {
			if (g.kind === 'tree') {
				var a = g.ancestors();
				if (a.length)
					g.zoom(a[0], true);
				else if (g.nodes)
					g.zoom(g.nodes[0], true);
			} else if (g.nodes) {
				g.zoom(g.nodes[0], true);
			}
		});
	}

	function flip() {
		var f = !ui.graphs[0].flip;
		ui.graphs.forEach(function (g) {
			g.flip = f;
			g.render();
		});
		setHash('o', f ? 'flip' : '', false);
	}

	/* ---- the toolbar ---- */

	function toolbar(first) {
		var bar = el('div', 'fgbar');
		var rs = el('button', '', 'Reset zoom');
		rs.type = 'button';
		rs.id = 'dp-reset';
		rs.addEventListener('click', reset);
		bar.appendChild(rs);
		var inp = el('input', 'fgs');
		inp.type = 'search';
		inp.id = 'dp-search';
		inp.placeholder = 'search: text or /regex/';
		inp.setAttribute('aria-label', 'search frames');
		var timer = null;
		inp.addEventListener('input', function () {
			clearTimeout(timer);
			timer = setTimeout(function () {
				search.set(inp.value, false);
			}, 120);
		});
		bar.appendChild(inp);
		search.input = inp;
		var sel = el('select');
		sel.id = 'dp-metric';
		sel.setAttribute('aria-label', 'width');
		METRICS.forEach(function (m) {
			var o = el('option', '', m);
			o.value = m;
			o.selected = m === ui.metric;
			sel.appendChild(o);
		});
		sel.addEventListener('change', function () {
			location.assign(link(queryWith(ui.rep.query, 'metric',
						       sel.value === 'time' ? null : sel.value)) +
					location.hash);
		});
		var lab = el('label', '', ' width: ');
		lab.appendChild(sel);
		bar.appendChild(lab);
		var fl = el('button', '', 'Upside down');
		fl.type = 'button';
		fl.id = 'dp-flip';
		fl.addEventListener('click', flip);
		bar.appendChild(fl);
		var hb = el('button', '', '?');
		hb.type = 'button';
		hb.id = 'dp-keys';
		hb.title = 'keys';
		hb.addEventListener('click', function () {
			toggleHelp();
		});
		bar.appendChild(hb);
		var out = el('span', 'fgm');
		out.id = 'dp-matches';
		bar.appendChild(out);
		search.out = out;
		var st = el('span', 'fgst');
		st.id = 'dp-status';
		bar.appendChild(st);
		first.parentNode.insertBefore(bar, first.previousElementSibling &&
					      first.previousElementSibling.tagName === 'H2' ?
					      first.previousElementSibling : first);
	}

	var CSS =
		'.fgbar{margin:.4em 0;display:flex;gap:.6em;align-items:center;flex-wrap:wrap}' +
		'.fgbar input.fgs{width:18em}.fgm{color:#606}.fgst{color:#a40}' +
		'.fgv{position:relative;overflow:hidden;width:100%;font:11px/16px monospace;' +
		'outline:none;margin:.3em 0}' +
		'.fgv:focus{box-shadow:0 0 0 2px #9bf}' +
		'.fn{position:absolute;height:16px;box-sizing:border-box;border-right:1px solid #fff;' +
		'padding:0 3px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;cursor:pointer;' +
		'color:#000;min-width:1px}' +
		'.fn:hover{outline:1px solid #000;z-index:1}' +
		'.fn.anc{background:#e8e4dc;color:#555}.fn.oth{background:#ccc;color:#555}' +
		'.fn.m{background:#e040e0 !important;color:#fff}' +
		'.fn.sel{outline:2px solid #06c;z-index:2}' +
		'.fgd{font-size:.9em;color:#333;min-height:2.6em}.fgd .fgl a{margin-right:1em}' +
		'.fgtip{position:fixed;z-index:10;background:#fffff0;border:1px solid #999;' +
		'padding:4px 6px;font-size:12px;max-width:40em;pointer-events:none;display:none;' +
		'box-shadow:1px 2px 4px rgba(0,0,0,.2)}.fgtip .k{color:#666}' +
		'.fghelp{position:fixed;z-index:20;top:4em;right:2em;background:#fff;' +
		'border:1px solid #888;padding:.6em 1em;box-shadow:2px 3px 8px rgba(0,0,0,.3)}' +
		'.fghelp td{padding:1px 8px 1px 0}.fghelp td.k{font-family:monospace;font-weight:600}';

	function flames() {
		var data = document.getElementById('dp-data');
		var divs = document.querySelectorAll('div.fg');
		if (!data || !divs.length)
			return;
		try {
			ui.rep = JSON.parse(data.textContent);
		} catch (e) {
			return; /* the server's SVG stays */
		}
		ui.prefix = data.getAttribute('data-prefix') || '?';
		ui.metric = new URLSearchParams(ui.rep.query).get('metric') || 'time';
		ui.cache[ui.rep.query] = ui.rep;
		ui.want = ui.rep.query;
		var st = el('style');
		st.textContent = CSS;
		document.head.appendChild(st);
		Array.prototype.forEach.call(divs, function (d) {
			ui.graphs.push(new Graph(d));
		});
		ui.active = ui.graphs[0];
		toolbar(divs[0]);
		var h = hashParams();
		search.input.value = h.get('s') || '';
		try {
			ui.matcher = search.compile(search.input.value);
		} catch (e) {
			ui.matcher = null;
		}
		var f = h.get('o') === 'flip';
		ui.graphs.forEach(function (g) {
			g.flip = f;
			g.load(ui.rep);
			g.zoomFromHash();
			g.render();
		});
		search.update();
		try {
			history.replaceState({q: ui.rep.query}, '', location.href);
		} catch (e) {
		}
		window.addEventListener('popstate', function (e) {
			var q = currentQuery() || (e.state && e.state.q);
			if (q && q !== ui.rep.query)
				fetchReport(q);
			else
				ui.graphs.forEach(function (g) {
					g.zoomFromHash();
					g.render();
				});
			search.update();
		});
		var rt = null;
		window.addEventListener('resize', function () {
			clearTimeout(rt);
			rt = setTimeout(function () {
				ui.graphs.forEach(function (g) {
					g.render();
				});
			}, 100);
		});
		document.addEventListener('keydown', onKey);
	}

	tables();
	flames();
})();

// SPDX-License-Identifier: MIT
// report.html's script (embedded by lib/export/html/embed.sh): draws the pages from the
// JSON in <script id="data"> (lib/export/export_html.c). No framework, nothing fetched.
// Every table cell is report.csv's text as it is (its data-v attribute too); the script
// only adds units, percentages of the total, sorting, filtering and pictures.
(function () {
	'use strict';
	const D = JSON.parse(document.getElementById('data').textContent);
	const SECTIONS = D.csv || [];
	const used = new Set(); // sections a page shows; the rest go to "All tables"

	// ---- small helpers ----
	function el(tag, attrs, kids) {
		const e = document.createElement(tag);
		for (const k in attrs || {}) {
			if (k === 'text') e.textContent = attrs[k];
			else if (k === 'cls') e.className = attrs[k];
			else if (k.startsWith('on')) e.addEventListener(k.slice(2), attrs[k]);
			else e.setAttribute(k, attrs[k]);
		}
		for (const c of kids || []) if (c !== null && c !== undefined)
			e.append(c instanceof Node ? c : document.createTextNode(String(c)));
		return e;
	}
	const NUM = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?%?$/i;
	function isNum(s) { return NUM.test(String(s).trim()); }
	function fmt(n, d) {
		return n.toLocaleString('en-US', { maximumFractionDigits: d === undefined ? 2 : d });
	}
	function fmtBytes(b) {
		const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
		let i = 0;
		while (b >= 1024 && i < u.length - 1) { b /= 1024; i++; }
		return fmt(b, i ? 1 : 0) + ' ' + u[i];
	}
	function escRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }
	// what a column's values are, from its header: "\"CPU_TIME\" (seconds)" -> "s"
	function unitOf(h) {
		if (/\(seconds\)|\(CPU seconds|\(wall seconds|^ELAPSED TIME/i.test(h)) return 's';
		if (/\(bytes\)/i.test(h)) return 'B';
		if (/\(%\)|%$/.test(h)) return '%';
		if (/\(events\)/i.test(h)) return 'events';
		return '';
	}
	// "10 HOTTEST FUNCTIONS (Sort Event - CPU_TIME)" -> "FUNCTIONS"
	function hotName(t) {
		const m = /^(?:\d+ HOTTEST|ALL) (.+?) \(Sort Event - [^)]*\)$/.exec(t);
		return m ? m[1] : null;
	}
	function findAll(re) { return SECTIONS.filter(s => re.test(s.title)); }
	function kvValue(title, key) {
		for (const s of SECTIONS) if (s.title === title)
			for (const r of s.rows) if (r[0] === key || r[0] === key + ':') return r[1];
		return null;
	}
	// The total a hottest table's first value column is a share of: the snapshot's
	// "Total CPU_TIME,"0.5520 seconds"" (or "Total <event>").
	function snapshotTotal() {
		for (const s of SECTIONS) if (s.title === 'APPLICATION PERFORMANCE SNAPSHOT')
			for (const r of s.rows) if (/^Total /.test(r[0]) && !/^Total (MPI|threads)/i.test(r[0]))
				return parseFloat(r[1]);
		return NaN;
	}
	const TOTAL = snapshotTotal();

	// ---- tables: report.csv's cells, sortable and filterable ----
	// opts: bars (column indices drawn as bars), pct (add a % column after the first value
	// column), link(row, col) -> a handler for a name cell, caption
	function table(sec, opts) {
		opts = opts || {};
		used.add(sec);
		// the header is the first row as wide as the widest: shorter lines before it
		// ("Wait Times From,...") are notes on the table
		const width = Math.max(0, ...sec.rows.map(r => r.length));
		const h0 = Math.max(0, sec.rows.findIndex(r => r.length >= width));
		const head = sec.rows[h0] || [];
		let rows = sec.rows.slice(h0 + 1).map(r => r.map(c => String(c)));
		const notes = sec.rows.slice(0, h0).map(r => r.filter(c => c !== '').join(': '));
		const ncol = head.length;
		const numeric = head.map((h, i) => rows.length > 0 &&
			rows.every(r => r[i] === undefined || r[i].trim() === '' || isNum(r[i])) &&
			rows.some(r => r[i] !== undefined && r[i].trim() !== ''));
		const units = head.map(unitOf);
		let pctCol = -1;
		if (opts.pct && isFinite(TOTAL) && TOTAL > 0)
			pctCol = head.findIndex((h, i) => numeric[i] && /\((seconds|events)\)$/.test(h) &&
				!/THREAD ID|COUNT/.test(h));
		const bars = new Set((opts.bars || []).filter(i => i >= 0 && numeric[i]));
		const max = {};
		for (const i of bars) max[i] = Math.max(0, ...rows.map(r => Math.abs(parseFloat(r[i])) || 0));
		const wrap = el('div', { cls: 'section' });
		const filter = el('input', { type: 'search', placeholder: 'Filter rows',
			'aria-label': 'Filter the rows of ' + (sec.title || 'this table') });
		const count = el('span', { cls: 'count' });
		wrap.append(el('div', { cls: 'tools' }, [filter, count]));
		const thead = el('tr');
		const cols = [];
		head.forEach((h, i) => {
			cols.push({ i: i, h: h });
			if (i === pctCol) cols.push({ i: -1, h: '%' });
		});
		let sortBy = null, dir = 1;
		const ths = cols.map(c => {
			const num = c.i < 0 || numeric[c.i];
			const th = el('th', { cls: 'sort' + (num ? ' num' : ''), tabindex: '0', scope: 'col',
				title: 'Sort by ' + c.h, text: c.h });
			const go = () => {
				dir = sortBy === c ? -dir : (num ? -1 : 1);
				sortBy = c;
				ths.forEach(t => t.removeAttribute('aria-sort'));
				th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
				draw();
			};
			th.addEventListener('click', go);
			th.addEventListener('keydown', e => {
				if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); }
			});
			thead.append(th);
			return th;
		});
		const tbody = el('tbody');
		const t = el('table', { 'data-section': sec.title || '' }, [el('thead', {}, [thead]), tbody]);
		if (opts.caption || notes.length)
			t.prepend(el('caption', { cls: 'muted', text: [opts.caption].concat(notes).filter(Boolean).join('; ') }));
		wrap.append(el('div', { cls: 'tbl' }, [t]));
		const keyOf = (r, c) => c.i < 0 ? parseFloat(r[pctCol]) :
			numeric[c.i] ? parseFloat(r[c.i]) : (r[c.i] || '').toLowerCase();
		function cell(r, c) {
			if (c.i < 0) {
				const p = 100 * parseFloat(r[pctCol]) / TOTAL;
				return el('td', { cls: 'num', 'data-v': p.toFixed(2) }, [p.toFixed(2),
					el('span', { cls: 'u', text: '%' })]);
			}
			const v = r[c.i] === undefined ? '' : r[c.i];
			const txt = v.trim();
			if (numeric[c.i]) {
				const td = el('td', { cls: 'num' + (bars.has(c.i) ? ' barcell' : ''), 'data-v': txt });
				if (bars.has(c.i) && max[c.i] > 0)
					td.append(el('div', { cls: 'b' + (/^[-+]/.test(txt) ? (txt[0] === '+' ? ' up' : ' down') : ''),
						style: 'width:' + (100 * Math.abs(parseFloat(txt)) / max[c.i]).toFixed(1) + '%' }));
				td.append(el('span', {}, [txt, units[c.i] && txt !== '' ?
					el('span', { cls: 'u', text: units[c.i] === 'events' ? '' : units[c.i] }) : null]));
				return td;
			}
			const td = el('td', { cls: c.i === 0 || txt.length > 24 ? 'name' : '', 'data-v': txt });
			const go = opts.link && opts.link(r, c.i);
			if (go) td.append(el('a', { cls: 'detail', href: '#', title: go.title,
				onclick: e => { e.preventDefault(); go.fn(); } }, [txt]));
			else td.textContent = txt;
			return td;
		}
		function draw() {
			const q = filter.value.trim().toLowerCase();
			let shown = rows.filter(r => !q || r.some(c => c.toLowerCase().includes(q)));
			if (sortBy) shown = shown.slice().sort((a, b) => {
				const x = keyOf(a, sortBy), y = keyOf(b, sortBy);
				return (x < y ? -1 : x > y ? 1 : 0) * dir;
			});
			tbody.replaceChildren(...shown.map(r => el('tr', {}, cols.map(c => cell(r, c)))));
			count.textContent = shown.length + ' of ' + rows.length + ' rows' +
				(sec.more ? '; ' + sec.more + ' more rows are not in this page (report.csv --cutoff 0 has them all)' : '');
		}
		filter.addEventListener('input', draw);
		draw();
		return wrap;
	}

	// A block of "key,value" lines as a two-column table.
	function kv(sec) {
		used.add(sec);
		const t = el('table', { cls: 'kv', 'data-section': sec.title || '' }, [el('tbody', {},
			sec.rows.map(r => el('tr', {}, [el('td', { text: (r[0] || '').replace(/:$/, '') }),
				el('td', { text: r.slice(1).filter(c => c !== '').join(', ').trim() })])))]);
		return el('div', { cls: 'section' }, [el('h2', { text: sec.title || 'Facts' }),
			el('div', { cls: 'tbl' }, [t])]);
	}
	function isKv(sec) {
		return sec.rows.length > 0 && sec.rows.every(r => r.length <= 2 || r.slice(2).every(c => c === '')) &&
			!(sec.rows[0].length === 2 && /\(|Time|%|Count/i.test(sec.rows[0][1]) && !isNum(sec.rows[0][1]));
	}
	function any(sec, opts) { return isKv(sec) ? kv(sec) : titled(sec, table(sec, opts)); }
	function titled(sec, node) {
		return el('div', { cls: 'section' }, [el('h2', { text: sec.title || '' }), node]);
	}

	// ---- the pages ----
	const pages = [];
	function page(id, label, build) { pages.push({ id: id, label: label, build: build }); }

	// Summary: the run's facts and its accounting
	function summaryPage(p) {
		const s = D.summary;
		const cards = el('div', { cls: 'cards' });
		const notes = el('ul', { cls: 'notes' });
		function card(k, v, cls) {
			cards.append(el('div', { cls: 'card ' + (cls || '') }, [el('div', { cls: 'k', text: k }),
				el('div', { cls: 'v', text: v })]));
		}
		function note(text, cls) { notes.append(el('li', { cls: cls || '', text: text })); }
		if (s) {
			card('Event', s.event);
			card('Samples', fmt(s.samples, 0));
			card('Lost samples', fmt(s.lost, 0), s.lost ? 'bad' : 'good');
			card(s.event + ' total', isFinite(TOTAL) ? fmt(TOTAL, 4) + (/seconds/.test(kvValue('APPLICATION PERFORMANCE SNAPSHOT', 'Total ' + s.event) || '') ? ' s' : '') : '');
			card('Sampling rate', fmt(s.achieved_hz, 1) + ' of ' + fmt(s.requested_hz, 1) + ' Hz',
				s.rate_damage ? 'bad' : s.requested_hz && s.achieved_hz < 0.8 * s.requested_hz ? 'warn' : '');
			card('Duration', fmt(s.duration_s, 3) + ' s');
			card('Pauses', fmt(s.pauses, 0) + ' (' + fmt(s.pause_s, 3) + ' s)');
			card('Processes / threads', s.processes + ' / ' + s.threads);
			card('Session', s.status, s.status === 'complete' ? 'good' : 'bad');
			const damaged = s.damaged_at || s.count_damage || s.unparsable || s.rate_damage;
			card('Damage', damaged ? 'yes' : 'none', damaged ? 'bad' : 'good');
			if (s.stacks) card('Call stacks', fmt(s.stacks_truncated, 0) + ' truncated, ' +
				fmt(s.stacks_unwind_failed, 0) + ' failed', s.stacks_unwind_failed ? 'warn' : '');
			if (s.task_instances || s.task_lost) card('Task instances', fmt(s.task_instances, 0) +
				(s.task_lost ? ' (' + s.task_lost + ' records lost)' : ''), s.task_lost ? 'bad' : '');
			if (s.lost) note(s.lost + ' samples were lost (the kernel\'s ring was full): the tables count fewer than ran.', 'bad');
			if (s.damaged_at) note('samples.data is damaged from byte ' + s.damaged_at + ': ' + s.damage, 'bad');
			if (s.count_damage) note('session.ini\'s final counts differ from what samples.data holds: the file was cut.', 'bad');
			if (s.unparsable) note(s.unparsable + ' records could not be parsed and were skipped.', 'bad');
			if (s.rate_damage) note('More timer samples than the CPUs could give: the achieved rate is damage.', 'bad');
			if (s.status !== 'complete') note('The collection did not finish (' + s.status + '): what was written is reported.', 'bad');
			if (s.paused_samples) note(s.paused_samples + ' samples fell in pauses and were left out.');
			if (s.lost_pause_records) note(s.lost_pause_records + ' pause records were dropped by the targets.', 'warn');
			if (s.unknown_pauses) note(s.unknown_pauses + ' pause intervals have an unknown end.', 'warn');
			if (s.filtered) note(s.filtered_samples + ' samples are outside -p / --time-filter.');
			if (s.missing_modules || s.changed_modules) note((s.missing_modules + s.changed_modules) +
				' modules are gone or rebuilt: ' + s.missing_samples + ' samples not symbolized.', 'warn');
			if (s.task_malformed) note(s.task_malformed + ' task records or files could not be used.', 'warn');
			if (s.file_notes) note(s.file_notes + ' instrument/ files were skipped or read in part (report.csv names them).', 'warn');
		} else {
			const smp = kvValue('PROFILE DETAILS', 'Samples'), lost = kvValue('PROFILE DETAILS', 'Lost Samples');
			if (smp !== null) card('Samples', fmt(parseFloat(smp), 0));
			if (lost !== null) card('Lost samples', lost, parseFloat(lost) ? 'bad' : 'good');
			const ranks = kvValue('PROFILE DETAILS', 'MPI Ranks Reported'), miss = kvValue('PROFILE DETAILS', 'MPI Ranks Missing');
			if (ranks !== null) card('Ranks reported', ranks);
			if (miss !== null) card('Ranks missing', miss, miss === 'none' ? 'good' : 'bad');
			const mt = kvValue('APPLICATION PERFORMANCE SNAPSHOT', 'MPI Time');
			if (mt !== null) card('MPI time', mt);
			if (isFinite(TOTAL)) card('CPU_TIME total', fmt(TOTAL, 4) + ' s');
		}
		if (D.flame && D.flame.pruned) note(D.flame.pruned + ' samples are in frames of under ' + D.flame.min +
			' samples, left out of the flame graph (their callers keep them).');
		const lo = D.timeline && D.timeline.left_out;
		if (lo && lo.samples && !D.timeline.agg) note('The timeline shows one sample in ' + D.timeline.stride + ' (' + lo.samples + ' left out: report keeps a bounded number of sample times).');
		if (lo && lo.threads) note(lo.threads + ' threads with the fewest samples are not on the timeline.');
		if (lo && (lo.tasks || lo.omp || lo.mpi || lo.pauses)) note('The timeline leaves out ' + lo.tasks + ' task instances, ' + lo.omp + ' OpenMP slices, ' + (lo.mpi || 0) + ' MPI calls and ' + lo.pauses + ' pauses past its bound per thread.');
		if (lo && lo.os_spans) note(lo.os_spans + ' thread-state spans were past the page\'s bound: the timeline\'s state bands miss them (THREAD STATES counts all).', 'warn');
		if (lo && lo.omp_report) note(lo.omp_report + ' OpenMP slices were past the report\'s bound and are on no page.', 'warn');
		const cut = SECTIONS.filter(x => x.more);
		if (cut.length) note(cut.length + ' tables have more rows than this page holds (each says how many).');
		if (!notes.children.length) note('Nothing lost, nothing damaged.');
		p.append(el('h2', { text: 'Run' }), cards, el('h2', { text: 'Accounting' }), notes);
		const facts = el('div', { cls: 'cols' });
		for (const t of ['EXECUTION', 'PROFILE DETAILS', 'SAMPLING', 'APPLICATION PERFORMANCE SNAPSHOT'])
			for (const sec of findAll(new RegExp('^' + t + '$'))) facts.append(kv(sec));
		for (const sec of findAll(/^MONITORED EVENTS$/)) facts.append(titled(sec, table(sec)));
		p.append(facts);
	}
	if (D.kind !== 'compare') page('summary', 'Summary', summaryPage);

	// uprof compare --html: the comparison's rows, largest change first, by kind
	if (D.kind === 'compare') page('compare', 'Comparison', p => {
		for (const sec of findAll(/^COMPARISON$/)) p.append(kv(sec));
		const rows = SECTIONS.find(x => x.rows.length && x.rows[0][0] === 'KIND');
		if (!rows) return;
		const kinds = [...new Set(rows.rows.slice(1).map(r => r[0]))];
		const head = rows.rows[0];
		const delta = head.indexOf('DELTA');
		const bar = el('div', { cls: 'subtabs', role: 'group', 'aria-label': 'Kind' });
		const body = el('div');
		const btns = kinds.map((k, j) => {
			const b = el('button', { 'aria-pressed': 'false', text: k, onclick: () => pick(j) });
			bar.append(b);
			return b;
		});
		function pick(j) {
			btns.forEach((b, i) => b.setAttribute('aria-pressed', String(i === j)));
			// the CSV's order (largest absolute change first), this kind's rows
			const sec = { title: kinds[j] + ' changes (largest first)', more: rows.more,
				rows: [head].concat(rows.rows.slice(1).filter(r => r[0] === kinds[j])) };
			body.replaceChildren(titled(sec, table(sec, { bars: [delta] })));
		}
		used.add(rows);
		p.append(el('p', { cls: 'muted', text: 'BASELINE and WITH are each session\'s value, DELTA = WITH - BASELINE, RATIO = WITH / BASELINE (new: only in WITH).' }), bar, body);
		if (kinds.length) pick(0);
	});

	// Hotspots: report.csv's hottest tables, one at a time
	const hot = SECTIONS.filter(s => hotName(s.title) && !/^(TOTAL )?MPI/.test(hotName(s.title)));
	function linkOf(sec) {
		const head = sec.rows[0] || [];
		return (r, i) => {
			if (/^FUNCTION$/.test(head[i]) && hooks.calls)
				return { title: 'Its callers and callees', fn: () => hooks.calls(r[i]) };
			if (/^FUNCTION$/.test(head[i]) && D.flame)
				return { title: 'Find it in the flame graph', fn: () => { show('flame'); flameSearch('^' + escRe(r[i]) + '$'); } };
			if (/^THREAD$/.test(head[i]) && D.timeline) {
				const tid = parseInt(r[head.indexOf('THREAD ID')], 10);
				return { title: 'Show its track on the timeline', fn: () => { show('timeline'); timelineFocus(tid); } };
			}
			return null;
		};
	}
	if (hot.length) page('hotspots', 'Hotspots', p => {
		const bar = el('div', { cls: 'subtabs', role: 'group', 'aria-label': 'Tables' });
		const body = el('div');
		const built = new Map();
		const btns = hot.map((sec, k) => {
			const b = el('button', { 'aria-pressed': 'false', text: hotName(sec.title), title: sec.title,
				onclick: () => pick(k) });
			bar.append(b);
			return b;
		});
		function pick(k) {
			btns.forEach((b, j) => b.setAttribute('aria-pressed', String(j === k)));
			if (!built.has(k)) built.set(k, titled(hot[k], table(hot[k], { pct: true, link: linkOf(hot[k]) })));
			body.replaceChildren(built.get(k));
		}
		p.append(bar, body);
		pick(0);
	});

	// ---- flame graph: click to zoom, search, inverted (icicle of the leaves' callers) ----
	let flameSearch = () => {};
	if (D.flame && D.flame.nodes && D.flame.nodes.length > 1) page('flame', 'Flame graph', p => {
		const F = D.flame, names = F.names;
		const H = 18, PAD = 4;
		function tree(nodes) { // nodes: [parent, name, count, kind] -> objects with kids
			const v = nodes.map(n => ({ name: names[n[1]], count: n[2], kind: n[3], kids: [] }));
			nodes.forEach((n, i) => { if (i) v[n[0]].kids.push(v[i]); });
			return v[0];
		}
		const normal = tree(F.nodes);
		let inverted = null;
		function invert() { // each node's own samples, its path reversed: callers of leaves
			const root = { name: 'all', count: normal.count, kind: 5, kids: [], map: new Map() };
			function add(path, n) {
				let at = root;
				for (let k = path.length - 1; k >= 0; k--) {
					const key = path[k].name + '\u0000' + path[k].kind;
					let c = at.map.get(key);
					if (!c) { c = { name: path[k].name, count: 0, kind: path[k].kind, kids: [], map: new Map() }; at.map.set(key, c); at.kids.push(c); }
					c.count += n;
					at = c;
				}
			}
			(function walk(node, path) {
				const self = node.count - node.kids.reduce((a, c) => a + c.count, 0);
				if (self > 0 && path.length) add(path, self);
				for (const c of node.kids) { path.push(c); walk(c, path); path.pop(); }
			})(normal, []);
			return root;
		}
		let root = normal, zoom = null, depth = 0, re = null;
		function layout(node, x, d, out) {
			node.x = x; node.d = d; out.push(node);
			if (d > depth) depth = d;
			let cx = x;
			node.kids.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : a.kind - b.kind);
			for (const c of node.kids) { layout(c, cx, d + 1, out); cx += c.count; }
			return out;
		}
		let frames = [];
		function relayout() { depth = 0; frames = layout(root, 0, 0, []); }
		relayout();
		const tools = el('div', { cls: 'tools' });
		const search = el('input', { type: 'search', placeholder: 'Search (regular expression)', 'aria-label': 'Search functions' });
		const inv = el('input', { type: 'checkbox', id: 'flame-inv' });
		const matched = el('span', { cls: 'count' });
		tools.append(search, el('button', { text: 'Reset zoom', onclick: () => { zoom = null; draw(); } }),
			el('label', {}, [inv, ' Inverted (callers of the hottest leaves, top down)']), matched);
		const picked = el('span'); // the clicked frame's callers and callees
		tools.append(picked);
		const info = el('div', { id: 'flame-details', 'aria-live': 'polite' }, [' ']);
		const wrap = el('div', { cls: 'canvaswrap' });
		const cv = el('canvas', { tabindex: '0', 'aria-label': 'Flame graph: click a frame to zoom into it' });
		wrap.append(cv);
		p.append(el('p', { cls: 'muted', text: fmt(F.total, 0) + ' samples' + (F.collected ? '' : ' (no call stacks collected: leaf functions only)') +
			'. Width is samples; click a frame to zoom, Escape resets.' }), tools, wrap, info);
		const ctx = cv.getContext('2d');
		function color(n) {
			let h = 0;
			for (let i = 0; i < n.name.length; i++) h = (h * 31 + n.name.charCodeAt(i)) >>> 0;
			const a = h & 255, b = (h >> 8) & 255, c = (h >> 16) & 255;
			if (re && n.d > 0 && re.test(n.name)) return 'rgb(230,0,230)';
			switch (n.kind) {
			case 1: return 'rgb(' + (50 + a % 60) + ',' + (190 + b % 55) + ',' + (190 + c % 55) + ')';
			case 2: return 'rgb(180,180,180)';
			case 3: return 'rgb(' + (220 + a % 35) + ',' + (130 + b % 60) + ',' + (40 + c % 30) + ')';
			case 4: case 5: return 'rgb(' + (200 + a % 30) + ',' + (200 + b % 30) + ',' + (225 + c % 30) + ')';
			default: return 'rgb(' + (205 + (a * 50 >> 8)) + ',' + (b * 230 >> 8) + ',' + (c * 55 >> 8) + ')';
			}
		}
		let geom = [];
		function draw() {
			const W = Math.max(600, wrap.clientWidth - 2), dpr = window.devicePixelRatio || 1;
			const h = (depth + 1) * H + 2 * PAD;
			cv.width = W * dpr; cv.height = h * dpr; cv.style.width = W + 'px'; cv.style.height = h + 'px';
			ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
			ctx.clearRect(0, 0, W, h);
			ctx.font = '12px system-ui, sans-serif'; ctx.textBaseline = 'middle';
			const z = zoom || root, scale = (W - 2 * PAD) / z.count;
			const up = !inv.checked;
			geom = [];
			for (const n of frames) {
				let x, w;
				if (n.d < z.d) { // an ancestor of the zoomed frame: whole width, faded
					if (!(n.x <= z.x && n.x + n.count >= z.x + z.count)) continue;
					x = PAD; w = W - 2 * PAD;
				} else {
					if (n.x < z.x || n.x + n.count > z.x + z.count) continue;
					x = PAD + (n.x - z.x) * scale; w = n.count * scale;
				}
				if (w < 0.3) continue;
				const y = up ? h - PAD - (n.d + 1) * H : PAD + n.d * H;
				ctx.globalAlpha = n.d < z.d ? 0.55 : 1;
				ctx.fillStyle = color(n);
				ctx.fillRect(x, y, Math.max(w - 0.5, 0.3), H - 1);
				if (w > 30) {
					ctx.fillStyle = '#000';
					const fit = Math.floor((w - 6) / 6.6);
					ctx.fillText(n.name.length <= fit ? n.name : n.name.slice(0, Math.max(fit - 2, 0)) + '..', x + 3, y + H / 2);
				}
				geom.push([x, y, w, n]);
			}
			ctx.globalAlpha = 1;
		}
		function at(e) {
			const r = cv.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
			for (const g of geom) if (x >= g[0] && x < g[0] + g[2] && y >= g[1] && y < g[1] + H) return g[3];
			return null;
		}
		const pct = n => (100 * n.count / root.count).toFixed(2);
		cv.addEventListener('mousemove', e => {
			const n = at(e);
			info.textContent = n ? n.name + ' (' + fmt(n.count, 0) + ' samples, ' + pct(n) + '%)' : ' ';
			cv.style.cursor = n ? 'pointer' : 'default';
		});
		cv.addEventListener('click', e => {
			const n = at(e);
			if (n) { zoom = n.d ? n : null; draw(); }
			if (n && n.d && n.kind !== 4 && hooks.calls) // its callers and callees a click away
				picked.replaceChildren(el('a', { cls: 'detail', href: '#', onclick: ev => { ev.preventDefault(); hooks.calls(n.name); } },
					['Callers and callees of ' + n.name]));
		});
		cv.addEventListener('keydown', e => { if (e.key === 'Escape') { zoom = null; draw(); } });
		inv.addEventListener('change', () => {
			if (inv.checked && !inverted) inverted = invert();
			root = inv.checked ? inverted : normal; zoom = null; relayout(); doSearch(); draw();
		});
		function doSearch() {
			try { re = search.value ? new RegExp(search.value) : null; } catch (err) { re = null; }
			if (!re) { matched.textContent = ''; return; }
			// each sample once: matches not inside an earlier match
			const spans = frames.filter(n => n.d > 0 && re.test(n.name)).map(n => [n.x, n.count, n.d])
				.sort((a, b) => a[0] - b[0] || a[2] - b[2]);
			let sum = 0, end = -1;
			for (const s of spans) if (s[0] >= end) { sum += s[1]; end = s[0] + s[1]; }
			matched.textContent = 'Matched: ' + (100 * sum / root.count).toFixed(2) + '% (' + fmt(sum, 0) + ' samples)';
		}
		search.addEventListener('input', () => { doSearch(); draw(); });
		flameSearch = q => { search.value = q; doSearch(); draw(); };
		window.addEventListener('resize', () => { if (!p.hidden) draw(); });
		p.onshow = draw;
	});

	// ---- a time axis on a canvas (the Timeline's, a job's MPI timeline): the window
	// [v0, v1] of [0, span] (us) drawn from x = label on; the wheel or + and - zoom by 0.8
	// or 1.25 about the pointer or the middle, a drag or the arrow keys (a fifth of the
	// window) move it, 0 shows it all; @view says it (data-from-us, data-to-us exact).
	// @draw redraws, calling ruler() once the canvas is sized. ----
	function timeAxis(cv, view, label, span, draw) {
		const z = { v0: 0, v1: span, scale: 1 };
		z.X = t => label + (t - z.v0) * z.scale;
		z.at = x => z.v0 + (x - label) / z.scale;
		z.ruler = (ctx, W, top) => {
			z.scale = (W - label - 10) / (z.v1 - z.v0);
			view.textContent = 'Showing ' + fmt(z.v0 / 1000, 3) + ' to ' + fmt(z.v1 / 1000, 3) + ' ms of ' + fmt(span / 1000, 3) + ' ms';
			view.dataset.fromUs = String(z.v0); view.dataset.toUs = String(z.v1);
			ctx.font = '11px system-ui, sans-serif'; ctx.textBaseline = 'middle'; ctx.fillStyle = '#5b6475';
			// about 8 ticks at round milliseconds over the view
			const ms0 = z.v0 / 1000, ms = (z.v1 - z.v0) / 1000, step = Math.pow(10, Math.floor(Math.log10(Math.max(ms, 1e-6) / 8)));
			const tick = [1, 2, 5, 10].map(k => k * step).find(k => ms / k <= 10) || step * 10;
			for (let t = Math.ceil(ms0 / tick) * tick; t <= ms0 + ms + 1e-9; t += tick) {
				const x = z.X(t * 1000);
				ctx.fillRect(x, top - 6, 1, 6);
				ctx.fillText(fmt(t, 4) + ' ms', x + 2, top - 14);
			}
		};
		const set = (v0, w) => { z.v0 = Math.max(0, Math.min(v0, span - w)); z.v1 = z.v0 + w; draw(); };
		const zoomBy = (f, at) => { // within the profile
			const w = Math.min(span, Math.max((z.v1 - z.v0) * f, 1));
			set(at - (at - z.v0) * w / (z.v1 - z.v0), w);
		};
		const pan = dus => set(z.v0 + dus, z.v1 - z.v0);
		cv.addEventListener('wheel', e => {
			const x = e.clientX - cv.getBoundingClientRect().left;
			if (x < label) return;
			e.preventDefault();
			zoomBy(e.deltaY < 0 ? 0.8 : 1.25, z.at(x));
		}, { passive: false });
		let dragX = null;
		cv.addEventListener('mousedown', e => { dragX = e.clientX; });
		window.addEventListener('mouseup', () => { dragX = null; });
		cv.addEventListener('mousemove', e => {
			if (dragX === null || !(e.buttons & 1)) return;
			pan(-(e.clientX - dragX) / z.scale);
			dragX = e.clientX;
		});
		cv.addEventListener('keydown', e => {
			const mid = (z.v0 + z.v1) / 2, w = z.v1 - z.v0;
			if (e.key === '+' || e.key === '=') zoomBy(0.8, mid);
			else if (e.key === '-') zoomBy(1.25, mid);
			else if (e.key === '0') set(0, span);
			else if (e.key === 'ArrowLeft') pan(-w / 5);
			else if (e.key === 'ArrowRight') pan(w / 5);
			else return;
			e.preventDefault();
		});
		return z;
	}

	// ---- views kept in files of their own (report_calls.js): each registers its pages
	// here, after the flame graph, with these helpers ----
	const hooks = {};
	const api = { D: D, el: el, table: table, titled: titled, fmt: fmt, escRe: escRe, page: page, timeAxis: timeAxis,
		show: id => show(id), flameSearch: q => flameSearch(q), hooks: hooks };
	if (typeof UPROF_VIEWS !== 'undefined') for (const v of UPROF_VIEWS) v(api);

	// ---- timeline: a track per thread ----
	let timelineFocus = () => {};
	const TL = D.timeline;
	if (TL && TL.threads && TL.threads.length) page('timeline', 'Timeline', p => {
		const LABEL = 230, ROW = 40, TOP = 26;
		const STATES = ['#46a35a', '#e0a030', '#9aa3b5']; // --trace os: running, runnable, blocked
		const tracks = TL.threads;
		const dens = tracks.map(t => Math.max(1, ...t.d));
		const byTrack = tracks.map(() => ({ tasks: [], omp: [], mpi: [] }));
		for (const t of TL.tasks) byTrack[t[0]].tasks.push(t);
		// nesting depth of each task on its track (Inner inside Outer): drawn inset
		for (const b of byTrack) {
			b.tasks.sort((x, y) => x[1] - y[1] || y[2] - x[2]);
			const open = [];
			for (const t of b.tasks) {
				while (open.length && open[open.length - 1] <= t[1]) open.pop();
				t.depth = open.length;
				open.push(t[2]);
			}
		}
		for (const o of TL.omp) byTrack[o[0]].omp.push(o);
		for (const c of TL.mpi || []) byTrack[c[0]].mpi.push(c);
		const legend = el('div', { cls: 'legend' }, [
			el('span', {}, [el('i', { style: 'background:#3b73c8' }), (TL.agg ? TL.agg.unit : 'samples') + ' per ' + fmt(TL.span / TL.bins / 1000, 2) + ' ms' + (TL.agg ? ' (--agg-interval)' : '')]),
			TL.tasks.length ? el('span', {}, [el('i', { style: 'background:#e0a030' }), 'tasks and events']) : null,
			TL.omp.length ? el('span', {}, [el('i', { style: 'background:#46a35a' }), 'OpenMP regions']) : null,
			TL.omp.length ? el('span', {}, [el('i', { style: 'background:#c0392b' }), 'OpenMP waits']) : null,
			(TL.mpi || []).length ? el('span', {}, [el('i', { style: 'background:#6b4fbb' }), 'MPI calls']) : null,
			TL.pauses.length ? el('span', {}, [el('i', { style: 'background:rgba(120,120,120,0.35)' }), 'paused']) : null,
			...(tracks.some(t => t.s) ? STATES.map((c, i) => el('span', {}, [el('i', { style: 'background:' + c }), ['running', 'runnable', 'blocked'][i]])) : [])]);
		const info = el('div', { id: 'tl-details', 'aria-live': 'polite' }, [' ']);
		// the time window shown, in words and (data-from-us, data-to-us) exact
		const view = el('div', { id: 'tl-view', cls: 'muted', 'aria-live': 'polite' });
		const wrap = el('div', { cls: 'canvaswrap' });
		const cv = el('canvas', { tabindex: '0', 'aria-label': 'Timeline: a track per thread' });
		wrap.append(cv);
		p.append(el('p', { cls: 'muted', text: tracks.length + ' threads over ' + fmt(TL.span / 1000, 3) + ' ms' +
			(TL.stride > 1 && !TL.agg ? '; one sample in ' + TL.stride + ' kept' : '') +
			'. Zoom: the wheel or + and -, drag or the arrow keys to move, 0 to see it all.' }), legend, view, wrap, info);
		const ctx = cv.getContext('2d');
		let focus = -1, W = 0;
		const z = timeAxis(cv, view, LABEL, Math.max(TL.span, 1), () => draw()), X = z.X;
		function draw() {
			W = Math.max(700, wrap.clientWidth - 2);
			const dpr = window.devicePixelRatio || 1, h = TOP + tracks.length * ROW + 4;
			cv.width = W * dpr; cv.height = h * dpr; cv.style.width = W + 'px'; cv.style.height = h + 'px';
			ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
			ctx.clearRect(0, 0, W, h);
			z.ruler(ctx, W, TOP);
			const scale = z.scale;
			tracks.forEach((t, k) => {
				const y = TOP + k * ROW;
				ctx.fillStyle = k === focus ? '#fff3c4' : k % 2 ? '#f6f7fa' : '#fff';
				ctx.fillRect(0, y, W, ROW);
				ctx.fillStyle = '#1d2330';
				const label = (t.name || '?') + ' (' + t.tid + ')';
				ctx.fillText(label.length > 34 ? label.slice(0, 33) + '..' : label, 6, y + 12);
				ctx.fillStyle = '#5b6475';
				ctx.fillText(fmt(t.samples, 0) + ' samples', 6, y + 28);
				ctx.save();
				ctx.beginPath(); ctx.rect(LABEL, 0, W - LABEL, h); ctx.clip();
				const bw = TL.span / TL.bins * scale;
				ctx.fillStyle = '#3b73c8';
				t.d.forEach((c, b) => {
					if (!c) return;
					const bh = Math.max(1, 16 * c / dens[k]);
					ctx.fillRect(X(b * TL.span / TL.bins), y + 18 - bh, Math.max(bw - 0.2, 0.5), bh);
				});
				if (t.s) for (let b = 0; b < TL.bins; b++) { // the states, stacked in 6 px
					let at = y + 39;
					for (let j = 0; j < 3; j++) {
						const hh = 6 * t.s[3 * b + j] / 1000;
						if (hh <= 0) continue;
						ctx.fillStyle = STATES[j];
						at -= hh;
						ctx.fillRect(X(b * TL.span / TL.bins), at, Math.max(bw - 0.2, 0.5), hh);
					}
				}
				for (const s of byTrack[k].tasks) {
					const d = Math.min(s.depth, 3);
					ctx.fillStyle = ['#e0a030', '#c07f10', '#9a6200', '#6e4600'][d];
					ctx.fillRect(X(s[1]), y + 21 + d, Math.max((s[2] - s[1]) * scale, 1), 7 - 2 * d);
				}
				ctx.fillStyle = '#6b4fbb'; // MPI calls, in OpenMP's band (an MPI+OpenMP rank's regions drawn over them)
				for (const c of byTrack[k].mpi) ctx.fillRect(X(c[1]), y + 30, Math.max((c[2] - c[1]) * scale, 1), 7);
				for (const o of byTrack[k].omp) {
					ctx.fillStyle = o[3] ? '#c0392b' : '#46a35a';
					ctx.fillRect(X(o[1]), y + 30, Math.max((o[2] - o[1]) * scale, 1), o[3] ? 4 : 7);
				}
				ctx.restore();
			});
			ctx.save();
			ctx.beginPath(); ctx.rect(LABEL, 0, W - LABEL, h); ctx.clip();
			ctx.fillStyle = 'rgba(120,120,120,0.35)';
			for (const q of TL.pauses) ctx.fillRect(X(q[0]), TOP, Math.max((q[1] - q[0]) * scale, 1), tracks.length * ROW);
			ctx.restore();
		}
		cv.addEventListener('mousemove', e => {
			const r = cv.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
			const k = Math.floor((y - TOP) / ROW), us = z.at(x), scale = z.scale;
			if (k < 0 || k >= tracks.length || x < LABEL) { info.textContent = ' '; return; }
			const t = tracks[k], yy = y - TOP - k * ROW;
			let what = '';
			// the innermost slice under the pointer
			const hit = list => list.filter(s => us >= s[1] && us <= Math.max(s[2], s[1] + 2 / scale))
				.sort((a, b) => (b.depth || 0) - (a.depth || 0))[0];
			if (yy >= 21 && yy < 29) { const s = hit(byTrack[k].tasks); if (s) what = 'task ' + s[3] + '::' + s[4] + ', ' + fmt((s[2] - s[1]) / 1000, 3) + ' ms'; }
			if (yy >= 29) { const o = hit(byTrack[k].omp); if (o) what = 'OpenMP ' + (o[3] ? 'wait: ' + o[5] : 'region' + (o[6] ? ' ' + o[6] : '')) + ', ' + fmt((o[2] - o[1]) / 1000, 3) + ' ms'; }
			if (yy >= 29 && !what) { const c = hit(byTrack[k].mpi); if (c) what = c[3] + ', ' + fmt((c[2] - c[1]) / 1000, 3) + ' ms'; }
			const b = Math.min(TL.bins - 1, Math.max(0, Math.floor(us / TL.span * TL.bins)));
			if (!what && t.s && yy >= 33)
				what = ['running', 'runnable', 'blocked'].map((n, j) => n + ' ' + (t.s[3 * b + j] / 10).toFixed(1) + '%').join(', ') +
					' of ' + fmt(b * TL.span / TL.bins / 1000, 3) + '-' + fmt((b + 1) * TL.span / TL.bins / 1000, 3) + ' ms';
			if (!what) {
				what = t.d[b] + ' ' + (TL.agg ? TL.agg.unit : 'samples') + ' in ' + fmt(b * TL.span / TL.bins / 1000, 3) + '-' + fmt((b + 1) * TL.span / TL.bins / 1000, 3) + ' ms';
			}
			info.textContent = (t.name || '?') + ' (TID ' + t.tid + ', PID ' + t.pid + ') at ' + fmt(us / 1000, 3) + ' ms: ' + what;
		});
		timelineFocus = tid => {
			focus = tracks.findIndex(t => t.tid === tid);
			draw();
			if (focus >= 0) wrap.scrollTop = Math.max(0, TOP + focus * ROW - 60);
		};
		window.addEventListener('resize', () => { if (!p.hidden) draw(); });
		p.onshow = draw;
	});

	// ---- OpenMP: report.csv's OpenMP tracing tables, with bars ----
	const omp = SECTIONS.filter(s => /^OpenMP /i.test(s.title) && !/^OpenMP TRACING REPORT$/i.test(s.title));
	// the columns drawn as bars: imbalance and elapsed time of regions, each thread's
	// work and sync (the imbalance seen), waits by type, hot functions' shares
	const OMP_BARS = [[/PARALLEL-REGION METRIC/i, /^Imbalance|^CPU Imbalance|^Total Elapsed/],
		[/THREAD METRIC/i, /^Total (Work|Sync) Time/], [/WAITS/i, /\(seconds\)$/],
		[/HOT FUNCTIONS|LATE THREADS/i, /^Share\(%\)$/]];
	if (omp.length) page('openmp', 'OpenMP', p => {
		for (const sec of omp) {
			const head = sec.rows.reduce((a, r) => r.length > a.length ? r : a, []);
			const rule = OMP_BARS.find(b => b[0].test(sec.title));
			const bars = rule ? head.map((h, i) => rule[1].test(h) ? i : -1).filter(i => i >= 0) : [];
			p.append(any(sec, { bars: bars, pct: false,
				link: (r, i) => /^FUNCTION$|^Function$/.test(head[i]) && D.flame ?
					{ title: 'Find it in the flame graph', fn: () => { show('flame'); flameSearch('^' + escRe(r[i]) + '$'); } } : null }));
		}
	});

	// ---- MPI: a job's ranks, the communication matrix as a heat map, its tables ----
	const mpi = SECTIONS.filter(s => /^MPI |^RANK SUMMARY|^(RMA )?COMMUNICATION MATRIX|^COLLECTIVE|^ENVIRONMENT$|CALL SITES/.test(s.title) &&
		!/^MPI (TRACING REPORT|RANKS|Ranks Per Node)$/.test(s.title));
	// the rank summary and the matrices first (two-sided, then one-sided): what a look at
	// a job is for
	const mpiOrder = t => /^RANK SUMMARY/.test(t) ? 0 : /^COMMUNICATION MATRIX/.test(t) ? 1 :
		/^RMA COMMUNICATION MATRIX/.test(t) ? 2 : 3;
	mpi.sort((a, b) => mpiOrder(a.title) - mpiOrder(b.title));
	function heat(sec) {
		const head = sec.rows[0], rows = sec.rows.slice(1);
		const ranks = new Set(), cells = new Map();
		for (const r of rows) {
			const m = /^\s*(\d+)\s*--->\s*(\d+)\s*$/.exec(r[0]);
			if (!m) continue;
			ranks.add(+m[1]); ranks.add(+m[2]);
			cells.set(m[1] + '>' + m[2], r);
		}
		const rk = [...ranks].sort((a, b) => a - b);
		const metrics = head.map((h, i) => i).filter(i => i > 0 && !/%/.test(head[i]));
		let metric = head.findIndex(h => /^Volume\(Bytes\)$/.test(h));
		if (metric < 0) metric = metrics[0];
		// RMA COMMUNICATION MATRIX (.mpi 1.3): an origin's puts and gets at each target
		const rma = /^RMA /.test(sec.title), kind = rma ? 'RMA COMMUNICATION MATRIX' : 'COMMUNICATION MATRIX';
		const box = el('div', { cls: 'section' });
		const sel = el('div', { cls: 'subtabs', role: 'group', 'aria-label': 'Heat map value' });
		const grid = el('div', { cls: 'tbl' });
		function drawHeat() {
			const vals = rows.map(r => parseFloat(r[metric]) || 0), mx = Math.max(1e-30, ...vals);
			const t = el('table', { cls: 'heat', 'data-section': kind + ' heat map' });
			t.append(el('tr', {}, [el('th', { text: rma ? 'origin \\ target' : 'from \\ to' }), ...rk.map(r => el('th', { cls: 'num', text: 'rank ' + r }))]));
			for (const a of rk) t.append(el('tr', {}, [el('th', { text: 'rank ' + a }), ...rk.map(b => {
				const r = cells.get(a + '>' + b);
				const v = r ? parseFloat(r[metric]) || 0 : 0;
				const f = v / mx;
				const td = el('td', { cls: 'cell', 'data-v': r ? r[metric].trim() : '',
					title: 'rank ' + a + ' -> rank ' + b + ': ' + (r ? head.map((h, i) => i ? h + ' ' + r[i].trim() : '').filter(Boolean).join(', ') : 'nothing sent'),
					style: 'background:rgba(31,95,191,' + (r ? 0.08 + 0.85 * f : 0).toFixed(3) + ');color:' + (f > 0.55 ? '#fff' : '#1d2330') });
				td.textContent = r ? (/Bytes/.test(head[metric]) ? fmtBytes(v) : r[metric].trim()) : '';
				return td;
			})]));
			grid.replaceChildren(t);
			[...sel.children].forEach(b => b.setAttribute('aria-pressed', String(+b.dataset.i === metric)));
		}
		for (const i of metrics) sel.append(el('button', { 'data-i': String(i), text: head[i], onclick: () => { metric = i; drawHeat(); } }));
		box.append(el('h2', { text: rma ? 'One-sided (RMA) matrix (origin rows, target columns)' :
			'Communication matrix (sender rows, receiver columns)' }), sel, grid);
		drawHeat();
		return box;
	}
	if (mpi.length || D.kind === 'job') page('mpi', 'MPI', p => {
		for (const sec of mpi) {
			if (/^(RMA )?COMMUNICATION MATRIX/.test(sec.title)) p.append(heat(sec));
			const head = sec.rows[0] || [];
			const bars = head.map((h, i) => /Time\(%\)|Volume\(%\)|^Imbalance|^Messages$|^Total Time/.test(h) ? i : -1).filter(i => i >= 0);
			p.append(any(sec, { bars: bars }));
		}
		if (!mpi.length) p.append(el('p', { cls: 'muted', text: 'No MPI trace in this job (collect --trace mpi records the calls); report --detail adds the per-rank tables.' }));
		for (const t of ['MPI RANKS', 'MPI Ranks Per Node'])
			for (const sec of findAll(new RegExp('^' + t + '$'))) p.append(any(sec));
	});

	// ---- everything else of report.csv, in its order ----
	page('tables', 'All tables', p => {
		p.append(el('p', { cls: 'muted', text: 'Every section of report.csv, as report.csv has it (the other pages show these too).' }));
		for (const sec of SECTIONS) {
			if (!sec.rows.length) { if (sec.title) p.append(el('h2', { text: sec.title })); continue; }
			p.append(any(sec, { pct: !!hotName(sec.title) }));
		}
	});

	// ---- the tab bar: Tab reaches the selected tab, arrows move between them ----
	const header = el('header', {}, [el('h1', { text: (D.summary && D.summary.target) || D.dir || 'uprof report' }),
		el('div', { cls: 'dir', text: ({ job: 'MPI job ', compare: 'Comparison of ' }[D.kind] || 'Session ') + D.dir })]);
	const list = el('div', { role: 'tablist', 'aria-label': 'Report pages' });
	header.append(list);
	const main = el('main');
	document.body.append(header, main);
	const tabs = [], panels = [];
	pages.forEach((pg, k) => {
		const tab = el('button', { role: 'tab', id: 'tab-' + pg.id, 'aria-controls': 'page-' + pg.id,
			'aria-selected': 'false', tabindex: '-1', text: pg.label });
		const panel = el('section', { role: 'tabpanel', id: 'page-' + pg.id, 'aria-labelledby': 'tab-' + pg.id, hidden: '' });
		tab.addEventListener('click', () => show(pg.id));
		tab.addEventListener('keydown', e => {
			const to = { ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: pages.length - 1 }[e.key];
			if (to === undefined) return;
			e.preventDefault();
			const j = (to + pages.length) % pages.length;
			show(pages[j].id);
			tabs[j].focus();
		});
		list.append(tab);
		main.append(panel);
		tabs.push(tab);
		panels.push(panel);
	});
	// pages are built when first shown: a large session's tables cost nothing unseen
	const builtPages = new Set();
	function show(id) {
		const k = Math.max(0, pages.findIndex(pg => pg.id === id));
		pages.forEach((pg, j) => {
			tabs[j].setAttribute('aria-selected', String(j === k));
			tabs[j].tabIndex = j === k ? 0 : -1;
			panels[j].hidden = j !== k;
		});
		if (!builtPages.has(k)) { builtPages.add(k); pages[k].build(panels[k]); }
		if (panels[k].onshow) panels[k].onshow();
		try { history.replaceState(null, '', '#' + pages[k].id); } catch (err) { /* some file:// */ }
	}
	document.addEventListener('keydown', e => {
		if (e.key === 'Escape' && document.activeElement && document.activeElement.type === 'search') {
			document.activeElement.value = '';
			document.activeElement.dispatchEvent(new Event('input'));
		}
	});
	// every page built up front when asked (?all: tests read the whole DOM at once)
	if (/[?&]all\b/.test(location.search)) pages.forEach(pg => show(pg.id));
	show(location.hash ? location.hash.slice(1) : pages[0].id);
	document.body.setAttribute('data-ready', '1');
})();

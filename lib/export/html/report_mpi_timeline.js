// SPDX-License-Identifier: MIT
// report.html's MPI timeline of a job (embedded before report.js, registered through
// UPROF_VIEWS): a track per rank with its --trace mpi=full calls as slices, from
// "mpi_timeline" (lib/export/html_mpi.c: the job's trace.json's calls, on its time line),
// and the calls it shows per rank and function as a table (report.csv's MPI FUNCTION
// SUMMARY TABLE (Rank N) counts the same calls). Zoom as on the Timeline page (report.js's
// timeAxis): the wheel or + and -, drag or the arrow keys to move, 0 to see it all.
UPROF_VIEWS.push(function mpiTimelineView(U) {
	'use strict';
	const M = U.D.mpi_timeline, el = U.el, fmt = U.fmt;
	// a job collected without mpi=full has no calls: no page (its ranks' files say why)
	if (!M || !M.calls || !M.calls.length) return;
	U.page('mpitimeline', 'MPI timeline', p => {
		const LABEL = 230, ROW = 26, TOP = 26, span = Math.max(M.span, 1);
		const byRank = M.ranks.map(() => []);
		for (const c of M.calls) byRank[c[0]].push(c);
		function color(name) {
			let h = 0;
			for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
			return 'hsl(' + (h % 360) + ',60%,' + (45 + (h >> 9) % 20) + '%)';
		}
		const colors = M.names.map(color);
		// calls and time per rank and function: what the table shows and the legend orders by
		const per = new Map(), byName = new Map();
		for (const c of M.calls) {
			const k = c[0] + '\u0000' + c[1];
			const v = per.get(k) || { r: c[0], f: c[1], n: 0, us: 0 };
			v.n++; v.us += c[3] - c[2];
			per.set(k, v);
			byName.set(c[1], (byName.get(c[1]) || 0) + c[3] - c[2]);
		}
		const legend = el('div', { cls: 'legend' }, [...byName.entries()].sort((a, b) => b[1] - a[1]).slice(0, 16)
			.map(e => el('span', {}, [el('i', { style: 'background:' + colors[e[0]] }), M.names[e[0]]])));
		const notes = [];
		if (M.left_out) notes.push(M.left_out + ' later calls are not shown (the page keeps the first ' + M.kept_at_most + ')');
		for (const r of M.ranks) {
			if (r.why) notes.push('rank ' + r.rank + ': ' + r.why);
			if (r.dropped) notes.push('rank ' + r.rank + ': ' + r.dropped + ' calls past the interposer\'s cap were never recorded');
		}
		const view = el('div', { id: 'mpi-view', cls: 'muted', 'aria-live': 'polite' });
		const info = el('div', { id: 'mpi-details', 'aria-live': 'polite' }, [' ']);
		const wrap = el('div', { cls: 'canvaswrap' });
		const cv = el('canvas', { tabindex: '0', 'aria-label': 'MPI timeline: a track per rank' });
		wrap.append(cv);
		p.append(el('p', { cls: 'muted', text: M.ranks.length + ' ranks, ' + fmt(M.calls.length, 0) + ' MPI calls over ' +
			fmt(span / 1000, 3) + ' ms, on one time line (each host\'s clock offset). Zoom: the wheel or + and -, drag or the arrow keys to move, 0 to see it all.' }));
		if (notes.length) p.append(el('ul', { cls: 'notes' }, notes.map(t => el('li', { cls: 'warn', text: t }))));
		p.append(legend, view, wrap, info);
		const ctx = cv.getContext('2d');
		let W = 0;
		const z = U.timeAxis(cv, view, LABEL, span, () => draw()), X = z.X;
		function draw() {
			W = Math.max(700, wrap.clientWidth - 2);
			const dpr = window.devicePixelRatio || 1, h = TOP + M.ranks.length * ROW + 4;
			cv.width = W * dpr; cv.height = h * dpr; cv.style.width = W + 'px'; cv.style.height = h + 'px';
			ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
			ctx.clearRect(0, 0, W, h);
			z.ruler(ctx, W, TOP);
			const scale = z.scale, v0 = z.v0, v1 = z.v1;
			M.ranks.forEach((r, k) => {
				const y = TOP + k * ROW;
				ctx.fillStyle = k % 2 ? '#f6f7fa' : '#fff';
				ctx.fillRect(0, y, W, ROW);
				ctx.fillStyle = '#1d2330';
				const label = 'rank ' + r.rank + ' (' + (r.host || '?') + ', ' + r.pid + ')';
				ctx.fillText(label.length > 34 ? label.slice(0, 33) + '..' : label, 6, y + ROW / 2);
				ctx.save();
				ctx.beginPath(); ctx.rect(LABEL, 0, W - LABEL, h); ctx.clip();
				for (const c of byRank[k]) {
					if (c[3] < v0 || c[2] > v1) continue;
					ctx.fillStyle = colors[c[1]];
					ctx.fillRect(X(c[2]), y + 4, Math.max((c[3] - c[2]) * scale, 1), ROW - 8);
				}
				ctx.restore();
			});
		}
		cv.addEventListener('mousemove', e => {
			const b = cv.getBoundingClientRect(), x = e.clientX - b.left, k = Math.floor((e.clientY - b.top - TOP) / ROW);
			const us = z.at(x), scale = z.scale;
			const c = k >= 0 && k < M.ranks.length && x >= LABEL ?
				byRank[k].find(s => us >= s[2] && us <= Math.max(s[3], s[2] + 2 / scale)) : null;
			info.textContent = c ? 'rank ' + M.ranks[k].rank + ': ' + M.names[c[1]] + ' at ' + fmt(c[2] / 1000, 3) + ' ms, ' +
				fmt((c[3] - c[2]) / 1000, 3) + ' ms' : ' ';
		});
		window.addEventListener('resize', () => { if (!p.hidden) draw(); });
		p.onshow = draw;
		// the calls shown, per rank and function, in rank order then by calls
		const rows = [...per.values()].sort((a, b) => M.ranks[a.r].rank - M.ranks[b.r].rank || b.n - a.n || (M.names[a.f] < M.names[b.f] ? -1 : 1))
			.map(v => [String(M.ranks[v.r].rank), M.names[v.f], String(v.n), (v.us / 1e6).toFixed(6)]);
		const sec = { title: 'MPI TIMELINE CALLS', rows: [['Rank', 'Function', 'Calls', 'Time (seconds)']].concat(rows) };
		p.append(U.titled(sec, U.table(sec)));
	});
});

// SPDX-License-Identifier: MIT
// report.html's caller/callee page (embedded before report.js, which hands each entry of
// UPROF_VIEWS its helpers when it registers its pages). Built from the flame graph's tree
// (the session's stacks, merged as stacks.folded has them), so its numbers are the
// folded file's: for the function picked,
//   total    samples with the function anywhere on the stack (once, however deep it recurses)
//   self     samples with the function as the leaf
//   callers  the frame under its outermost call, by samples of those stacks (the process's
//            name when nothing of the program is under it)
//   callees  the frame above its outermost call, by samples
// A frame the flame graph pruned (fewer than its "min" samples) stays in its caller's
// count: the page says so when any was.
const UPROF_VIEWS = [];
UPROF_VIEWS.push(function callsView(U) {
	'use strict';
	const F = U.D.flame;
	if (!F || !F.nodes || F.nodes.length < 2) return;
	const nodes = F.nodes, names = F.names, N = nodes.length;
	const nameOf = i => names[nodes[i][1]];
	const PROCESS = 4; // a process's name under the program's outermost frames
	const isFunc = i => i > 0 && nodes[i][3] !== PROCESS;
	const kids = nodes.map(() => []);
	const kidSum = new Float64Array(N);
	for (let i = 1; i < N; i++) { kids[nodes[i][0]].push(i); kidSum[nodes[i][0]] += nodes[i][2]; }

	// every function's total and self, in one walk with the names on the path counted
	const total = new Map(), self = new Map(), onPath = new Map();
	const add = (m, k, v) => m.set(k, (m.get(k) || 0) + v);
	const walk = [[0, false]];
	while (walk.length) {
		const [i, leaving] = walk.pop();
		const fn = isFunc(i) ? nameOf(i) : null;
		if (leaving) { if (fn !== null) add(onPath, fn, -1); continue; }
		if (fn !== null) {
			if (!onPath.get(fn)) add(total, fn, nodes[i][2]);
			add(self, fn, nodes[i][2] - kidSum[i]);
			add(onPath, fn, 1);
		}
		walk.push([i, true]);
		for (const k of kids[i]) walk.push([k, false]);
	}
	const byTotal = [...total.keys()].sort((a, b) => total.get(b) - total.get(a) || (a < b ? -1 : a > b ? 1 : 0));

	// callers and callees of @fn: the frames around its outermost calls
	function around(fn) {
		const callers = new Map(), callees = new Map();
		const under = new Uint8Array(N); // a proper ancestor is @fn
		for (let i = 1; i < N; i++) {
			const p = nodes[i][0];
			under[i] = under[p] || (isFunc(p) && nameOf(p) === fn) ? 1 : 0;
			if (!isFunc(i) || nameOf(i) !== fn || under[i]) continue;
			add(callers, nameOf(p), nodes[i][2]);
			for (const k of kids[i]) add(callees, nameOf(k), nodes[k][2]);
		}
		return { callers: callers, callees: callees };
	}

	const pct = (v, of) => (of > 0 ? 100 * v / of : 0).toFixed(2);
	function rowsOf(m, of) {
		return [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
			.map(e => [e[0], String(e[1]), pct(e[1], of)]);
	}
	let go = () => {};
	U.page('calls', 'Callers/callees', p => {
		const list = U.el('datalist', { id: 'calls-names' }, byTotal.slice(0, 5000).map(n => U.el('option', { value: n })));
		const input = U.el('input', { type: 'search', list: 'calls-names', placeholder: 'Function name',
			'aria-label': 'The function whose callers and callees are shown' });
		const body = U.el('div');
		const flameBtn = U.el('button', { text: 'Show in the flame graph' });
		const srcBtn = U.el('button', { text: 'Source and assembly', hidden: '' });
		p.append(U.el('p', { cls: 'muted', text: 'Callers: the frame below the function\'s outermost call; callees: the frame above it. ' +
			'Shares are of the function\'s total samples. Numbers are stacks.folded\'s.' +
			(F.pruned ? ' ' + F.pruned + ' samples are in frames of under ' + F.min + ' samples, counted in their callers.' : '') }),
		U.el('div', { cls: 'tools' }, [input, list, flameBtn, srcBtn]), body);
		const link = (r, i) => i === 0 && total.has(r[0]) ?
			{ title: 'Its callers and callees', fn: () => go(r[0]) } : null;
		go = fn => {
			if (!total.has(fn)) {
				body.replaceChildren(U.el('p', { cls: 'muted', text: 'No function named "' + fn + '" in the stacks.' }));
				return;
			}
			input.value = fn;
			const a = around(fn), t = total.get(fn), s = self.get(fn);
			const sec = (title, head, rows) => ({ title: title, rows: [head].concat(rows) });
			const me = sec('SELECTED FUNCTION', ['FUNCTION', 'Total Samples', 'Total(%)', 'Self Samples', 'Self(%)'],
				[[fn, String(t), pct(t, F.total), String(s), pct(s, F.total)]]);
			const callers = sec('CALLERS', ['CALLER', 'Samples', 'Share(%)'], rowsOf(a.callers, t));
			const callees = sec('CALLEES', ['CALLEE', 'Samples', 'Share(%)'], rowsOf(a.callees, t));
			body.replaceChildren(U.titled(me, U.table(me)),
				U.titled(callers, U.table(callers, { bars: [1], link: link })),
				U.titled(callees, U.table(callees, { bars: [1], link: link })));
			flameBtn.onclick = () => { U.show('flame'); U.flameSearch('^' + U.escRe(fn) + '$'); };
			const annotated = U.hooks.source && U.hooks.source(fn); // annotated: one of the hottest
			srcBtn.hidden = !annotated;
			srcBtn.onclick = annotated;
		};
		input.addEventListener('change', () => go(input.value));
		const asked = /[?&]fn=([^&#]*)/.exec(location.search);
		go(asked ? decodeURIComponent(asked[1]) : byTotal.find(n => self.get(n) > 0) || byTotal[0]);
	});
	// the other pages' function names lead here
	U.hooks.calls = fn => { U.show('calls'); go(fn); };
});

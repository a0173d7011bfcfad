// SPDX-License-Identifier: MIT
// report.html's Source/assembly page (a view report.js runs, as report_calls.js): the
// hottest functions as `uprof annotate` shows them (lib/export/html_source.c embeds its
// details): each source line and each instruction with its samples and its share of the
// function's, side by side; a click on a line marks its instructions. A long function
// shows its lines and instructions with samples and a few around each (the page says
// how many are left out; `uprof annotate --function NAME` prints them all).
UPROF_VIEWS.push(function sourceView(U) {
	'use strict';
	const SRC = U.D.source;
	if (!SRC || !SRC.length) return;
	const base = p => p.slice(p.lastIndexOf('/') + 1);
	const hex = a => a.toString(16);
	let go = () => {};
	// a cell with its value in data-v (what the tests read), heat behind a share
	function cell(text, cls, share) {
		const td = U.el('td', { cls: cls || '', 'data-v': text, text: text });
		if (share !== undefined && share > 0)
			td.style.background = 'rgba(217,83,79,' + (0.1 + 0.6 * share / 100).toFixed(3) + ')';
		return td;
	}
	function listing(title, head, rows) {
		const t = U.el('table', { cls: 'code', 'data-section': title }, [
			U.el('thead', {}, [U.el('tr', {}, head.map((h, i) => U.el('th', { cls: i > 0 && i < 3 ? 'num' : '', scope: 'col', text: h })))]),
			U.el('tbody', {}, rows)]);
		return U.el('div', { cls: 'section' }, [U.el('h2', { text: title }), U.el('div', { cls: 'tbl' }, [t])]);
	}
	U.page('source', 'Source/assembly', p => {
		const bar = U.el('div', { cls: 'subtabs', role: 'group', 'aria-label': 'Functions' });
		const body = U.el('div');
		const btns = SRC.map((f, k) => {
			const b = U.el('button', { 'aria-pressed': 'false', title: f.module,
				text: f.fn + ' (' + U.fmt(f.samples, 0) + ')', onclick: () => pick(k) });
			bar.append(b);
			return b;
		});
		function pick(k) {
			const f = SRC[k];
			btns.forEach((b, j) => b.setAttribute('aria-pressed', String(j === k)));
			const lineRows = [], insnRows = [];
			const insnsOf = f.lines.map(() => []);
			f.insns.forEach((n, i) => { if (n[3] >= 0) insnsOf[n[3]].push(i); });
			function mark(l) {
				insnRows.forEach(r => r.classList.remove('on'));
				lineRows.forEach((r, j) => r.classList.toggle('on', j === l));
				for (const i of insnsOf[l]) insnRows[i].classList.add('on');
				if (insnsOf[l].length) insnRows[insnsOf[l][0]].scrollIntoView({ block: 'nearest' });
			}
			f.lines.forEach((l, j) => {
				const tr = U.el('tr', { tabindex: '0', title: l[0] + (l[5] ? ' (inlined from ' + l[5] + ')' : ''),
					onclick: () => mark(j), onkeydown: e => { if (e.key === 'Enter') mark(j); } },
				[cell(base(l[0]) + ':' + l[1]), cell(String(l[2]), 'num', l[3]), cell(l[3].toFixed(2), 'num', l[3]),
					cell(l[4] + (l[5] ? '   [inlined from ' + l[5] + ']' : ''), 'src')]);
				lineRows.push(tr);
			});
			f.insns.forEach(n => {
				const l = n[3] >= 0 ? f.lines[n[3]] : null;
				insnRows.push(U.el('tr', {}, [cell(hex(n[0])), cell(String(n[1]), 'num', n[2]), cell(n[2].toFixed(2), 'num', n[2]),
					cell(l ? base(l[0]) + ':' + l[1] : ''), cell(n[4] || '(no disassembly)', 'src')]));
			});
			const notes = f.notes.map(t => U.el('li', { cls: 'warn', text: t }));
			const nl = U.el('ul', { cls: 'notes' }, notes);
			if (f.left_out.lines || f.left_out.insns)
				nl.append(U.el('li', { text: f.left_out.lines + ' lines and ' + f.left_out.insns + ' instructions without samples, away from those with them, are left out (uprof annotate --function shows them all).' }));
			body.replaceChildren(
				U.el('p', { cls: 'muted', text: f.fn + ' in ' + f.module + ': ' + U.fmt(f.samples, 0) + ' samples' +
					(f.end > f.start ? '; code 0x' + hex(f.start) + '-0x' + hex(f.end) : '') + '. Shares are of the function\'s samples; click a line to mark its instructions.' }),
				nl,
				U.el('div', { cls: 'cols' }, [
					listing('SOURCE LINES ' + f.fn, ['Line', 'Samples', 'Share(%)', 'Source'], lineRows),
					listing('ASSEMBLY ' + f.fn, ['Address', 'Samples', 'Share(%)', 'Line', 'Instruction'], insnRows)]));
		}
		p.append(bar, body);
		go = fn => { const k = SRC.findIndex(f => f.fn === fn); pick(k < 0 ? 0 : k); return k >= 0; };
		const asked = /[?&]fn=([^&#]*)/.exec(location.search);
		go(asked ? decodeURIComponent(asked[1]) : SRC[0].fn);
	});
	U.hooks.source = fn => SRC.some(f => f.fn === fn) ? () => { U.show('source'); go(fn); } : null;
});

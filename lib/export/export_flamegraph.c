// SPDX-License-Identifier: MIT
/*
 * A flame graph as one self-contained SVG (no external tool, no network): the tree of
 * stacks (all -> process comm -> outermost function -> ... -> leaf), each frame as wide
 * as its samples, children in name order as flamegraph.pl draws them. Each frame is
 *   <g class="f" data-x="SAMPLES BEFORE IT" data-w="SAMPLES" data-d="DEPTH">
 *     <title>NAME (N samples, P%)</title><rect .../><text ...>NAME</text></g>
 * so the embedded script can zoom (click), search (Ctrl-F or the Search button) and
 * reset, and tests can check every width against the folded counts. Frames narrower
 * than 0.1 px are left out, as flamegraph.pl does.
 */
#include "export/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 1200.0
#define XPAD 10.0
#define FRAME_H 16
#define TOP 60
#define BOTTOM 34
#define FONT 12
#define CHAR_W (FONT * 0.59)
#define MIN_W 0.1

struct node {
	uint32_t parent;
	int64_t key; /* a function's name (interned: equal names merge, as in the folded file),
		      * -1 - proc for a process, or -2^40 for "all" */
	uint64_t count;
	uint64_t x; /* samples to the left of it, at its depth */
	uint32_t depth;
	uint32_t nkids, kids; /* its children: kidv[kids .. kids + nkids) */
	const char *name;
	int kind; /* 0 function, 1 inlined, 2 marker, 3 kernel, 4 process, 5 all */
};

struct rpt_flame {
	const struct rpt *r;
	struct node *v;
	size_t n, cap;
	struct util_hash index; /* (parent, key) -> node + 1 */
	uint32_t *kidv;
	uint32_t maxdepth;
	bool ns; /* weights are nanoseconds (the wall-clock view), not samples */
};

static long child(struct rpt_flame *t, uint32_t parent, int64_t key, const char *name, int kind)
{
	uint64_t *slot = util_hash_slot(&t->index, parent, (uint64_t)key, 0);

	if (!slot)
		return -ENOMEM;
	if (*slot)
		return (long)(*slot - 1);
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct node *g = realloc(t->v, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		t->v = g;
		t->cap = cap;
	}
	t->v[t->n] = (struct node){ parent, key, 0, 0, t->v[parent].depth + 1, 0, 0, name, kind };
	if (t->v[t->n].depth > t->maxdepth)
		t->maxdepth = t->v[t->n].depth;
	*slot = ++t->n;
	return (long)t->n - 1;
}

static int func_kind(const struct rpt_stack_fn *fn)
{
	switch (fn->kind) {
	case RPT_FN_MARK:
		return 2;
	case RPT_FN_INLINED:
		return 1;
	case RPT_FN_KERNEL:
		return 3;
	default:
		return 0;
	}
}

/* The root frame of @proc: processes with one comm share it, as in the folded file. */
static long proc_frame(struct rpt_flame *t, uint32_t proc)
{
	const char *comm = proc == UINT32_MAX ? "[unknown process]" : rpt_export_comm(t->r, proc);

	for (uint32_t p = 0; proc != UINT32_MAX && p < proc; p++)
		if (!strcmp(rpt_export_comm(t->r, p), comm)) {
			proc = p;
			break;
		}
	return child(t, 0, -1 - (int64_t)proc, comm, 4);
}

int rpt_flame_add(struct rpt_flame *t, const struct rpt_stack_view *s, const char *leaf, uint64_t w)
{
	long node;

	if (!w)
		return 0;
	t->v[0].count += w;
	node = proc_frame(t, s->proc);
	for (uint32_t k = s->nfuncs; node >= 0; k--) {
		struct rpt_stack_fn fn;

		t->v[node].count += w;
		if (!k)
			break;
		rpt_stack_func(t->r, s->funcs[k - 1], &fn);
		/* interned names: the pointer is the key, equal names merge */
		node = child(t, (uint32_t)node, (int64_t)(uintptr_t)fn.name, fn.name,
			     func_kind(&fn));
	}
	if (node >= 0 && leaf) {
		node = child(t, (uint32_t)node, (int64_t)(uintptr_t)leaf, leaf, 2);
		if (node >= 0)
			t->v[node].count += w;
	}
	return node < 0 ? -ENOMEM : 0;
}

/* The CPU flame graph's input: every stack, weighted by its samples. */
static int feed_samples(const struct rpt *r, struct rpt_flame *t)
{
	struct rpt_stacks_facts facts;
	int ret = 0;

	rpt_stacks_facts(r, &facts);
	for (size_t i = 0; i < facts.nstacks && !ret; i++) {
		struct rpt_stack_view s;

		rpt_stack_at(r, i, &s);
		ret = rpt_flame_add(t, &s, NULL, s.count);
	}
	return ret;
}

static int cmp_kid(const void *a, const void *b, void *arg)
{
	const struct rpt_flame *t = arg;
	const struct node *x = &t->v[*(const uint32_t *)a];
	const struct node *y = &t->v[*(const uint32_t *)b];
	int c = strcmp(x->name, y->name);

	return c ? c : (x->key > y->key) - (x->key < y->key);
}

/* Children lists in name order, and each node's x (parents come before children). */
static int layout(struct rpt_flame *t)
{
	uint32_t *fill;

	t->kidv = malloc(sizeof(uint32_t) * (t->n ? t->n : 1));
	fill = calloc(t->n ? t->n : 1, sizeof(uint32_t));
	if (!t->kidv || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (size_t i = 1; i < t->n; i++)
		t->v[t->v[i].parent].nkids++;
	for (size_t i = 0, at = 0; i < t->n; i++) {
		t->v[i].kids = (uint32_t)at;
		at += t->v[i].nkids;
	}
	for (size_t i = 1; i < t->n; i++) {
		struct node *p = &t->v[t->v[i].parent];

		t->kidv[p->kids + fill[t->v[i].parent]++] = (uint32_t)i;
	}
	free(fill);
	for (size_t i = 0; i < t->n; i++) {
		uint64_t x = t->v[i].x;

		qsort_r(t->kidv + t->v[i].kids, t->v[i].nkids, sizeof(uint32_t), cmp_kid, t);
		for (uint32_t k = 0; k < t->v[i].nkids; k++) {
			struct node *c = &t->v[t->kidv[t->v[i].kids + k]];

			c->x = x;
			x += c->count;
		}
	}
	return 0;
}

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void color(const struct node *n, char *buf, size_t len)
{
	uint32_t h = hash_name(n->name);
	unsigned a = h & 0xff, b = (h >> 8) & 0xff, c = (h >> 16) & 0xff;

	switch (n->kind) {
	case 1: /* inlined: aqua */
		snprintf(buf, len, "rgb(%u,%u,%u)", 50 + a % 60, 190 + b % 55, 190 + c % 55);
		break;
	case 2: /* markers: grey */
		snprintf(buf, len, "rgb(180,180,180)");
		break;
	case 3: /* kernel: orange */
		snprintf(buf, len, "rgb(%u,%u,%u)", 220 + a % 35, 130 + b % 60, 40 + c % 30);
		break;
	case 4:
	case 5:
		snprintf(buf, len, "rgb(%u,%u,%u)", 200 + a % 30, 200 + b % 30, 225 + c % 30);
		break;
	default: /* flamegraph.pl's "hot" palette */
		snprintf(buf, len, "rgb(%u,%u,%u)", 205 + a * 50 / 256, b * 230 / 256,
			 c * 55 / 256);
	}
}

static void put_frame(FILE *f, const struct rpt_flame *t, const struct node *n, double scale,
		      double height)
{
	double x = XPAD + (double)n->x * scale, w = (double)n->count * scale;
	double y = height - BOTTOM - (double)(n->depth + 1) * FRAME_H;
	size_t fit = w > 2 * CHAR_W ? (size_t)((w - 6) / CHAR_W) : 0;
	size_t len = strlen(n->name);
	char fill[32], *shown = NULL;

	color(n, fill, sizeof(fill));
	fprintf(f,
		"<g class=\"f\" data-x=\"%" PRIu64 "\" data-w=\"%" PRIu64 "\" data-d=\"%u\">"
		"<title>",
		n->x, n->count, n->depth);
	util_put_escaped(f, n->name, UTIL_ESC_XML);
	if (t->ns)
		fprintf(f, " (%.3f ms, ", (double)n->count / 1e6);
	else
		fprintf(f, " (%" PRIu64 " samples, ", n->count);
	fprintf(f, "%.2f%%)</title>",
		t->v[0].count ? 100.0 * (double)n->count / (double)t->v[0].count : 0.0);
	fprintf(f,
		"<rect x=\"%.2f\" y=\"%.1f\" width=\"%.4f\" height=\"%d\" fill=\"%s\" rx=\"2\" "
		"ry=\"2\"/><text x=\"%.2f\" y=\"%.1f\">",
		x, y, w, FRAME_H - 1, fill, x + 3, y + FRAME_H - 4.5);
	if (fit >= 3) {
		if (fit < len) {
			shown = strndup(n->name, fit - 2);
			/* never cut inside a UTF-8 sequence */
			while (shown && *shown && fit > 2 &&
			       ((unsigned char)shown[strlen(shown) - 1] & 0x80))
				shown[strlen(shown) - 1] = 0;
		}
		util_put_escaped(f, shown ? shown : n->name, UTIL_ESC_XML);
		if (shown)
			fputs("..", f);
	}
	free(shown);
	fputs("</text></g>\n", f);
}

static const char SCRIPT[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"'use strict';\n"
	"var W, XPAD, total, frames, details, matched, zoomed = null;\n"
	"function num(e, a) { return +e.getAttribute(a); }\n"
	"function init() {\n"
	"  var svg = document.documentElement;\n"
	"  W = num(svg, 'width'); XPAD = num(svg, 'data-xpad'); total = num(svg, 'data-total');\n"
	"  frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
	"  details = document.getElementById('details'); matched = document.getElementById('matched');\n"
	"  frames.forEach(function (g) {\n"
	"    var r = g.querySelector('rect'), t = g.querySelector('text');\n"
	"    g.ox = num(r, 'x'); g.ow = num(r, 'width');\n"
	"    g.name = g.querySelector('title').textContent.replace(/ \\([0-9.]+ (samples|ms), [0-9.]+%\\)$/, '');\n"
	"    g.fill = r.getAttribute('fill');\n"
	"    g.onclick = function () { zoom(g); };\n"
	"    g.onmouseover = function () { details.textContent = g.querySelector('title').textContent; };\n"
	"    g.onmouseout = function () { details.textContent = ' '; };\n"
	"  });\n"
	"  document.getElementById('reset').onclick = unzoom;\n"
	"  document.getElementById('search').onclick = ask;\n"
	"  window.addEventListener('keydown', function (e) {\n"
	"    if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); ask(); }\n"
	"    if (e.key === 'Escape') { unzoom(); search(''); }\n"
	"  });\n"
	"}\n"
	"function place(g, x, w) {\n"
	"  var r = g.querySelector('rect'), t = g.querySelector('text');\n"
	"  r.setAttribute('x', x); r.setAttribute('width', w); t.setAttribute('x', x + 3);\n"
	"  var fit = Math.floor((w - 6) / 7.08);\n"
	"  t.textContent = fit < 3 ? '' : g.name.length <= fit ? g.name : g.name.substring(0, fit - 2) + '..';\n"
	"}\n"
	"function zoom(z) {\n"
	"  var x0 = num(z, 'data-x'), w0 = num(z, 'data-w'), d0 = num(z, 'data-d');\n"
	"  var scale = (W - 2 * XPAD) / w0;\n"
	"  zoomed = z;\n"
	"  frames.forEach(function (g) {\n"
	"    var x = num(g, 'data-x'), w = num(g, 'data-w'), d = num(g, 'data-d');\n"
	"    if (d < d0 && x <= x0 && x + w >= x0 + w0) {\n"
	"      g.style.display = ''; g.style.opacity = 0.6; place(g, XPAD, W - 2 * XPAD);\n"
	"    } else if (d >= d0 && x >= x0 && x + w <= x0 + w0) {\n"
	"      g.style.display = ''; g.style.opacity = 1; place(g, XPAD + (x - x0) * scale, w * scale);\n"
	"    } else {\n"
	"      g.style.display = 'none';\n"
	"    }\n"
	"  });\n"
	"}\n"
	"function unzoom() {\n"
	"  zoomed = null;\n"
	"  frames.forEach(function (g) { g.style.display = ''; g.style.opacity = 1; place(g, g.ox, g.ow); });\n"
	"}\n"
	"function ask() {\n"
	"  var term = prompt('Search for (regular expression):', '');\n"
	"  if (term !== null) search(term);\n"
	"}\n"
	"function search(term) {\n"
	"  var re = null, spans = [], sum = 0, end = -1;\n"
	"  try { re = term ? new RegExp(term) : null; } catch (e) { re = null; }\n"
	"  frames.forEach(function (g) {\n"
	"    var hit = re && re.test(g.name);\n"
	"    g.querySelector('rect').setAttribute('fill', hit ? 'rgb(230,0,230)' : g.fill);\n"
	"    if (hit) spans.push([num(g, 'data-x'), num(g, 'data-w'), num(g, 'data-d')]);\n"
	"  });\n"
	"  /* count each sample once: only matches not inside an earlier match */\n"
	"  spans.sort(function (a, b) { return a[0] - b[0] || a[2] - b[2]; });\n"
	"  spans.forEach(function (s) { if (s[0] >= end) { sum += s[1]; end = s[0] + s[1]; } });\n"
	"  matched.textContent = re ? 'Matched: ' + (100 * sum / total).toFixed(2) + '%' : ' ';\n"
	"}\n"
	"]]></script>\n";

int rpt_flamegraph_write(const struct rpt *r, FILE *f, rpt_flame_feed feed, const char *wall)
{
	struct rpt_flame t = { .r = r, .ns = wall != NULL };
	struct rpt_stacks_facts facts;
	double height, scale;
	int ret = 0;

	rpt_stacks_facts(r, &facts);
	t.v = malloc(sizeof(*t.v) * 1024);
	if (!t.v)
		return -ENOMEM;
	t.cap = 1024;
	t.v[0] = (struct node){ 0, -(1LL << 40), 0, 0, 0, 0, 0, "all", 5 };
	t.n = 1;
	ret = feed(r, &t);
	if (!ret)
		ret = layout(&t);
	if (ret)
		goto out;
	height = TOP + BOTTOM + (double)(t.maxdepth + 1) * FRAME_H;
	scale = t.v[0].count ? (WIDTH - 2 * XPAD) / (double)t.v[0].count : 0;
	fprintf(f,
		"<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"xmlns=\"http://www.w3.org/2000/svg\" onload=\"init()\" data-total=\"%" PRIu64
		"\" data-xpad=\"%.0f\">\n",
		WIDTH, height, WIDTH, height, t.v[0].count, XPAD);
	fputs("<style>text { font-family: Verdana, sans-serif; font-size: 12px; fill: #000; } "
	      "g.f:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; } "
	      ".ui { cursor: pointer; fill: #335; }</style>\n",
	      f);
	fputs(SCRIPT, f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#f8f8f0\"/>\n",
		WIDTH, height);
	fprintf(f, "<text x=\"%.0f\" y=\"24\" text-anchor=\"middle\" style=\"font-size:17px\">",
		WIDTH / 2);
	util_put_escaped(f, facts.info->target_path[0] ? facts.info->target_path : "uprof",
			 UTIL_ESC_XML);
	if (wall)
		fprintf(f, " - wall clock, %.3f s on and off CPU%s</text>\n",
			(double)t.v[0].count / 1e9, wall);
	else
		fprintf(f, " - CPU_TIME, %" PRIu64 " samples%s</text>\n", t.v[0].count,
			facts.collected ? "" : " (no call stacks collected: leaf functions only)");
	fprintf(f, "<text id=\"reset\" class=\"ui\" x=\"%.0f\" y=\"48\">Reset Zoom</text>\n", XPAD);
	fprintf(f,
		"<text id=\"search\" class=\"ui\" x=\"%.0f\" y=\"48\" text-anchor=\"end\">Search"
		"</text>\n",
		WIDTH - XPAD);
	fprintf(f, "<text id=\"matched\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\"> </text>\n",
		WIDTH - XPAD, height - 12);
	fprintf(f, "<text id=\"details\" x=\"%.0f\" y=\"%.0f\"> </text>\n", XPAD, height - 12);
	for (size_t i = 0; i < t.n; i++)
		if ((double)t.v[i].count * scale >= MIN_W)
			put_frame(f, &t, &t.v[i], scale, height);
	fputs("</svg>\n", f);
out:
	free(t.v);
	free(t.kidv);
	util_hash_release(&t.index);
	return ret;
}

int rpt_export_flamegraph(const struct rpt *r, FILE *f)
{
	return rpt_flamegraph_write(r, f, feed_samples, NULL);
}

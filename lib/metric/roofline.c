// SPDX-License-Identifier: MIT
/*
 * The roofline file (uprof pcm roofline -o, read back with -i) and the program's point.
 * One writer and one parser, so what a run wrote is what a re-render reads. The file is
 * CSV in sections; every line is one of:
 *
 *   Roofline format:,1            first line (a newer format is refused)
 *   <Key>:,<value>                a fact (any section but COUNTERS); "Elapsed (ns):" and
 *                                 "Point missing:" are read, the POINT values recomputed
 *   CEILINGS | COUNTERS | POINT   a section title
 *   Kind,... / Role,...           the section's column header
 *   compute|memory|nominal,<name>,<value>,<unit>,<9 description cells>   (CEILINGS)
 *   flops|dram,<event>,<value>,<time enabled ns>,<time running ns>          (COUNTERS)
 *   an empty line
 *
 * Cells are quoted when they hold a comma or a quote ("" inside). Input is untrusted:
 * bounded sizes, every number checked, errors name the line.
 */
#include "metric/metric.h"
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 4096
#define MAX_CELLS 16

static const char *const kinds[] = { "compute", "memory", "nominal" };
static const char *const units[] = { "GFLOP/s", "GB/s", "GFLOP/s" };
static const char *const roles[] = { "flops", "dram" };

const char *mtr_rl_kind_name(enum mtr_rl_kind k)
{
	return (unsigned)k < 3 ? kinds[k] : "?";
}

static double scaled(const struct mtr_rl_counter *c)
{
	if (c->running == 0)
		return c->enabled ? NAN : 0;
	if (c->running >= c->enabled)
		return (double)c->value;
	return (double)c->value * ((double)c->enabled / (double)c->running);
}

void mtr_rl_point(const struct mtr_roofline *r, struct mtr_rl_point *out)
{
	int nf = 0, nd = 0;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < r->ncounters; i++) {
		const struct mtr_rl_counter *c = &r->counters[i];

		if (c->role == MTR_RL_FLOPS) {
			out->flops += scaled(c);
			nf++;
		} else {
			out->dram_bytes += 64.0 * scaled(c);
			nd++;
		}
	}
	out->intensity = out->gflops = NAN;
	if (!nf || !nd)
		snprintf(out->why, sizeof(out->why), "no %s counter was recorded",
			 !nf ? "FP (flops)" : "DRAM (dram)");
	else if (!r->elapsed_ns)
		snprintf(out->why, sizeof(out->why), "no elapsed time was recorded");
	else if (!isfinite(out->flops) || !isfinite(out->dram_bytes))
		snprintf(out->why, sizeof(out->why),
			 "a counter was enabled but never running "
			 "(multiplexed out): its count is unknown");
	else if (out->dram_bytes <= 0)
		snprintf(out->why, sizeof(out->why),
			 "the DRAM counters counted 0 bytes: the "
			 "intensity is unbounded");
	else {
		out->intensity = out->flops / out->dram_bytes;
		out->gflops = out->flops / (double)r->elapsed_ns;
		out->placed = true;
	}
}

int mtr_rl_add_fact(struct mtr_roofline *r, const char *key, const char *val)
{
	if (r->nfacts == MTR_RL_MAX_FACTS)
		return -ENOSPC;
	snprintf(r->fact_key[r->nfacts], sizeof(r->fact_key[0]), "%s", key);
	snprintf(r->fact_val[r->nfacts], sizeof(r->fact_val[0]), "%s", val);
	r->nfacts++;
	return 0;
}

int mtr_rl_add_ceiling(struct mtr_roofline *r, const struct mtr_rl_ceiling *c)
{
	if (r->nceilings == MTR_RL_MAX_CEILINGS)
		return -ENOSPC;
	r->ceilings[r->nceilings++] = *c;
	return 0;
}

int mtr_rl_add_counter(struct mtr_roofline *r, const struct mtr_rl_counter *c)
{
	if (r->ncounters == MTR_RL_MAX_COUNTERS)
		return -ENOSPC;
	r->counters[r->ncounters++] = *c;
	return 0;
}

/* ---- writing ---- */

/* A cell on one line: the reader takes a line per row and refuses a CR inside one. */
static void cell(FILE *f, const char *s)
{
	util_csv_cell(f, s, UTIL_CSV_WHEN_NEEDED_ONE_LINE);
}

static void num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("unknown", f);
}

static void fact(FILE *f, const char *key, const char *val)
{
	cell(f, key);
	fputs(":,", f);
	cell(f, val);
	fputc('\n', f);
}

int mtr_rl_write(const struct mtr_roofline *r, FILE *f)
{
	struct mtr_rl_point p;
	char buf[64];

	fprintf(f, "Roofline format:,%d\n", MTR_RL_FORMAT);
	for (int i = 0; i < r->nfacts; i++)
		fact(f, r->fact_key[i], r->fact_val[i]);
	fputs("\nCEILINGS\nKind,Ceiling,Value,Unit,Kernel,ISA,Vector bits,Threads,"
	      "Work per repetition,Repetitions,Statistic,Clock,Note\n",
	      f);
	for (int i = 0; i < r->nceilings; i++) {
		const struct mtr_rl_ceiling *c = &r->ceilings[i];

		fprintf(f, "%s,", mtr_rl_kind_name(c->kind));
		cell(f, c->name);
		fputc(',', f);
		num(f, c->value);
		fprintf(f, ",%s", units[c->kind]);
		for (int k = 0; k < MTR_RL_NDESC; k++) {
			fputc(',', f);
			cell(f, c->desc[k]);
		}
		fputc('\n', f);
	}
	fputs("\nCOUNTERS\nRole,Event,Value,Time enabled (ns),Time running (ns)\n", f);
	for (int i = 0; i < r->ncounters; i++) {
		const struct mtr_rl_counter *c = &r->counters[i];

		fprintf(f, "%s,", roles[c->role]);
		cell(f, c->event);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", c->value, c->enabled,
			c->running);
	}
	snprintf(buf, sizeof(buf), "%" PRIu64, r->elapsed_ns);
	fact(f, "Elapsed (ns)", buf);
	fputs("\nPOINT\n", f);
	mtr_rl_point(r, &p);
	if (r->missing[0])
		fact(f, "Point missing", r->missing);
	else if (!p.placed)
		fact(f, "Point missing", p.why);
	if (p.placed) {
		fprintf(f,
			"FLOPs:,%.17g\nDRAM bytes:,%.17g\nArithmetic intensity (FLOP/byte):,%.17g\n"
			"Performance (GFLOP/s):,%.17g\n",
			p.flops, p.dram_bytes, p.intensity, p.gflops);
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* ---- parsing ---- */

struct parser {
	struct mtr_roofline *r;
	int line;
	enum { SEC_FACTS, SEC_CEILINGS, SEC_COUNTERS, SEC_POINT } sec;
	bool have_format;
	int point_rows; /* lines of the POINT section: a file cut before them is damaged */
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3))) static int fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(ps->err, ps->errlen, "line %d: ", ps->line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < ps->errlen)
		vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int copy(struct parser *ps, char *dst, size_t size, const char *src, const char *what)
{
	if (strlen(src) >= size)
		return fail(ps, "%s is longer than %zu bytes", what, size - 1);
	memcpy(dst, src, strlen(src) + 1);
	return 0;
}

static int parse_u64(struct parser *ps, const char *s, uint64_t *out, const char *what)
{
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return fail(ps, "%s '%.40s' is not a whole number", what, s);
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno ? fail(ps, "%s '%.40s' is out of range", what, s) : 0;
}

static int parse_value(struct parser *ps, const char *s, double *out)
{
	char *end;

	if (!strcmp(s, "unknown") || !*s) {
		*out = NAN;
		return 0;
	}
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || !isfinite(*out) || *out < 0)
		return fail(ps, "value '%.40s' is not a number >= 0 (or 'unknown')", s);
	return 0;
}

static int pick(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

static int ceiling_row(struct parser *ps, char **c, int n)
{
	struct mtr_rl_ceiling ce;
	int k = pick(c[0], kinds, 3), ret;

	memset(&ce, 0, sizeof(ce));
	if (n != 4 + MTR_RL_NDESC)
		return fail(ps, "a ceiling has %d cells, not %d", n, 4 + MTR_RL_NDESC);
	if (ps->r->nceilings == MTR_RL_MAX_CEILINGS)
		return fail(ps, "more than %d ceilings", MTR_RL_MAX_CEILINGS), -E2BIG;
	ce.kind = (enum mtr_rl_kind)k;
	if (strcmp(c[3], units[k]))
		return fail(ps, "a %s ceiling is in %s, not '%.40s'", kinds[k], units[k], c[3]);
	ret = copy(ps, ce.name, sizeof(ce.name), c[1], "the ceiling's name");
	if (!ret)
		ret = parse_value(ps, c[2], &ce.value);
	for (int d = 0; !ret && d < MTR_RL_NDESC; d++)
		ret = copy(ps, ce.desc[d], sizeof(ce.desc[d]), c[4 + d], "a description cell");
	return ret ? ret : mtr_rl_add_ceiling(ps->r, &ce);
}

static int counter_row(struct parser *ps, char **c, int n)
{
	struct mtr_rl_counter co;
	int ret;

	memset(&co, 0, sizeof(co));
	if (n != 5)
		return fail(ps, "a counter has %d cells, not 5", n);
	if (ps->r->ncounters == MTR_RL_MAX_COUNTERS)
		return fail(ps, "more than %d counters", MTR_RL_MAX_COUNTERS), -E2BIG;
	co.role = (enum mtr_rl_role)pick(c[0], roles, 2);
	ret = copy(ps, co.event, sizeof(co.event), c[1], "the event");
	if (!ret)
		ret = parse_u64(ps, c[2], &co.value, "the value");
	if (!ret)
		ret = parse_u64(ps, c[3], &co.enabled, "time enabled");
	if (!ret)
		ret = parse_u64(ps, c[4], &co.running, "time running");
	if (!ret && co.running > co.enabled)
		ret = fail(ps, "time running (%" PRIu64 ") exceeds time enabled (%" PRIu64 ")",
			   co.running, co.enabled);
	return ret ? ret : mtr_rl_add_counter(ps->r, &co);
}

/* "Key:,value": the format line, the elapsed time, a missing point, or a fact. */
static int fact_row(struct parser *ps, char **c, int n)
{
	size_t klen = strlen(c[0]);
	char key[64];
	uint64_t v;
	int ret;

	if (n != 2)
		return fail(ps, "'%.40s' has %d cells, not 2", c[0], n);
	if (klen >= sizeof(key))
		return fail(ps, "a key is longer than %zu bytes", sizeof(key) - 1);
	memcpy(key, c[0], klen - 1);
	key[klen - 1] = '\0';
	if (!ps->have_format) {
		if (strcmp(key, "Roofline format"))
			return fail(
				ps,
				"not a roofline file (the first line is not 'Roofline format:,%d')",
				MTR_RL_FORMAT);
		ret = parse_u64(ps, c[1], &v, "the format");
		if (!ret && v != MTR_RL_FORMAT)
			ret = fail(ps, "format %" PRIu64 " is not the one this uprof reads (%d)", v,
				   MTR_RL_FORMAT);
		ps->have_format = !ret;
		return ret;
	}
	if (!strcmp(key, "Roofline format"))
		return fail(ps, "a second format line");
	if (!strcmp(key, "Elapsed (ns)"))
		return parse_u64(ps, c[1], &ps->r->elapsed_ns, "the elapsed time");
	if (!strcmp(key, "Point missing")) {
		ps->point_rows += ps->sec == SEC_POINT;
		return copy(ps, ps->r->missing, sizeof(ps->r->missing), c[1], "the reason");
	}
	if (ps->sec == SEC_POINT) {
		ps->point_rows++;
		return 0; /* the point's numbers: recomputed from the counters */
	}
	if (strlen(c[1]) >= sizeof(ps->r->fact_val[0]))
		return fail(ps, "the value of '%s' is too long", key);
	if (mtr_rl_add_fact(ps->r, key, c[1]))
		return fail(ps, "more than %d facts", MTR_RL_MAX_FACTS), -E2BIG;
	return 0;
}

static int one_line(struct parser *ps, const char *p, size_t len)
{
	char store[MAX_LINE + MAX_CELLS], *c[MAX_CELLS];
	int n;

	if (len && p[len - 1] == '\r')
		len--;
	if (!len)
		return 0;
	/* the writer drops CR and LF from cells (so a key of CRs would come back empty and
	 * the file would not read again): one inside a line is damage, not text */
	if (memchr(p, '\r', len))
		return fail(ps, "a carriage return inside the line");
	n = util_csv_split(p, len, store, c, MAX_CELLS);
	if (n < 0)
		return fail(ps, "more than %d cells or an unclosed quote", MAX_CELLS);
	if (n >= 1 && strlen(c[0]) > 1 && c[0][strlen(c[0]) - 1] == ':' && ps->sec != SEC_COUNTERS)
		return fact_row(ps, c, n);
	if (n >= 1 && strlen(c[0]) > 1 && c[0][strlen(c[0]) - 1] == ':' &&
	    !strcmp(c[0], "Elapsed (ns):"))
		return fact_row(ps, c, n);
	if (!ps->have_format)
		return fail(ps, "not a roofline file (the first line is not 'Roofline format:,%d')",
			    MTR_RL_FORMAT);
	if (n == 1 && !strcmp(c[0], "CEILINGS"))
		ps->sec = SEC_CEILINGS;
	else if (n == 1 && !strcmp(c[0], "COUNTERS"))
		ps->sec = SEC_COUNTERS;
	else if (n == 1 && !strcmp(c[0], "POINT"))
		ps->sec = SEC_POINT;
	else if (ps->sec == SEC_CEILINGS && !strcmp(c[0], "Kind"))
		return 0;
	else if (ps->sec == SEC_COUNTERS && !strcmp(c[0], "Role"))
		return 0;
	else if (ps->sec == SEC_CEILINGS && pick(c[0], kinds, 3) >= 0)
		return ceiling_row(ps, c, n);
	else if (ps->sec == SEC_COUNTERS && pick(c[0], roles, 2) >= 0)
		return counter_row(ps, c, n);
	else
		return fail(ps, "unexpected '%.40s'", c[0]);
	return 0;
}

int mtr_rl_parse(const char *buf, size_t len, struct mtr_roofline *out, char *err, size_t errlen)
{
	struct parser ps = { .r = out, .err = err, .errlen = errlen };
	size_t off = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (errlen)
		err[0] = '\0';
	if (len > MTR_RL_MAX_FILE) {
		snprintf(err, errlen, "the file is over %u bytes", MTR_RL_MAX_FILE);
		return -E2BIG;
	}
	while (!ret && off < len) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (buf + off)) : len - off;

		ps.line++;
		if (n > MAX_LINE) {
			fail(&ps, "longer than %d bytes", MAX_LINE);
			ret = -E2BIG;
			break;
		}
		if (memchr(buf + off, '\0', n))
			ret = fail(&ps, "a NUL byte");
		else
			ret = one_line(&ps, buf + off, n);
		off += n + (nl != NULL);
	}
	if (!ret && !ps.have_format) {
		ps.line = 1;
		ret = fail(&ps, "not a roofline file (no 'Roofline format:,%d' line)",
			   MTR_RL_FORMAT);
	}
	if (!ret && len && buf[len - 1] != '\n')
		ret = fail(&ps, "the file is cut (no newline at its end)");
	if (!ret && (ps.sec != SEC_POINT || !ps.point_rows))
		ret = fail(&ps, "the file is cut: it ends before its POINT section is complete");
	return ret;
}

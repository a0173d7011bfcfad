// SPDX-License-Identifier: MIT
/*
 * Tracefs format files, as the kernel prints them (kernel/trace/trace_events.c, f_show):
 *
 *   name: sched_switch
 *   ID: 372
 *   format:
 *   \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
 *   ...
 *   print fmt: "..."
 *
 * and the session's file of them (collect_ostrace.c writes it): a magic line, "key:
 * value" lines, then "system: S" before each format. Both are read as untrusted input:
 * lines bounded by the buffer, numbers range-checked, every count capped.
 */
#include "ostrace/ostrace.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Offsets and sizes past this are no tracepoint's (a record is at most a few KiB). */
#define MAX_OFFSET 65536

struct cursor {
	const char *p, *end;
	int line;
};

/* The next line (without its '\n') as [*s, *s + *n); false at the end. */
static bool next_line(struct cursor *c, const char **s, size_t *n)
{
	const char *nl;

	if (c->p >= c->end)
		return false;
	nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	*s = c->p;
	*n = (size_t)((nl ? nl : c->end) - c->p);
	c->p = nl ? nl + 1 : c->end;
	c->line++;
	return true;
}

__attribute__((format(printf, 4, 5))) static int fail(char *err, size_t errlen, int line,
						      const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!errlen)
		return -EINVAL;
	n = snprintf(err, errlen, "line %d: ", line);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

/* A decimal number of at most 19 digits in [s, s + n), nothing after but @stop or the end. */
static int parse_u64(const char *s, size_t n, uint64_t *v, size_t *used)
{
	uint64_t x = 0;
	size_t i = 0;

	while (i < n && s[i] == ' ')
		i++;
	if (i == n || s[i] < '0' || s[i] > '9')
		return -EINVAL;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (x > 999999999999999999ULL)
			return -ERANGE;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	if (used)
		*used = i;
	return 0;
}

/* "KEY:N;" at the start of [*s, *s + *n): N, and the cursor moved past it and its tabs. */
static int take_key(const char **s, size_t *n, const char *key, uint64_t *v)
{
	size_t k = strlen(key), used;

	while (*n && (**s == '\t' || **s == ' '))
		(*s)++, (*n)--;
	if (*n < k || memcmp(*s, key, k))
		return -EINVAL;
	if (parse_u64(*s + k, *n - k, v, &used) || k + used >= *n || (*s)[k + used] != ';')
		return -EINVAL;
	*s += k + used + 1;
	*n -= k + used + 1;
	return 0;
}

/* "\tfield:TYPE NAME[N];\toffset:O;\tsize:S;\tsigned:G;" into @fl. */
static int parse_field(const char *s, size_t n, struct ost_field *fl)
{
	const char *semi, *name, *bracket;
	uint64_t off, size, sign;
	size_t decl;

	while (n && (*s == '\t' || *s == ' '))
		s++, n--;
	if (!starts(s, n, "field:"))
		return -EINVAL;
	s += 6, n -= 6;
	semi = memchr(s, ';', n);
	if (!semi)
		return -EINVAL;
	decl = (size_t)(semi - s);
	/* the name is the declaration's last word, an array's [N] left out */
	bracket = memchr(s, '[', decl);
	if (bracket)
		decl = (size_t)(bracket - s);
	while (decl && s[decl - 1] == ' ')
		decl--;
	name = s + decl;
	while (name > s && name[-1] != ' ' && name[-1] != '*')
		name--;
	/* a type, then a name */
	if (name == s || name == s + decl || (size_t)(s + decl - name) >= sizeof(fl->name))
		return -EINVAL;
	memcpy(fl->name, name, (size_t)(s + decl - name));
	fl->name[s + decl - name] = 0;
	n -= (size_t)(semi + 1 - s);
	s = semi + 1;
	if (take_key(&s, &n, "offset:", &off) || take_key(&s, &n, "size:", &size) ||
	    take_key(&s, &n, "signed:", &sign))
		return -EINVAL;
	if (off > MAX_OFFSET || size > MAX_OFFSET || sign > 1)
		return -ERANGE;
	fl->offset = (uint32_t)off;
	fl->size = (uint32_t)size;
	fl->is_signed = sign;
	return 0;
}

static int field_index(const struct ost_format *f, const char *name)
{
	for (int i = 0; i < f->nfields; i++)
		if (!strcmp(f->fields[i].name, name))
			return i;
	return -1;
}

/* Which tracepoint it is, and where the fields the model reads are. */
static void classify(struct ost_format *f)
{
	static const struct {
		const char *system, *name;
		enum ost_tp_kind kind;
	} KNOWN[] = {
		{ "sched", "sched_switch", OST_TP_SWITCH },
		{ "sched", "sched_waking", OST_TP_WAKEUP },
		{ "sched", "sched_wakeup", OST_TP_WAKEUP }, /* sessions before sched_waking */
		{ "raw_syscalls", "sys_enter", OST_TP_SYS_ENTER },
		{ "raw_syscalls", "sys_exit", OST_TP_SYS_EXIT },
		{ "exceptions", "page_fault_user", OST_TP_PAGEFAULT },
	};

	f->kind = OST_TP_OTHER;
	f->f_probe_ip = field_index(f, "__probe_ip");
	/* collect --func's uprobe event: a group of uprof's own, named by its pid */
	if (!strncmp(f->system, "uprof_", 6) && f->f_probe_ip >= 0) {
		f->kind = OST_TP_FUNC;
		return;
	}
	for (size_t i = 0; i < sizeof(KNOWN) / sizeof(KNOWN[0]); i++)
		if (!strcmp(f->name, KNOWN[i].name) &&
		    (!f->system[0] || !strcmp(f->system, KNOWN[i].system)))
			f->kind = KNOWN[i].kind;
	f->f_prev_state = field_index(f, "prev_state");
	f->f_next_pid = field_index(f, "next_pid");
	f->f_pid = field_index(f, "pid");
	f->f_id = field_index(f, "id");
	f->f_ret = field_index(f, "ret");
	/* a tracepoint the model reads but without the fields it reads is one it cannot */
	if ((f->kind == OST_TP_SWITCH && f->f_prev_state < 0) ||
	    (f->kind == OST_TP_WAKEUP && f->f_pid < 0) ||
	    (f->kind == OST_TP_SYS_ENTER && f->f_id < 0) ||
	    (f->kind == OST_TP_SYS_EXIT && (f->f_id < 0 || f->f_ret < 0)))
		f->kind = OST_TP_OTHER;
}

/* One format from @c up to its "print fmt:" line (included) or the end. */
static int parse_format(struct cursor *c, struct ost_format *f, char *err, size_t errlen)
{
	const char *s;
	size_t n;
	bool have_name = false, have_id = false, have_print = false;

	while (next_line(c, &s, &n)) {
		if (starts(s, n, "name: ")) {
			if (n - 6 >= sizeof(f->name) || n == 6)
				return fail(err, errlen, c->line, "a name of %zu bytes", n - 6);
			memcpy(f->name, s + 6, n - 6);
			f->name[n - 6] = 0;
			have_name = true;
		} else if (starts(s, n, "ID: ")) {
			if (parse_u64(s + 4, n - 4, &f->id, NULL))
				return fail(err, errlen, c->line, "the ID is not a number");
			have_id = true;
		} else if (starts(s, n, "print fmt:")) {
			have_print = true;
			break;
		} else if (n && (s[0] == '\t' || s[0] == ' ')) {
			if (f->nfields >= OST_MAX_FIELDS)
				return fail(err, errlen, c->line, "more than %d fields",
					    OST_MAX_FIELDS);
			if (parse_field(s, n, &f->fields[f->nfields]))
				return fail(err, errlen, c->line,
					    "not a field:TYPE NAME; offset:N; size:N; signed:0|1; "
					    "line (or a number out of range)");
			f->nfields++;
		} else if (n && !starts(s, n, "format:")) {
			return fail(err, errlen, c->line, "'%.*s' is not a format file's line",
				    (int)(n < 40 ? n : 40), s);
		}
	}
	/* the kernel ends each with its print format: a file cut short has none */
	if (!have_name || !have_id || !have_print)
		return fail(err, errlen, c->line, "a format without its %s",
			    !have_name ? "name"
			    : !have_id ? "ID"
				       : "'print fmt:' line (cut short?)");
	classify(f);
	return 0;
}

int ost_format_parse(const char *buf, size_t len, struct ost_format *f, char *err, size_t errlen)
{
	struct cursor c = { buf, buf + len, 0 };

	memset(f, 0, sizeof(*f));
	if (errlen)
		err[0] = 0;
	return parse_format(&c, f, err, errlen);
}

const struct ost_field *ost_format_field(const struct ost_format *f, const char *name)
{
	int i = field_index(f, name);

	return i < 0 ? NULL : &f->fields[i];
}

int ost_field_int(const struct ost_field *fl, const void *raw, size_t len, int64_t *v)
{
	const unsigned char *p = raw;
	uint64_t x = 0;

	if (!fl || fl->offset > len || fl->size > len - fl->offset)
		return -EINVAL;
	switch (fl->size) {
	case 1: {
		uint8_t u = p[fl->offset];

		*v = fl->is_signed ? (int8_t)u : (int64_t)u;
		return 0;
	}
	case 2: {
		uint16_t u;

		memcpy(&u, p + fl->offset, 2);
		*v = fl->is_signed ? (int16_t)u : (int64_t)u;
		return 0;
	}
	case 4: {
		uint32_t u;

		memcpy(&u, p + fl->offset, 4);
		*v = fl->is_signed ? (int32_t)u : (int64_t)u;
		return 0;
	}
	case 8:
		memcpy(&x, p + fl->offset, 8);
		*v = (int64_t)x;
		return 0;
	default:
		return -EINVAL;
	}
}

/* "0xOFFSET<tab>MODULE<tab>NAME" (@n bytes) into the next of fm->funcs: 0, -E2BIG (too
 * many), -EINVAL. */
static int parse_func(struct ost_formats *fm, const char *s, size_t n)
{
	const char *tab1 = memchr(s, '\t', n), *tab2;
	struct ost_func *fn;
	size_t mlen, nlen;

	if (fm->nfuncs >= OST_MAX_FUNCS)
		return -E2BIG;
	if (!tab1)
		return -EINVAL;
	tab2 = memchr(tab1 + 1, '\t', n - (size_t)(tab1 + 1 - s));
	if (!tab2 || tab1 - s < 3 || s[0] != '0' || s[1] != 'x')
		return -EINVAL;
	fn = &fm->funcs[fm->nfuncs];
	mlen = (size_t)(tab2 - tab1 - 1);
	nlen = n - (size_t)(tab2 + 1 - s);
	if (!mlen || !nlen || mlen >= sizeof(fn->module) || nlen >= sizeof(fn->name))
		return -EINVAL;
	fn->offset = 0;
	for (const char *p = s + 2; p < tab1; p++) {
		int d = *p >= '0' && *p <= '9'	 ? *p - '0'
			: *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
						 : -1;

		if (d < 0 || fn->offset >> 60)
			return -EINVAL;
		fn->offset = fn->offset << 4 | (uint64_t)d;
	}
	memcpy(fn->module, tab1 + 1, mlen);
	fn->module[mlen] = 0;
	memcpy(fn->name, tab2 + 1, nlen);
	fn->name[nlen] = 0;
	fm->nfuncs++;
	return 0;
}

int ost_formats_parse(const char *buf, size_t len, struct ost_formats *fm, char *err, size_t errlen)
{
	struct cursor c = { buf, buf + len, 0 };
	size_t magic = strlen(OST_FORMATS_MAGIC), n;
	const char *s;
	uint64_t v;
	int ret;

	memset(fm, 0, sizeof(*fm));
	if (errlen)
		err[0] = 0;
	if (!next_line(&c, &s, &n) || n != magic || memcmp(s, OST_FORMATS_MAGIC, magic))
		return fail(err, errlen, 1,
			    "not a uprof tracepoint formats file (its first line "
			    "is not '" OST_FORMATS_MAGIC "')");
	fm->threshold_ns = OST_DEFAULT_THRESHOLD_NS;
	while (next_line(&c, &s, &n)) {
		if (starts(s, n, "threshold_ns: ")) {
			if (parse_u64(s + 14, n - 14, &fm->threshold_ns, NULL))
				return fail(err, errlen, c.line, "threshold_ns is not a number");
		} else if (starts(s, n, "max_threads: ")) {
			if (parse_u64(s + 13, n - 13, &fm->max_threads, NULL))
				return fail(err, errlen, c.line, "max_threads is not a number");
		} else if (starts(s, n, "events: ")) {
			if (parse_u64(s + 8, n - 8, &v, NULL) || v > 0xffff)
				return fail(err, errlen, c.line, "events is not a small number");
			fm->events = (unsigned)v;
		} else if (starts(s, n, "func: ")) {
			ret = parse_func(fm, s + 6, n - 6);
			if (ret)
				return fail(err, errlen, c.line,
					    ret == -E2BIG ? "more than %d functions"
							  : "not a func: 0xOFFSET<tab>MODULE<tab>NAME "
							    "line (or a name too long)",
					    OST_MAX_FUNCS);
		} else if (starts(s, n, "system: ")) {
			struct ost_format *f;

			if (fm->n >= OST_MAX_FORMATS)
				return fail(err, errlen, c.line, "more than %d tracepoints",
					    OST_MAX_FORMATS);
			f = &fm->f[fm->n];
			memset(f, 0, sizeof(*f));
			if (n - 8 >= sizeof(f->system) || n == 8)
				return fail(err, errlen, c.line, "a system name of %zu bytes",
					    n - 8);
			memcpy(f->system, s + 8, n - 8);
			f->system[n - 8] = 0;
			ret = parse_format(&c, f, err, errlen);
			if (ret)
				return ret;
			fm->n++;
		} else if (n && s[0] != '#') {
			return fail(err, errlen, c.line, "'%.*s' is neither a key nor 'system:'",
				    (int)(n < 40 ? n : 40), s);
		}
	}
	return 0;
}

const struct ost_format *ost_formats_find(const struct ost_formats *fm, uint64_t id)
{
	for (int i = 0; i < fm->n; i++)
		if (fm->f[i].id == id)
			return &fm->f[i];
	return NULL;
}

int ost_formats_func(const struct ost_formats *fm, const char *base, uint64_t offset)
{
	for (int i = 0; i < fm->nfuncs; i++) {
		const char *slash = strrchr(fm->funcs[i].module, '/');

		if (fm->funcs[i].offset == offset &&
		    !strcmp(slash ? slash + 1 : fm->funcs[i].module, base))
			return i;
	}
	return -1;
}

// SPDX-License-Identifier: MIT
/*
 * The option parser and --help generator of cli/options.h: one walk over a command's
 * table (shared groups spliced in by OPT_INCLUDE) serves both, so that what --help lists
 * is exactly what the parser takes.
 */
#include "cli/options.h"
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* An entry found in a table, with the offset of the state its offsets are relative to. */
struct hit {
	const struct cli_option *o;
	size_t base;
};

typedef bool visit_fn(const struct cli_option *o, size_t base, void *arg);

/* Calls @fn on each entry of @t (included tables in place) until it returns false. */
static bool walk(const struct cli_option *t, size_t base, visit_fn *fn, void *arg)
{
	for (; t->kind != CLI_OPTK_END; t++) {
		if (t->kind == CLI_OPTK_INCLUDE) {
			if (!walk(t->include, base + t->offset, fn, arg))
				return false;
		} else if (!fn(t, base, arg)) {
			return false;
		}
	}
	return true;
}

int cli_option_takes_value(const struct cli_option *o)
{
	switch (o->kind) {
	case CLI_OPTK_STRING:
	case CLI_OPTK_INT:
		return 1;
	case CLI_OPTK_CALLBACK:
	case CLI_OPTK_REFUSED:
		return !(o->flags & CLI_OPT_NOARG);
	default:
		return 0;
	}
}

/* ---- lookups ---- */

struct long_query {
	const char *name;
	size_t len;
	bool prefix;	   /* abbreviations too */
	struct hit exact;  /* the entry of that name */
	struct hit first;  /* the first entry it abbreviates */
	bool ambiguous;	   /* it abbreviates two entries that do different things */
	const char *other; /* the second of them */
};

/* Two names for one thing (--limit-data, --limit-size) make no ambiguity, as in getopt. */
static bool same_target(const struct cli_option *a, size_t abase, const struct cli_option *b,
			size_t bbase)
{
	return a->kind == b->kind && abase + a->offset == bbase + b->offset && a->fn == b->fn &&
	       a->data == b->data && a->what == b->what &&
	       (a->flags & CLI_OPT_NOARG) == (b->flags & CLI_OPT_NOARG);
}

static bool match_long(const struct cli_option *o, size_t base, void *arg)
{
	struct long_query *q = arg;

	if (!o->long_name || strncmp(o->long_name, q->name, q->len))
		return true;
	if (!o->long_name[q->len]) {
		q->exact = (struct hit){ o, base };
		return false;
	}
	if (!q->prefix)
		return true;
	if (!q->first.o)
		q->first = (struct hit){ o, base };
	else if (!q->ambiguous && !same_target(q->first.o, q->first.base, o, base)) {
		q->ambiguous = true;
		q->other = o->long_name;
	}
	return true;
}

const struct cli_option *cli_options_find_long(const struct cli_option *t, const char *name,
					       size_t len)
{
	struct long_query q = { .name = name, .len = len };

	walk(t, 0, match_long, &q);
	return q.exact.o;
}

struct short_query {
	int s;
	struct hit hit;
};

static bool match_short(const struct cli_option *o, size_t base, void *arg)
{
	struct short_query *q = arg;

	if (o->kind == CLI_OPTK_GROUP || o->short_name != q->s)
		return true;
	q->hit = (struct hit){ o, base };
	return false;
}

static struct hit find_short(const struct cli_option *t, int s)
{
	struct short_query q = { .s = s };

	if (s)
		walk(t, 0, match_short, &q);
	return q.hit;
}

const struct cli_option *cli_options_find_short(const struct cli_option *t, int s)
{
	return find_short(t, s).o;
}

/* ---- "did you mean" ---- */

/* Edits (insert, delete, replace, swap of neighbours) from @a to @b; both short. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[48][48];

	if (la > 46 || lb > 46)
		return SIZE_MAX;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

/* Near: @name starts with @word (3 letters or more), or at most a third of the letters
 * of the longer one are edited (and no more than 3). */
static size_t nearness(const char *name, const char *word)
{
	size_t lw = strlen(word), ln = strlen(name), d;

	if (lw >= 3 && !strncmp(name, word, lw))
		return 1;
	d = distance(name, word);
	if (d == SIZE_MAX || d > 3 || d * 3 > (lw > ln ? lw : ln))
		return SIZE_MAX;
	return d;
}

const char *cli_suggest_word(const char *const *names, size_t n, const char *word)
{
	const char *best = NULL;
	size_t bestd = SIZE_MAX;

	for (size_t i = 0; i < n; i++) {
		size_t d = nearness(names[i], word);

		if (d < bestd) {
			bestd = d;
			best = names[i];
		}
	}
	return best;
}

struct suggest_query {
	const char *word;
	const char *best;
	size_t bestd;
};

static bool suggest_visit(const struct cli_option *o, size_t base, void *arg)
{
	struct suggest_query *q = arg;
	size_t d;

	(void)base;
	if (!o->long_name || (o->flags & CLI_OPT_HIDDEN) || o->kind == CLI_OPTK_GROUP)
		return true;
	d = nearness(o->long_name, q->word);
	if (d < q->bestd) {
		q->bestd = d;
		q->best = o->long_name;
	}
	return true;
}

const char *cli_options_suggest(const struct cli_option *t, const char *word)
{
	struct suggest_query q = { .word = word, .bestd = SIZE_MAX };

	walk(t, 0, suggest_visit, &q);
	return q.best;
}

/* ---- parsing ---- */

/* One line on stderr, as cli_usage_error() says it: exit code 2. */
static int __attribute__((format(printf, 2, 3)))
usage_error(const struct cli_command *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "uprof %s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; see 'uprof %s --help'\n", c->name);
	return EXIT_USAGE;
}

static int unknown_long(const struct cli_command *c, const char *name, size_t len)
{
	char word[128];
	const char *near;

	snprintf(word, sizeof(word), "%.*s", (int)len, name);
	near = cli_options_suggest(c->options, word);
	if (near)
		return usage_error(c, "unknown option '--%s' (did you mean --%s?)", word, near);
	return usage_error(c, "unknown option '--%s'", word);
}

/* --name or -x, for messages */
static const char *option_name(const struct cli_option *o, char *buf, size_t len)
{
	if (o->long_name)
		snprintf(buf, len, "--%s", o->long_name);
	else
		snprintf(buf, len, "-%c", o->short_name);
	return buf;
}

static int parse_int(const struct cli_option *o, const char *arg, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v < o->data || v > o->max)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* Option @h with value @arg (NULL: none): -1 to go on, or an exit code. */
static int apply(const struct cli_command *c, void *state, struct hit h, const char *arg)
{
	const struct cli_option *o = h.o;
	char *at = (char *)state + h.base + o->offset;
	char name[80];

	switch (o->kind) {
	case CLI_OPTK_BOOL:
		*(bool *)at = true;
		return -1;
	case CLI_OPTK_STRING:
		*(const char **)at = arg;
		return -1;
	case CLI_OPTK_INT:
		if (!parse_int(o, arg, (int *)at))
			return -1;
		fprintf(stderr, "uprof %s: %s '%s' is not %s\n", c->name,
			option_name(o, name, sizeof(name)), arg, o->what);
		return EXIT_USAGE;
	case CLI_OPTK_CALLBACK:
		return o->fn(o, arg, (char *)state + h.base, c->name);
	case CLI_OPTK_REFUSED:
		if (o->accept && arg && !strcmp(arg, o->accept))
			return -1;
		fprintf(stderr, "uprof %s: --%s%s%s: %s\n", c->name, o->long_name, arg ? " " : "",
			arg ? arg : "", o->what);
		return EXIT_USAGE;
	case CLI_OPTK_HELP:
		cli_options_help(c, stdout);
		return 0;
	default:
		return -1;
	}
}

/* Where the parse is: argv, the next word, and the option words seen (for permuting). */
struct cursor {
	int argc;
	char **argv;
	int i;
	char **opts; /* option words and their values, in order */
	int nopts;
};

/* The value of an option whose word ended: the next word, whatever it is; NULL if none. */
static const char *next_value(struct cursor *k)
{
	if (k->i + 1 >= k->argc)
		return NULL;
	k->i++;
	k->opts[k->nopts++] = k->argv[k->i];
	return k->argv[k->i];
}

static int parse_long(const struct cli_command *c, void *state, struct cursor *k)
{
	const char *word = k->argv[k->i], *name = word + 2, *eq = strchr(name, '=');
	struct long_query q = { .name = name, .prefix = true };
	const char *arg = eq ? eq + 1 : NULL;
	char full[128];
	struct hit h;

	q.len = eq ? (size_t)(eq - name) : strlen(name);
	if (!q.len) /* "--=x" */
		return unknown_long(c, name, q.len);
	walk(c->options, 0, match_long, &q);
	h = q.exact.o ? q.exact : q.first;
	if (!q.exact.o && q.ambiguous) {
		snprintf(full, sizeof(full), "%.*s", (int)q.len, name);
		fprintf(stderr,
			"uprof %s: option '--%s' is ambiguous (--%s, --%s, ...); see "
			"'uprof %s --help'\n",
			c->name, full, q.first.o->long_name, q.other, c->name);
		return EXIT_USAGE;
	}
	if (!h.o)
		return unknown_long(c, name, q.len);
	if (!cli_option_takes_value(h.o) && arg)
		return usage_error(c, "option '--%s' takes no value", h.o->long_name);
	if (cli_option_takes_value(h.o) && !arg && !(arg = next_value(k)))
		return usage_error(c, "option '%s' needs a value", word);
	return apply(c, state, h, arg);
}

/* -abc: flags, the last of which may take the rest of the word or the next one. */
static int parse_short(const struct cli_command *c, void *state, struct cursor *k)
{
	const char *word = k->argv[k->i];
	char flag[3] = "-?";

	for (const char *p = word + 1; *p; p++) {
		struct hit h = find_short(c->options, (unsigned char)*p);
		const char *arg = NULL;
		int ret;

		flag[1] = *p;
		if (!h.o)
			return usage_error(c, "unknown option '%s'", flag);
		if (cli_option_takes_value(h.o)) {
			arg = p[1] ? p + 1 : next_value(k);
			if (!arg)
				return usage_error(c, "option '%s' needs a value", flag);
		}
		ret = apply(c, state, h, arg);
		if (ret >= 0 || arg)
			return ret;
	}
	return -1;
}

/* GNU getopt's order: the options, then "--" if given, then the operands in order. */
static void permute(struct cursor *k, char **operands, int noperands, bool dashdash, int *first)
{
	int w = 1;

	/* argv[1..i) holds exactly these words; the words from i on stay where they are */
	for (int j = 0; j < k->nopts; j++)
		k->argv[w++] = k->opts[j];
	if (dashdash)
		k->argv[w++] = "--";
	*first = w;
	for (int j = 0; j < noperands; j++)
		k->argv[w++] = operands[j];
}

int cli_options_parse(const struct cli_command *c, void *state, int argc, char **argv, int *first)
{
	struct cursor k = { .argc = argc, .argv = argv, .i = 1 };
	char **operands = calloc((size_t)argc + 1, sizeof(char *));
	bool dashdash = false;
	int noperands = 0, ret = -1;

	k.opts = calloc((size_t)argc + 1, sizeof(char *));
	if (!operands || !k.opts) {
		fprintf(stderr, "uprof %s: out of memory\n", c->name);
		ret = 1;
		goto out;
	}
	while (k.i < argc && ret < 0) {
		const char *a = argv[k.i];

		if (!strcmp(a, "--")) {
			dashdash = true;
			k.i++;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if (c->flags & CLI_STOP_AT_OPERAND)
				break;
			operands[noperands++] = argv[k.i++];
			continue;
		}
		k.opts[k.nopts++] = argv[k.i];
		ret = a[1] == '-' ? parse_long(c, state, &k) : parse_short(c, state, &k);
		k.i++;
	}
	if (ret >= 0)
		goto out;
	if (c->flags & CLI_STOP_AT_OPERAND)
		*first = k.i;
	else
		permute(&k, operands, noperands, dashdash, first);
out:
	free(operands);
	free(k.opts);
	return ret;
}

/* ---- --help ---- */

#define HELP_WIDTH 80 /* columns a help line fills at most, where it is ours to break */

struct help_walk {
	const struct cli_command *c;
	FILE *f;
};

/* @text's lines, the first after what is already on the line (padded to the column),
 * the others indented to it; " (repeatable)" after the last when @repeatable. */
static void help_lines(FILE *f, int column, int used, const char *text, bool repeatable)
{
	const char *p = text;
	size_t n;

	if (used + 1 > column) {
		fputc('\n', f);
		used = 0;
	}
	fprintf(f, "%*s", column - used, "");
	for (;;) {
		n = strcspn(p, "\n");
		fwrite(p, 1, n, f);
		p += n;
		if (!*p || !p[1])
			break;
		fprintf(f, "\n%*s", column, "");
		p++;
	}
	/* on the last line while the line stays within HELP_WIDTH, else on its own */
	if (repeatable && column + n + strlen(" (repeatable)") > HELP_WIDTH)
		fprintf(f, "\n%*s(repeatable)", column, "");
	else if (repeatable)
		fputs(" (repeatable)", f);
	fputc('\n', f);
}

static bool help_visit(const struct cli_option *o, size_t base, void *arg)
{
	struct help_walk *w = arg;
	char left[160];
	int n = 0;

	(void)base;
	if (o->kind == CLI_OPTK_GROUP) {
		fprintf(w->f, "%s%s\n", o->help[0] ? "\n" : "", o->help);
		return true;
	}
	if ((o->flags & CLI_OPT_HIDDEN) || !o->help)
		return true;
	if (o->short_name)
		n = snprintf(left, sizeof(left), "  -%c%s", o->short_name,
			     o->long_name ? ", " : "");
	else
		n = snprintf(left, sizeof(left), "%s",
			     w->c->flags & CLI_ALIGN_LONG ? "      " : "  ");
	if (o->long_name)
		n += snprintf(left + n, sizeof(left) - (size_t)n, "--%s", o->long_name);
	if (o->argh)
		n += snprintf(left + n, sizeof(left) - (size_t)n, " %s", o->argh);
	fputs(left, w->f);
	help_lines(w->f, w->c->column, n, o->help, o->flags & CLI_OPT_REPEATABLE);
	if (o->help_more)
		o->help_more(w->f, w->c->column);
	return true;
}

void cli_options_help(const struct cli_command *c, FILE *f)
{
	struct help_walk w = { c, f };

	fputs(c->usage, f);
	if (c->intro)
		fprintf(f, "\n%s", c->intro);
	fputc('\n', f);
	walk(c->options, 0, help_visit, &w);
	if (c->outro)
		fprintf(f, "\n%s", c->outro);
}

/* SPDX-License-Identifier: MIT */
/*
 * cli/options.c: each command's options as one declarative table (the idea of git's
 * parse-options and perf's OPT_* macros, our own code). The table is what the parser
 * reads and what --help prints, so the two cannot disagree.
 *
 * An entry stores its value at an offset into the state the command passes to the
 * parser (a bool, a const char * borrowed from argv, an int), or hands the value to a
 * callback. OPT_INCLUDE splices a table declared once (report's -i, the path options,
 * --time-filter, --host, ...) into several commands; its offsets are relative to a
 * struct the including command embeds at a given offset of its own state.
 *
 * Parsing is GNU getopt_long's: -x, -xVALUE, -x VALUE, bundled flags (-qg), --long=V,
 * --long V, an unambiguous prefix of a long name (--inp), `--` ends the options. A
 * value is the next word whatever it looks like (-o -x: -x is -o's value). Operands
 * either end the options (CLI_STOP_AT_OPERAND: collect's program keeps its own options)
 * or are moved after them, in order, as GNU getopt permutes argv.
 */
#ifndef UPROF_CLI_OPTIONS_H
#define UPROF_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum cli_opt_kind {
	CLI_OPTK_END,
	CLI_OPTK_GROUP,	   /* a heading in --help; nothing to parse */
	CLI_OPTK_BOOL,	   /* sets a bool to true */
	CLI_OPTK_STRING,   /* a const char * (borrowed from argv); the last one wins */
	CLI_OPTK_INT,	   /* a decimal int from min to max, else "'<v>' is not <what>" */
	CLI_OPTK_CALLBACK, /* the value (NULL for CLI_OPT_NOARG) goes to a function */
	CLI_OPTK_REFUSED,  /* uProf's option that uprof answers with a reason, exit 2 */
	CLI_OPTK_HELP,	   /* -h, --help: prints the command's help, exit 0 */
	CLI_OPTK_INCLUDE,  /* the entries of another table (a shared group) */
};

enum cli_opt_flags {
	CLI_OPT_NOARG = 1 << 0,	     /* a callback or refused option that takes no value */
	CLI_OPT_HIDDEN = 1 << 1,     /* parsed, not listed in --help (aliases, uProf's names) */
	CLI_OPT_REPEATABLE = 1 << 2, /* --help says "(repeatable)" */
};

struct cli_option;
/* A callback: @arg is the value (NULL for CLI_OPT_NOARG), @state the command's state
 * (for an included table, the embedded struct), @cmd the command's name for messages.
 * Returns -1 to go on, or the exit code of the message it said. */
typedef int cli_opt_fn(const struct cli_option *opt, const char *arg, void *state, const char *cmd);

struct cli_option {
	enum cli_opt_kind kind;
	int short_name;	       /* 'x', or 0 */
	const char *long_name; /* "name" without dashes, or NULL */
	size_t offset;	       /* of the value in the state (BOOL, STRING, INT, INCLUDE) */
	const char *argh;      /* the value's name in --help: "<dir>" */
	const char *help;      /* lines separated by '\n', indented by --help */
	unsigned flags;
	cli_opt_fn *fn;	    /* CALLBACK */
	intptr_t data;	    /* CALLBACK: the callback's own (which list); INT: min */
	intptr_t max;	    /* INT: max */
	const char *what;   /* INT: "a row count (0 = all)"; REFUSED: the reason */
	const char *accept; /* REFUSED: the one value taken silently (--category cpu) */
	const struct cli_option *include;	/* INCLUDE */
	void (*help_more)(FILE *f, int column); /* extra --help lines after this option's */
};

#define OPT_END() \
	{ \
		.kind = CLI_OPTK_END \
	}
#define OPT_GROUP(h) \
	{ \
		.kind = CLI_OPTK_GROUP, .help = (h) \
	}
#define OPT_BOOL(s, l, type, field, h) \
	{ \
		.kind = CLI_OPTK_BOOL, .short_name = (s), .long_name = (l), \
		.offset = offsetof(type, field), .help = (h) \
	}
#define OPT_STRING(s, l, type, field, a, h) \
	{ \
		.kind = CLI_OPTK_STRING, .short_name = (s), .long_name = (l), \
		.offset = offsetof(type, field), .argh = (a), .help = (h) \
	}
#define OPT_INT(s, l, type, field, a, lo, hi, w, h) \
	{ \
		.kind = CLI_OPTK_INT, .short_name = (s), .long_name = (l), \
		.offset = offsetof(type, field), .argh = (a), .help = (h), .data = (lo), \
		.max = (hi), .what = (w) \
	}
#define OPT_CALLBACK(s, l, a, h, f, d) \
	{ \
		.kind = CLI_OPTK_CALLBACK, .short_name = (s), .long_name = (l), .argh = (a), \
		.help = (h), .fn = (f), .data = (d) \
	}
#define OPT_CALLBACK_NOARG(s, l, h, f, d) \
	{ \
		.kind = CLI_OPTK_CALLBACK, .short_name = (s), .long_name = (l), .help = (h), \
		.flags = CLI_OPT_NOARG, .fn = (f), .data = (d) \
	}
/* uProf's option refused with @why; @accepted: the one value taken (or NULL) */
#define OPT_REFUSED(s, l, a, why, accepted) \
	{ \
		.kind = CLI_OPTK_REFUSED, .short_name = (s), .long_name = (l), .argh = (a), \
		.flags = CLI_OPT_HIDDEN | ((a) ? 0 : CLI_OPT_NOARG), .what = (why), \
		.accept = (accepted) \
	}
#define OPT_HELP() \
	{ \
		.kind = CLI_OPTK_HELP, .short_name = 'h', .long_name = "help", .help = "this text" \
	}
/* the shared table @t, its state a @field of @type */
#define OPT_INCLUDE(t, type, field) \
	{ \
		.kind = CLI_OPTK_INCLUDE, .offset = offsetof(type, field), .include = (t) \
	}
/* the shared table @t over the same state */
#define OPT_INCLUDE_SAME(t) \
	{ \
		.kind = CLI_OPTK_INCLUDE, .offset = 0, .include = (t) \
	}

enum cli_cmd_flags {
	CLI_STOP_AT_OPERAND = 1 << 0, /* the first operand ends the options (collect, pcm) */
	CLI_ALIGN_LONG = 1 << 1,      /* --help indents a long-only option as if it had -x, */
};

/* A command as its help shows it: usage lines, what it does, the options, the rest. */
struct cli_command {
	const char *name;
	const char *usage; /* "usage: uprof x ...\n" (whole lines) */
	const char *intro; /* paragraphs after it, or NULL */
	const char *outro; /* after the options, or NULL */
	const struct cli_option *options;
	int column; /* where each option's help starts */
	unsigned flags;
};

/*
 * Parse @argv (@argc words, argv[0] the command's name) into @state. Returns -1 with
 * *@first the index of the first operand (argv permuted unless CLI_STOP_AT_OPERAND),
 * else an exit code: 0 after --help, 2 after one line on stderr for an unknown option
 * (with "did you mean" when a name is near), a missing or unwanted value, or the exit
 * code a callback returned.
 */
int cli_options_parse(const struct cli_command *c, void *state, int argc, char **argv, int *first);
/* The help text of @c into @f. */
void cli_options_help(const struct cli_command *c, FILE *f);

/* Lookups for `uprof profile`, which sorts options between two commands: the entry of
 * table @t with long name @name (@len bytes, exact) or short name @s; NULL if none. */
const struct cli_option *cli_options_find_long(const struct cli_option *t, const char *name,
					       size_t len);
const struct cli_option *cli_options_find_short(const struct cli_option *t, int s);
/* Whether @o takes a value. */
int cli_option_takes_value(const struct cli_option *o);

/* The visible long name of @t nearest to @word (a prefix of it, or at most a third of
 * its letters edited); NULL if none is near. For options and for command names. */
const char *cli_options_suggest(const struct cli_option *t, const char *word);
const char *cli_suggest_word(const char *const *names, size_t n, const char *word);

/* uProf's log options (collect, report, translate; cli/log.c), and collect's
 * --wait-for-signal (cli/collect_compat.c). */
extern const struct cli_option cli_log_options[];
extern const struct cli_option cli_collect_signal_options[];
/* uProf's options no part of uprof builds, refused with the reason (cli/uprof_refused.c):
 * spliced into the commands' tables with OPT_INCLUDE_SAME */
extern const struct cli_option cli_uprof_refused_collect_options[];
extern const struct cli_option cli_refused_report_only_options[];
extern const struct cli_option cli_refused_info_options[];
extern const struct cli_option cli_compat_compare_options[];
extern const struct cli_option cli_refused_pcm_options[]; /* cli/pcm_refused.c */

#endif

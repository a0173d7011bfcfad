/* SPDX-License-Identifier: MIT */
/*
 * lib/symbols internal: perf's JIT symbol maps, /tmp/perf-<pid>.map. A JIT (V8, the JVM
 * with perf-map-agent, CPython 3.12's perf trampolines, LuaJIT...) writes one line per
 * piece of code it generated, "START SIZE name" with START and SIZE in hex; perf and
 * uprof read it at report time to name samples in the process's anonymous executable
 * memory. Used by model.c (which mappings it names) and symtab.c (the names).
 */
#ifndef UPROF_REPORT_PERFMAP_H
#define UPROF_REPORT_PERFMAP_H

#include "symbols/symbols.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Bounds on a file any user of the machine may have written. */
#define RPT_PERFMAP_MAX_BYTES (256u << 20) /* a larger file is refused (-EFBIG) */
#define RPT_PERFMAP_MAX_NAME 1024	   /* longer names are cut */

struct rpt_perfmap_sym {
	uint64_t start, end; /* absolute addresses in the process; end exclusive */
	const char *name;    /* points into rpt_perfmap.names */
};

/* Embedded in its owner; zero-initialise, then parse or read, then release. */
struct rpt_perfmap {
	struct rpt_perfmap_sym *syms; /* sorted by start; at one start, the last line wins */
	size_t nsyms;
	char *names;	    /* the names, each NUL-terminated (syms point into it) */
	uint64_t malformed; /* lines skipped: no "START SIZE name", size 0, or wrapping */
};

/*
 * Parse @len bytes of perf-map text at @buf (borrowed, not NUL-terminated). A line
 * that does not parse is skipped and counted; a name runs to the end of its line (it
 * may hold spaces) without its trailing blanks. 0 or -ENOMEM; replaces any earlier
 * contents.
 */
int rpt_perfmap_parse(struct rpt_perfmap *pm, const char *buf, size_t len);

/*
 * Read and parse @path (borrowed). The file may have been planted by another user of
 * the machine (/tmp is everyone's), so it is opened O_NOFOLLOW|O_NONBLOCK (a symlink or
 * a FIFO is refused, never followed or waited on) and must be a regular file owned by
 * @owner or root: else -EPERM (not ours), -ELOOP (a symlink), -EINVAL (not a regular
 * file), -EFBIG (over RPT_PERFMAP_MAX_BYTES), -errno from open/read, -ENOMEM.
 */
int rpt_perfmap_read(struct rpt_perfmap *pm, const char *path, uid_t owner);

/*
 * Open @path, a file another user may have planted, as rpt_perfmap_read() does: with
 * O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC, a regular file owned by @owner or root, at most @max
 * bytes. The fd (the caller closes it), its size in *@size; or -EPERM, -ELOOP, -EINVAL,
 * -EFBIG as above, -errno from open/fstat. The one home of these checks (jitdump.c too).
 */
int rpt_perfmap_open(const char *path, uid_t owner, uint64_t max, uint64_t *size);

/* Sort @pm->syms (their names already pointers) by start, dropping all but the last
 * entry at each start (the JIT's latest code there). 0 or -ENOMEM. */
int rpt_perfmap_sort(struct rpt_perfmap *pm);

/* The symbol holding @addr, or NULL. */
const struct rpt_perfmap_sym *rpt_perfmap_find(const struct rpt_perfmap *pm, uint64_t addr);

/* Free the contents; safe on a zeroed or already released map. */
void rpt_perfmap_release(struct rpt_perfmap *pm);

#endif

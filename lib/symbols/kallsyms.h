/* SPDX-License-Identifier: MIT */
/*
 * lib/symbols internal: the kernel's symbol list ("addr type name [module]" lines, as in
 * /proc/kallsyms), sorted once so that a lookup is one binary search. Used by symtab.c.
 */
#ifndef UPROF_REPORT_KALLSYMS_H
#define UPROF_REPORT_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

struct rpt_ksym {
	uint64_t addr;
	const char *name; /* points into rpt_ksyms.names */
};

/* Embedded in its owner; zero-initialise, then parse or load, then release. */
struct rpt_ksyms {
	struct rpt_ksym *syms; /* sorted by addr, one symbol per address */
	size_t nsyms;
	char *names; /* the names, each NUL-terminated (syms point into it) */
};

/*
 * Parse @len bytes of kallsyms text at @buf (borrowed, not NUL-terminated). Lines that
 * do not parse, undefined symbols and zero addresses (what an unprivileged reader sees)
 * are skipped, so a file of zeros yields an empty table. 0 or -ENOMEM; replaces any
 * earlier contents.
 */
int rpt_ksyms_parse(struct rpt_ksyms *ks, const char *buf, size_t len);

/* Read and parse the file @path (borrowed). 0, -errno from open/read, or -ENOMEM. */
int rpt_ksyms_load(struct rpt_ksyms *ks, const char *path);

/* The symbol containing @addr (the nearest one at or below it), or NULL; an address in a
 * function's padding symbol (__pfx_<fn>, __cfi_<fn>) is that function's, which follows. */
const struct rpt_ksym *rpt_ksyms_find(const struct rpt_ksyms *ks, uint64_t addr);

/* Free the contents; safe on a zeroed or already released table. */
void rpt_ksyms_release(struct rpt_ksyms *ks);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * lib/symbols internal: where functions start and end according to a module's call frame
 * information (.eh_frame, else .debug_frame), for addresses no symbol covers (stripped
 * files). Each FDE describes one function's code range; they are read once into one
 * sorted array, so that a lookup is one binary search. Used by symtab.c.
 */
#ifndef UPROF_REPORT_FDES_H
#define UPROF_REPORT_FDES_H

#include "symbols/symbols.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Add the FDEs of the CFI section of @len bytes at @buf (borrowed), loaded at @vaddr,
 * read as .eh_frame when @eh_frame (else .debug_frame); @e_ident is the file's ELF
 * identification (class, byte order). Entries that do not parse, or whose pointer
 * encoding is not one an FDE of a linked file uses (absolute or pc-relative, 2/4/8
 * bytes), are skipped. 0 or -ENOMEM; call rpt_fdes_sort() after the last one.
 */
int rpt_fdes_parse(struct rpt_fdes *f, const unsigned char *e_ident, const void *buf, size_t len,
		   uint64_t vaddr, bool eh_frame);

/* Sort what was parsed; rpt_fdes_find() needs it. */
void rpt_fdes_sort(struct rpt_fdes *f);

#endif

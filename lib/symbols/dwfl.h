/* SPDX-License-Identifier: MIT */
/*
 * lib/symbols/dwfl.c: the libdwfl callbacks of every Dwfl report makes (symbols in
 * symtab.c, inlined frames in inline.c, unwinding in lib/unwind/unwind.c), declared
 * once so that they find separate debuginfo the same way.
 */
#ifndef UPROF_REPORT_DWFL_H
#define UPROF_REPORT_DWFL_H

#include "symbols/symbols.h"

#include <elfutils/libdwfl.h>
#include <stddef.h>

/* The same for a module held in memory (the vDSO): its userdata points at a struct
 * rpt_dwfl_image, read with elf_memory; libdwfl ends the Elf, the caller frees @buf. */
struct rpt_dwfl_image {
	char *buf;
	size_t len;
};
extern const Dwfl_Callbacks rpt_dwfl_image_callbacks;

#endif

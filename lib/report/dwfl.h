/* SPDX-License-Identifier: MIT */
/*
 * lib/report/dwfl.c: the libdwfl callbacks of every Dwfl report makes (symbols in
 * symtab.c, inlined frames in inline.c, unwinding in unwind.c), declared once so that
 * they find separate debuginfo the same way.
 */
#ifndef UPROF_REPORT_DWFL_H
#define UPROF_REPORT_DWFL_H

#include <elfutils/libdwfl.h>
#include <stddef.h>

/* Modules come from dwfl_report_elf on files report opened and checked; separate
 * debuginfo is found in libdwfl's standard places (build id, .debug, /usr/lib/debug). */
extern const Dwfl_Callbacks rpt_dwfl_file_callbacks;

/* The same for a module held in memory (the vDSO): its userdata points at a struct
 * rpt_dwfl_image, read with elf_memory; libdwfl ends the Elf, the caller frees @buf. */
struct rpt_dwfl_image {
	char *buf;
	size_t len;
};
extern const Dwfl_Callbacks rpt_dwfl_image_callbacks;

#endif

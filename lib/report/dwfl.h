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

struct rpt_locator;

/* Modules come from rpt_dwfl_report_elf on files report opened and checked; separate
 * debuginfo is looked for under the locator's --symbol-path directories, then in
 * libdwfl's standard places (build id, .debug, /usr/lib/debug) and, when DEBUGINFOD_URLS
 * is set, from debuginfod (libdwfl asks it through libdebuginfod). */
extern const Dwfl_Callbacks rpt_dwfl_file_callbacks;

/* dwfl_report_elf of @file as module @name at @base, whose debuginfo is then looked for
 * under @loc's --symbol-path (borrowed: it must outlive @dwfl; NULL: none). */
Dwfl_Module *rpt_dwfl_report_elf(Dwfl *dwfl, const struct rpt_locator *loc, const char *name,
				 const char *file, GElf_Addr base);

/* The same for a module held in memory (the vDSO): its userdata points at a struct
 * rpt_dwfl_image, read with elf_memory; libdwfl ends the Elf, the caller frees @buf. */
struct rpt_dwfl_image {
	char *buf;
	size_t len;
};
extern const Dwfl_Callbacks rpt_dwfl_image_callbacks;

#endif

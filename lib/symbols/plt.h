/* SPDX-License-Identifier: MIT */
/*
 * lib/symbols internal: names for the PLT's stubs, which no symbol table names, made the
 * way perf makes them ("malloc@plt"): the i-th relocation of .rela.plt fills the i-th
 * stub, in .plt.sec where the file has one (IBT), else in .plt after its header; a stub
 * of .plt.got is named by the GOT slot it jumps through. Only
 * x86-64's layout is known (16-byte stubs and header); other files get no names. Used by
 * symtab.c.
 */
#ifndef UPROF_REPORT_PLT_H
#define UPROF_REPORT_PLT_H

#include <stdint.h>

struct Elf;

/*
 * Call @fn for each stub of @elf (borrowed) that a relocation names: its
 * link-time address, size, and the name of the function it jumps to (borrowed from
 * @elf's string table, without "@plt"). Stops at the first nonzero return of @fn and
 * returns it; 0 otherwise (also for a file without a PLT, or one that does not parse).
 */
int rpt_plt_each(struct Elf *elf,
		 int (*fn)(void *arg, uint64_t addr, uint64_t size, const char *name), void *arg);

#endif

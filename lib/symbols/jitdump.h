/* SPDX-License-Identifier: MIT */
/*
 * lib/symbols internal: perf's jitdump files, jit-<pid>.dump (linux
 * tools/perf/Documentation/jitdump-specification.txt). A JIT (node --perf-prof, a JVM
 * agent, LLVM's PerfJITEventListener) writes one, in any directory, and maps it
 * PROT_EXEC once so that the kernel's MMAP record names it; each JIT_CODE_LOAD record
 * gives the address, size and name of code it generated, JIT_CODE_MOVE moves code.
 * The symbols go into a struct rpt_perfmap (perfmap.h), so that the rest of report
 * names code from a dump exactly as from a perf map. Used by model.c and symtab.c.
 */
#ifndef UPROF_REPORT_JITDUMP_H
#define UPROF_REPORT_JITDUMP_H

#include "symbols/perfmap.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RPT_JITDUMP_MAGIC 0x4A695444u	   /* "JiTD" in the writer's byte order */
#define RPT_JITDUMP_VERSION 1u		   /* newer versions are refused (-EPROTO) */
#define RPT_JITDUMP_MAX_BYTES (4ull << 30) /* a larger file is refused (-EFBIG) */
/* A CODE_LOAD whose name has no NUL within this many bytes is malformed; names longer
 * than RPT_PERFMAP_MAX_NAME are cut, as in perf maps. */
#define RPT_JITDUMP_MAX_NAME_SCAN 65536u

enum rpt_jitdump_record {
	RPT_JIT_CODE_LOAD = 0,
	RPT_JIT_CODE_MOVE = 1,
	RPT_JIT_CODE_DEBUG_INFO = 2,
	RPT_JIT_CODE_CLOSE = 3,
	RPT_JIT_CODE_UNWINDING_INFO = 4,
};

/* What a dump held besides its symbols. */
struct rpt_jitdump_stats {
	uint32_t pid, elf_mach; /* from the file header */
	bool swapped;		/* written in the other byte order */
	uint64_t loads, moves;	/* CODE_LOAD and CODE_MOVE records taken */
	uint64_t skipped;	/* other records (debug and unwinding info, close, unknown) */
	uint64_t malformed;	/* loads/moves skipped: short, no NUL in the name, size 0, wrap */
	uint64_t unmatched;	/* moves of a code_index no earlier load had */
	bool truncated;		/* the file ended inside a record (a JIT killed mid-write) */
	bool damaged;		/* a record's total_size was under its header: stopped there */
};

/*
 * Parse @len bytes of a jitdump at @buf (borrowed) into @pm (replacing its contents):
 * one symbol [code_addr, code_addr + code_size) per CODE_LOAD, named by its name; a
 * CODE_MOVE adds the latest load of its code_index at its new address (the old address
 * keeps the name, for samples taken before the move, until other code is loaded at it).
 * Byte order comes from the magic. A cut or damaged tail ends the symbols cleanly (see
 * @st, which may be NULL). 0; -EINVAL (no jitdump header or magic), -EPROTO (a version
 * above RPT_JITDUMP_VERSION), -ENOMEM.
 */
int rpt_jitdump_parse(struct rpt_perfmap *pm, struct rpt_jitdump_stats *st, const void *buf,
		      size_t len);

/*
 * Read @path (borrowed), opened and checked as perf maps are (rpt_perfmap_open(): no
 * symlink, FIFO, or file of a user other than @owner or root; at most
 * RPT_JITDUMP_MAX_BYTES), without holding its code bytes in memory. As
 * rpt_jitdump_parse(), plus rpt_perfmap_open()'s errors and -errno from read.
 */
int rpt_jitdump_read(struct rpt_perfmap *pm, struct rpt_jitdump_stats *st, const char *path,
		     uid_t owner);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * lib/unwind: user stacks copied with the samples (--call-graph dwarf) turned into
 * program counters, and the file that keeps them.
 *
 *   unwind.c       libdwfl's unwinder over the registers and stack bytes of one sample,
 *                  over the process's mappings as its caller gives them
 *   translated.c   SESSION/translated.bin, what `uprof translate` prepares so that later
 *                  reports skip the expensive part: the user stack of every sample
 *                  unwound, as the unwinder gave it. The file format: parse (untrusted
 *                  bytes) and serialize; no I/O. (lib/report/translated_cache.c is the
 *                  report's side: the file's key, reading it safely, checking it still
 *                  matches, using and writing it.)
 *
 * translated.bin's layout (this machine's byte order, as samples.data's registers are;
 * all sizes bytes):
 *
 *   preamble (32)  magic "UPROFTR\0", u32 version (RPT_TR_VERSION), u32 flags (0),
 *                  u64 body length, u64 FNV-1a 64 hash of the body
 *   body           key (48): u64 samples.data size, i64 its mtime s, i64 mtime ns,
 *                            u64 hash of its first 64 KiB, u64 hash of the options that
 *                            change an unwind (--bin-path, --symbol-path, build-id cache,
 *                            DEBUGINFOD_URLS, uprof's version), u64 scope (0: every
 *                            sample; else a hash of translate's --time-filter and -p)
 *                  u32 nfiles, u32 nentries
 *                  nfiles x file (48 + len): u16 len, u8 missing, u8 pad, u32 pad,
 *                            u64 size, i64 mtime s, i64 mtime ns, u64 inode, u64 device,
 *                            then len bytes of path (no NUL; relative = in the session)
 *                  nentries x entry (9 + 8n + ceil(n/8)), seq strictly increasing:
 *                            u32 seq (the sample's record number in samples.data),
 *                            u16 max (the frame limit it was unwound with), u16 n,
 *                            u8 end (enum rpt_unwind_end), n x u64 pc (leaf first),
 *                            then ceil(n/8) bytes of bits: bit i set = frame i exact
 *
 * Every count is checked against what remains before anything is allocated; a file that
 * does not parse is refused whole (-EBADMSG, @why says where), never half used.
 */
#ifndef UPROF_UNWIND_H
#define UPROF_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session/session.h"
#include "symbols/symbols.h"

/* ---- unwind.c: a libdwfl unwinder for the user stacks of one report ---- */

/* A file mapping of a process at a sample's time. */
struct rpt_unwind_map {
	uint64_t start, end, pgoff;
	int module;		      /* the caller's index of its file: the unwinder's cache key */
	const char *path;	      /* as recorded ("[vdso]": the session's copy) */
	const struct rpt_file_id *id; /* the file profiled */
};

/* A process: its mappings as of the sample's time. */
struct rpt_unwind_proc {
	int pid;
	const struct rpt_unwind_map *maps; /* borrowed */
	int nmaps;
};

struct rpt_unwinder;
/* Module files are read where @loc (borrowed, may be NULL: at their recorded paths)
 * finds them; the vDSO's from @vdso_file (borrowed; report's private copy of the session's
 * vdso.so, never a path into the session: docs/DESIGN.md §4), NULL: none. */
struct rpt_unwinder *rpt_unwinder_new(const char *vdso_file, const struct rpt_locator *loc);
void rpt_unwinder_free(struct rpt_unwinder *u);
/* Process @pid exited: its Dwfl (its modules' ELF and CFI, mapped once per process) is
 * closed now rather than when 32 others have pushed it out. */
void rpt_unwinder_forget(struct rpt_unwinder *u, int pid);

enum rpt_unwind_end { RPT_UNWIND_DONE, RPT_UNWIND_TRUNCATED, RPT_UNWIND_FAILED };

/*
 * Unwind the user stack of @s (REGS_USER + STACK_USER) in process @p (its mappings as of
 * the sample's time). Fills @pcs with up to @max program counters,
 * leaf first; @activation[i] is false for return addresses. Returns the count (0: nothing
 * to unwind), *@end says how it stopped. Never reads outside the sample.
 */
int rpt_unwind(struct rpt_unwinder *u, const struct rpt_unwind_proc *p, const struct ses_sample *s,
	       uint64_t *pcs, bool *activation, int max, enum rpt_unwind_end *end);

/*
 * One CFI step from the leaf of frame-pointer sample @s, whose registers and stack top
 * come from leafstack.data (@s->regs, @s->stack), in process @p. 1 with *@pc the leaf's pc
 * and *@ra its return address when the CFI at the pc says the frame is not built on the
 * frame pointer (a frameless leaf, a prologue, an epilogue): the kernel's walk from the
 * frame pointer skipped that caller. 0 when it is (the chain is right) or nothing is
 * above it; -ENOENT when it cannot tell (no usable CFI row, the slot outside the copy);
 * -EINVAL for a copy without the pc and stack pointer.
 */
int rpt_unwind_leaf(struct rpt_unwinder *u, const struct rpt_unwind_proc *p,
		    const struct ses_sample *s, uint64_t *pc, uint64_t *ra);

/* ---- unwind_share.c: the leaf steps' CFI rows read once for a job's ranks ---- */

struct rpt_unwind_share;
struct rpt_unwind_share *rpt_unwind_share_new(void);
void rpt_unwind_share_free(struct rpt_unwind_share *sh);
/* @u's leaf steps (rpt_unwind_leaf) take their CFI rows from @sh (borrowed, outlives @u),
 * its module files keyed by @host (the session's). 0 or -ENOMEM. */
int rpt_unwinder_share(struct rpt_unwinder *u, struct rpt_unwind_share *sh, const char *host);
/* What the share saved: module files opened, rows read from them and found again, and
 * steps it left to a rank's own Dwfl (no file, no .eh_frame row). */
struct rpt_unwind_share_counts {
	uint64_t files_read, rows_read, rows_shared, rows_theirs;
};
void rpt_unwind_share_counts(const struct rpt_unwind_share *sh, struct rpt_unwind_share_counts *c);

/* ---- translated.c: SESSION/translated.bin ---- */

#define RPT_TR_FILE "translated.bin"
#define RPT_TR_MAGIC "UPROFTR" /* with its NUL: 8 bytes */
#define RPT_TR_VERSION 1
#define RPT_TR_PREAMBLE 32
#define RPT_TR_MAX_FRAMES 1026 /* stacks.c's MAX_FRAMES */
#define RPT_TR_MAX_FILES (1u << 20)
#define RPT_TR_MAX_PATH 4095
#define RPT_TR_MAX_SIZE (1ULL << 32) /* a bigger file is refused, not read */

/* What a translation was made from. */
struct rpt_tr_key {
	uint64_t data_size;
	int64_t data_mtime_s, data_mtime_ns;
	uint64_t data_head; /* rpt_tr_hash of samples.data's first 64 KiB */
	uint64_t opts;	    /* rpt_tr_hash of the options that change an unwind */
	uint64_t scope;	    /* 0: every sample was unwound; else which (filters' hash) */
};

/* A module file (or the session's vDSO copy) the unwinder reads, as it was. */
struct rpt_tr_file {
	char *path; /* owned */
	bool missing;
	uint64_t size, ino, dev;
	int64_t mtime_s, mtime_ns;
};

/* A parsed translated.bin. */
struct rpt_tr {
	unsigned char *buf; /* the whole file, owned */
	size_t len;
	struct rpt_tr_key key;
	struct rpt_tr_file *files;
	uint32_t nfiles, nentries;
	uint32_t *seqs; /* sorted */
	size_t *offs;	/* of each entry in buf */
};

/* FNV-1a 64 of @len bytes, continuing @h (start with RPT_TR_HASH0). */
#define RPT_TR_HASH0 0xcbf29ce484222325ULL
uint64_t rpt_tr_hash(uint64_t h, const void *p, size_t len);

/*
 * Parse @len bytes at @buf (taken over: freed by rpt_tr_free, also on failure). 0 with
 * *@out, or -EBADMSG (not ours / damaged: @why says what), -EPROTO (another version:
 * @why names it) or -ENOMEM.
 */
int rpt_tr_parse(unsigned char *buf, size_t len, struct rpt_tr **out, char *why, size_t whylen);
void rpt_tr_free(struct rpt_tr *t);

/* The entry of sample @seq unwound with limit @max: its frame count (0 or more) with
 * @pcs, @act (room for @max each) and *@end filled; -1 when there is none. */
int rpt_tr_lookup(const struct rpt_tr *t, uint32_t seq, int max, uint64_t *pcs, bool *act,
		  int *end);

/* ---- writing ---- */

struct rpt_tr_writer {
	unsigned char *body; /* entries, in the order noted */
	size_t len, cap;
	uint32_t nentries, last_seq;
	bool sorted; /* noted in increasing seq order so far */
	bool failed; /* out of memory once: nothing is written */
};

/* Keep the unwind of sample @seq: @n frames of @pcs and @act, how it ended, its limit.
 * 0 or -ENOMEM (the writer is then failed). */
int rpt_tr_writer_note(struct rpt_tr_writer *w, uint32_t seq, int max, int n, const uint64_t *pcs,
		       const bool *act, int end);
void rpt_tr_writer_release(struct rpt_tr_writer *w);

/* The whole file into *@out (malloc'ed, *@len bytes): @key, @files, the noted entries
 * (sorted by seq here when they were noted out of order). 0, -ENOMEM, -EINVAL (a path
 * too long, two entries of one seq). */
int rpt_tr_serialize(struct rpt_tr_writer *w, const struct rpt_tr_key *key,
		     const struct rpt_tr_file *files, uint32_t nfiles, unsigned char **out,
		     size_t *len);

#endif

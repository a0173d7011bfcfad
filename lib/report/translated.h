/* SPDX-License-Identifier: MIT */
/*
 * lib/report internal: SESSION/translated.bin, what `uprof translate` prepares so that
 * later reports skip the expensive part: the user stack of every sample unwound from its
 * registers and stack copy (--call-graph dwarf), as the unwinder gave it.
 *
 *   translated.c        the file format: parse (untrusted bytes) and serialize; no I/O
 *   translated_cache.c  the report's side: what the file was made from (its key), reading
 *                       it safely, checking it still matches, using and writing it
 *
 * Layout (this machine's byte order, as samples.data's registers are; all sizes bytes):
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
#ifndef UPROF_REPORT_TRANSLATED_H
#define UPROF_REPORT_TRANSLATED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPT_TR_FILE "translated.bin"
#define RPT_TR_MAGIC "UPROFTR"	 /* with its NUL: 8 bytes */
#define RPT_TR_VERSION 1
#define RPT_TR_PREAMBLE 32
#define RPT_TR_MAX_FRAMES 1026	 /* stacks.c's MAX_FRAMES */
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
	uint32_t *seqs;	 /* sorted */
	size_t *offs;	 /* of each entry in buf */
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
int rpt_tr_writer_note(struct rpt_tr_writer *w, uint32_t seq, int max, int n,
		       const uint64_t *pcs, const bool *act, int end);
void rpt_tr_writer_release(struct rpt_tr_writer *w);

/* The whole file into *@out (malloc'ed, *@len bytes): @key, @files, the noted entries
 * (sorted by seq here when they were noted out of order). 0, -ENOMEM, -EINVAL (a path
 * too long, two entries of one seq). */
int rpt_tr_serialize(struct rpt_tr_writer *w, const struct rpt_tr_key *key,
		     const struct rpt_tr_file *files, uint32_t nfiles, unsigned char **out,
		     size_t *len);

/* ---- translated_cache.c: the report's use of the file ---- */

struct rpt;
/* Before samples.data is read: the key of samples.data, translated.bin loaded when it
 * matches (else the note says why), or kept for writing with opts.retranslate. 0 or
 * -ENOMEM. Undo with rpt_tr_close. */
int rpt_tr_open(struct rpt *r);
void rpt_tr_close(struct rpt *r);
/* The stored unwind of the sample being counted (r->tr_seq) at limit @max, as
 * rpt_unwind would give it: the frame count, or -1 (unwind it). */
int rpt_tr_unwound(struct rpt *r, int max, uint64_t *pcs, bool *act, int *end);
/* Keep an unwind for rpt_translated_write (with opts.retranslate; else nothing). */
void rpt_tr_keep(struct rpt *r, int max, int n, const uint64_t *pcs, const bool *act, int end);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * leafstack.data: the user registers and the top of the user stack of each frame-pointer
 * sample (-g, --call-graph fp), kept beside samples.data so that samples.data stays what
 * perf reads as a plain fp file (a HEADER_ATTR with REGS_USER/STACK_USER makes perf
 * unwind the copy itself and append it to the chain). Report takes one CFI step from the
 * leaf with them, and so gives a frameless leaf its caller back (lib/report/leafstack_join.c, stacks.c).
 *
 * Collect asks the kernel for both fields on the fp events and splits every sample as it
 * is written (ses_split_write): the record without them goes to samples.data, the two
 * fields with the sample's key to leafstack.data, in the same order.
 *
 * Mode 0600. A side-file container (container.c), magic "UPLEAFS1", version 2.0 (1.0:
 * the legacy framing, values zero-padded to 8). Header fields (32 bytes in all): u64 regs
 * mask (perf's sample_regs_user of every record), u32 stack bytes asked for, u32 reserved
 * (0). Records:
 *   SES_LEAF_RECORD  u64 seq (the sample's number among samples.data's SAMPLE records,
 *                    from 0), u64 sample id, u32 pid, u32 tid, u64 time, u64 regs abi,
 *                    u32 nregs (0 or the mask's popcount), u32 stack bytes (valid ones),
 *                    nregs u64 registers (lowest mask bit first), the stack bytes
 * Unknown types are skipped (counted). A file cut short reads up to its last whole record.
 */
#ifndef UPROF_SESSION_LEAFSTACK_H
#define UPROF_SESSION_LEAFSTACK_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SES_LEAF_FILE "leafstack.data"
#define SES_LEAF_MAGIC "UPLEAFS1"
#define SES_LEAF_VERSION 2 /* the container's major (1: the legacy framing) */
#define SES_LEAF_HDR_SIZE 32
#define SES_LEAF_RECORD 1
#define SES_LEAF_FIXED 48	/* a record's value before its registers */
#define SES_LEAF_MAX_REGS 16	/* registers per record */
#define SES_LEAF_MAX_STACK 4096 /* stack bytes per record */
#define SES_LEAF_DEFAULT_STACK 512

/* One record. @regs and @stack are borrowed (into the file, or the caller's). */
struct ses_leaf {
	uint64_t seq;
	uint64_t id, time;
	uint32_t pid, tid;
	uint64_t regs_abi;
	uint32_t nregs;
	const void *regs; /* unaligned u64s: read with ses_sample_u64() */
	uint32_t stack_len;
	const void *stack;
};

/* Encode @l as a record's value into @buf (@cap bytes): its size, or -ENOSPC, or -EINVAL
 * (too many registers or stack bytes). */
int ses_leaf_encode(void *buf, size_t cap, const struct ses_leaf *l);
/* Decode a record's value of @len bytes at @value: 0 with *@l set (pointers into @value);
 * -EINVAL for a bad one (short, a size that is not its contents', more registers than
 * @regs_mask has). */
int ses_leaf_decode(const void *value, size_t len, uint64_t regs_mask, struct ses_leaf *l);

/* ---- collect: the writer and the split ---- */

struct ses_leaf_writer;

/* Create leafstack.data (0600, a new file) beneath the session's fd @dfd with its header.
 * NULL with errno set. */
struct ses_leaf_writer *ses_leaf_writer_open(int dfd, uint64_t regs_mask, uint32_t stack_bytes);
int ses_leaf_writer_add(struct ses_leaf_writer *w, const struct ses_leaf *l);
int ses_leaf_writer_flush(struct ses_leaf_writer *w);
/* Flush, close, free; NULL is fine. The first error seen, or 0. */
int ses_leaf_writer_close(struct ses_leaf_writer *w);

struct ses_writer;
struct ses_split;

/* A sink that splits samples of leaf-copy attrs between @data and @leaf (both borrowed,
 * may not be NULL); records of other attrs go through unchanged. NULL: no memory. */
struct ses_split *ses_split_new(struct ses_writer *data, struct ses_leaf_writer *leaf);
void ses_split_free(struct ses_split *sp);
/* Register @attr (as opened: copied) and its sample ids @ids (borrowed for the call).
 * Samples with IDENTIFIER first are looked up by it. 0, -ENOMEM, -EINVAL (no
 * IDENTIFIER in a leaf-copy attr). */
int ses_split_add_attr(struct ses_split *sp, const struct perf_event_attr *attr,
		       const uint64_t *ids, size_t nids);
/* Does @attr ask for a leaf copy (fp callchain with REGS_USER and STACK_USER)? */
bool ses_split_is_leaf_attr(const struct perf_event_attr *attr);
/* @attr as samples.data describes it: without REGS_USER, STACK_USER and their sizes. */
void ses_split_strip_attr(struct perf_event_attr *attr);
/* Write @len bytes of whole records (an smp_sink_fn: @arg is the split). 0 or -errno. */
int ses_split_write(void *arg, const void *records, size_t len);
/* Samples seen, samples split (a side record written), samples whose record could not
 * be decoded (written to samples.data unchanged, no side record). */
void ses_split_counts(const struct ses_split *sp, uint64_t *samples, uint64_t *split,
		      uint64_t *bad);

/* ---- report: the reader and the join ---- */

struct ses_leaf_reader;
struct ses_sample;

/* Check the header of @len bytes at @buf (borrowed). -EINVAL with @err for a bad one (a
 * newer major version too). */
int ses_leaf_reader_open_mem(struct ses_leaf_reader **out, const void *buf, size_t len, char *err,
			     size_t errlen);
/* Map @path and open it; -ENOENT when there is none. */
int ses_leaf_reader_open_file(struct ses_leaf_reader **out, const char *path, char *err,
			      size_t errlen);
/* The same for @name beneath the session directory fd @dfd, no symlink followed. */
int ses_leaf_reader_open_at(struct ses_leaf_reader **out, int dfd, const char *name, char *err,
			    size_t errlen);
void ses_leaf_reader_free(struct ses_leaf_reader *r);
uint64_t ses_leaf_reader_regs_mask(const struct ses_leaf_reader *r);

/* As ses_reader_hand_back() and ses_reader_offset_of() for samples.data (session.h): the
 * walk of ses_leaf_join() hands back what it passed; a later walk over the joined copies
 * (report's replay) hands back with these. NULL @r: nothing. */
size_t ses_leaf_reader_hand_back(struct ses_leaf_reader *r, size_t from, size_t to);
size_t ses_leaf_reader_offset_of(const struct ses_leaf_reader *r, const void *p);
/*
 * The merge walk: the record of sample number @seq of samples.data, which must have the
 * key of @s (pid, tid, time, id). Calls come with increasing @seq. 1 with *@l set
 * (pointers into the file, valid until the reader is freed), 0 when there is none (or its
 * key differs: counted). A damaged entry ends the walk (ses_leaf_reader_damage).
 */
int ses_leaf_join(struct ses_leaf_reader *r, uint64_t seq, const struct ses_sample *s,
		  struct ses_leaf *l);
/* Offset of the first bad byte (0: none) and why. */
uint64_t ses_leaf_reader_damage(const struct ses_leaf_reader *r, const char **why);
/* Records joined, records skipped (no sample of theirs asked), keys that differed. */
void ses_leaf_reader_counts(const struct ses_leaf_reader *r, uint64_t *joined, uint64_t *skipped,
			    uint64_t *mismatched);
/* Records of types this uprof does not know (a newer minor's), skipped so far. */
uint64_t ses_leaf_reader_unknown(const struct ses_leaf_reader *r);

#endif

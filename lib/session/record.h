/* SPDX-License-Identifier: MIT */
/*
 * lib/session: perf records as they lie in samples.data — the raw record, the parsed
 * sample, and the one codec that decodes and encodes every record kind uprof knows.
 * Included by session/session.h; apart so that the session directory API and the
 * record format each fit one header.
 */
#ifndef UPROF_SESSION_RECORD_H
#define UPROF_SESSION_RECORD_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One record as it lies in the file. @data (header included) lives until the reader is
 * freed. */
struct ses_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	uint64_t offset; /* in the file */
	const void *data;
};

/* A parsed PERF_RECORD_SAMPLE; fields absent from the event's sample_type are 0. */
struct ses_sample {
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;
	int attr_index;	  /* which HEADER_ATTR this sample belongs to (set by the reader) */
	uint16_t cpumode; /* misc & PERF_RECORD_MISC_CPUMODE_MASK */
	/* PERF_SAMPLE_CALLCHAIN: @nr_ips u64 entries at @ips, PERF_CONTEXT_* markers (values
	 * >= PERF_CONTEXT_MAX as u64) included as the kernel wrote them. @ips points into the
	 * record and need not be aligned: read entries with ses_sample_u64(). */
	const void *ips;
	uint32_t nr_ips;
	/* PERF_SAMPLE_REGS_USER: @regs_abi (PERF_SAMPLE_REGS_ABI_*; NONE: no user state, e.g.
	 * a kernel thread) and one u64 per bit set in @regs_mask (the attr's
	 * sample_regs_user), lowest bit first; @nregs of them at @regs (unaligned). */
	uint64_t regs_abi;
	uint64_t regs_mask;
	const void *regs;
	uint32_t nregs;
	/* PERF_SAMPLE_STACK_USER: @stack_size bytes copied from the user stack pointer up, of
	 * which the first @stack_dyn_size are valid (never more than @stack_size). */
	const void *stack;
	uint64_t stack_size, stack_dyn_size;
	/* PERF_SAMPLE_RAW: a tracepoint's fields (@raw_size bytes, unaligned; its format
	 * says where each lies), NULL when the attr has none */
	const void *raw;
	uint32_t raw_size;
};

/* Longest callchain ses_reader_sample() accepts (a record holds at most 8190). */
#define SES_MAX_CALLCHAIN 8192

/* Entry @i of an unaligned u64 array inside a record (callchain, regs). */
static inline uint64_t ses_sample_u64(const void *base, size_t i)
{
	uint64_t v;

	__builtin_memcpy(&v, (const unsigned char *)base + i * 8, 8);
	return v;
}

/* The sample_id_all trailer of a non-sample record: the fields of its event's
 * sample_type among TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER (absent ones are 0).
 * @valid: the record had a trailer (its attr has sample_id_all). */
struct ses_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
	bool valid;
};

/* ---- perf records: the one codec (record.c decodes, record_enc.c encodes) ------------
 *
 * Every perf record kind uprof reads or writes is decoded and encoded here and nowhere
 * else. A decoder takes one whole record (@rec, @len bytes, header included; @len is what
 * the caller holds, the record's own size must fit in it), checks every length against
 * the record's size, never reads past it and never assumes alignment. Strings come back
 * as a pointer into the record and a length, NUL-terminated within the record (a string
 * without its NUL is -EINVAL). Decoders return 0 or -EINVAL (-EPROTO: not that kind).
 *
 * The sample_id trailer (sample_id_all) has the layout of the record's own event, given
 * as @attr (NULL, or an attr without sample_id_all: no trailer). Which attr that is, is
 * the reader's business (ses_reader_attr_of()).
 *
 * An encoder writes one record into @buf (@cap bytes) and returns its size (a multiple
 * of 8) or -errno: -ENOSPC when @cap is too small, -E2BIG past the 16-bit record size,
 * -EINVAL for a value the format cannot hold. The trailer is computed from @attr and the
 * struct's @sid, so what it writes is what the decoder with the same attr reads back.
 */

/* HEADER_ATTR (perf's pipe-mode attr record): the attr (its own size says how long,
 * copied up to sizeof(struct perf_event_attr), @attr.size keeps the record's value) then
 * @nids u64 ids at @ids (into the record, unaligned: read with ses_sample_u64()). */
struct ses_attr_rec {
	struct perf_event_attr attr;
	const void *ids;
	size_t nids;
};

/* MMAP and MMAP2. MMAP2 carries the file's identity: device and inode, or (misc has
 * PERF_RECORD_MISC_MMAP_BUILD_ID, @build_id_form) a build id of up to 20 bytes. */
struct ses_mmap {
	bool mmap2;
	uint16_t misc; /* as in the record: cpumode, MISC_MMAP_DATA, MISC_MMAP_BUILD_ID */
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	bool build_id_form;
	uint8_t build_id_size; /* <= 20 */
	uint8_t build_id[20];
	uint32_t prot, flags;
	const char *filename; /* into the record */
	size_t filename_len;
	struct ses_sample_id sid;
};

/* What a mapping maps: a file, the kernel (perf's "[kernel.kallsyms]..." map record), the
 * vDSO ("[vdso]"), or anonymous memory ("//anon", "[heap]", ...). */
enum ses_map_kind { SES_MAP_FILE, SES_MAP_KERNEL, SES_MAP_VDSO, SES_MAP_ANON };

/* COMM: a thread's name; @exec (misc PERF_RECORD_MISC_COMM_EXEC) when it came from exec. */
struct ses_comm {
	uint16_t misc;
	uint32_t pid, tid;
	bool exec;
	const char *comm; /* into the record */
	size_t comm_len;
	struct ses_sample_id sid;
};

/* FORK and EXIT: the same layout. */
struct ses_task {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
	struct ses_sample_id sid;
};

/* LOST: @lost records the kernel could not write to the ring of event @id. */
struct ses_lost {
	uint64_t id, lost;
	struct ses_sample_id sid;
};

/* THROTTLE and UNTHROTTLE. */
struct ses_throttle {
	bool unthrottle;
	uint64_t time, id, stream_id;
	struct ses_sample_id sid;
};

/* One record of any kind uprof knows, decoded; @type says which member is valid
 * (FINISHED_ROUND and unknown types: none). */
struct ses_decoded {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	union {
		struct ses_attr_rec attr;     /* SES_RECORD_HEADER_ATTR */
		struct ses_sample sample;     /* PERF_RECORD_SAMPLE */
		struct ses_mmap mmap;	      /* PERF_RECORD_MMAP, PERF_RECORD_MMAP2 */
		struct ses_comm comm;	      /* PERF_RECORD_COMM */
		struct ses_task task;	      /* PERF_RECORD_FORK, PERF_RECORD_EXIT */
		struct ses_lost lost;	      /* PERF_RECORD_LOST */
		struct ses_throttle throttle; /* PERF_RECORD_(UN)THROTTLE */
		/* PERF_RECORD_SWITCH: the task of @sid switched in, or out when misc has
		 * PERF_RECORD_MISC_SWITCH_OUT (runnable: PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) */
		struct ses_sample_id sw;
	} u;
};

/* The header of the record at @rec of @len bytes: -EINVAL if @len cannot hold a header,
 * the size is below one, or the record runs past @len. */
int ses_record_header(const void *rec, size_t len, struct perf_event_header *h);

/* Bytes of the sample_id trailer @attr puts on non-sample records (0: none). */
size_t ses_sample_id_size(const struct perf_event_attr *attr);

int ses_decode_attr(const void *rec, size_t len, struct ses_attr_rec *a);
/* @s->attr_index is left 0. -EINVAL if the record does not fit @attr's sample_type. */
int ses_decode_sample(const struct perf_event_attr *attr, const void *rec, size_t len,
		      struct ses_sample *s);
int ses_decode_sample_id(const struct perf_event_attr *attr, const void *rec, size_t len,
			 struct ses_sample_id *sid);
int ses_decode_mmap(const struct perf_event_attr *attr, const void *rec, size_t len,
		    struct ses_mmap *m);
int ses_decode_comm(const struct perf_event_attr *attr, const void *rec, size_t len,
		    struct ses_comm *c);
int ses_decode_task(const struct perf_event_attr *attr, const void *rec, size_t len,
		    struct ses_task *t);
int ses_decode_lost(const struct perf_event_attr *attr, const void *rec, size_t len,
		    struct ses_lost *l);
int ses_decode_throttle(const struct perf_event_attr *attr, const void *rec, size_t len,
			struct ses_throttle *t);
/* Whichever kind @rec is, with @attr for its sample fields or trailer. 0, -EINVAL, or
 * -EPROTO for a type this codec does not know (d->type/misc/size still filled). */
int ses_decode(const struct perf_event_attr *attr, const void *rec, size_t len,
	       struct ses_decoded *d);
enum ses_map_kind ses_mmap_kind(const struct ses_mmap *m);
/* When @d happened: a sample's time, another record's trailer time; 0 when it has none. */
uint64_t ses_decoded_time(const struct ses_decoded *d);

int ses_encode_attr(void *buf, size_t cap, const struct perf_event_attr *attr, const uint64_t *ids,
		    size_t nids);
/* The fields of @attr's sample_type from @s; CALLCHAIN, REGS_USER and STACK_USER from
 * their pointers (borrowed). READ and BRANCH_STACK: -EOPNOTSUPP; RAW: @s->raw_size + 4
 * a multiple of 8 (the kernel's padding), or no raw (4 zero bytes). misc = @s->cpumode. */
int ses_encode_sample(void *buf, size_t cap, const struct perf_event_attr *attr,
		      const struct ses_sample *s);
/* MMAP or MMAP2 by @m->mmap2; MISC_MMAP_BUILD_ID is set in misc by @m->build_id_form. */
int ses_encode_mmap(void *buf, size_t cap, const struct perf_event_attr *attr,
		    const struct ses_mmap *m);
/* MISC_COMM_EXEC is set in misc by @c->exec; the name is cut to 15 bytes (TASK_COMM_LEN). */
int ses_encode_comm(void *buf, size_t cap, const struct perf_event_attr *attr,
		    const struct ses_comm *c);
/* @type: PERF_RECORD_FORK or PERF_RECORD_EXIT. */
int ses_encode_task(void *buf, size_t cap, const struct perf_event_attr *attr, uint32_t type,
		    const struct ses_task *t);
int ses_encode_lost(void *buf, size_t cap, const struct perf_event_attr *attr,
		    const struct ses_lost *l);
int ses_encode_throttle(void *buf, size_t cap, const struct perf_event_attr *attr,
			const struct ses_throttle *t);
int ses_encode_finished_round(void *buf, size_t cap);
/* perf record's kernel map: an MMAP of "[kernel.kallsyms]_text" for pid -1 from @text
 * (the kernel's _text) to the end of the address space, pgoff @text, misc KERNEL; its
 * trailer says pid -1, tid 0, @time, @id. */
int ses_encode_kernel_map(void *buf, size_t cap, const struct perf_event_attr *attr, uint64_t text,
			  uint64_t time, uint64_t id);

#endif

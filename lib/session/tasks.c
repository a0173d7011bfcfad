// SPDX-License-Identifier: MIT
/* instrument/<pid>.tasks: writer (collect) and bounded reader (report), in the side-file
 * container (container.c). */
#include "session/internal.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TASKS_MAJOR 2 /* 2: the container's framing; 1: the legacy one (container.c) */
#define TASKS_MINOR 0
#define TASKS_HEADER 24		/* the prefix, i32 pid, u32 reserved */
#define WRITE_BUF 8192		/* a string of SES_TASKS_MAX_STRING bytes fits */
#define MAX_RECORDS (64u << 20) /* 2 GiB of records: refuse more than that */
#define MAX_STRINGS (1u << 20)

static const struct ses_ct_kind tasks_kind = {
	.magic = SES_TASKS_MAGIC,
	.what = "tasks",
	.major = TASKS_MAJOR,
	.legacy_major = 1,
	.min_header = TASKS_HEADER,
	.known = 1u << SES_TASKS_STRING | 1u << SES_TASKS_RECORD | 1u << SES_TASKS_DROPPED,
};

struct ses_tasks_str {
	uint32_t id;
	char *s;
};

struct ses_tasks_writer {
	struct ses_ct_writer *ct;
};

struct ses_tasks_writer *ses_tasks_writer_open(int dfd, int pid)
{
	char name[32];
	struct ses_tasks_writer *w = calloc(1, sizeof(*w));
	int32_t fields[2] = { pid, 0 };

	if (!w)
		return NULL;
	snprintf(name, sizeof(name), "%d.tasks", pid);
	/* O_TRUNC: a pid the kernel gave again during the run starts its file again */
	return ses_side_writer_adopt(w, &w->ct,
				     ses_side_writer_create(dfd, SES_TASKS_DIR, name, O_TRUNC,
							    WRITE_BUF, SES_TASKS_MAGIC, TASKS_MAJOR,
							    TASKS_MINOR, fields, sizeof(fields)));
}

int ses_tasks_write_string(struct ses_tasks_writer *w, uint32_t id, const char *s, size_t len)
{
	uint32_t body[2] = { id, (uint32_t)len };

	if (len > SES_TASKS_MAX_STRING)
		len = SES_TASKS_MAX_STRING, body[1] = (uint32_t)len;
	return ses_ct_writer_add(w->ct, SES_TASKS_STRING, body, sizeof(body), s, len);
}

int ses_tasks_write_record(struct ses_tasks_writer *w, const struct ses_task_record *r)
{
	unsigned char b[24];

	memcpy(b, &r->time_ns, 8);
	memcpy(b + 8, &r->tid, 4);
	memcpy(b + 12, &r->kind, 2);
	memcpy(b + 14, &r->how, 2);
	memcpy(b + 16, &r->domain, 4);
	memcpy(b + 20, &r->name, 4);
	return ses_ct_writer_add(w->ct, SES_TASKS_RECORD, b, sizeof(b), NULL, 0);
}

int ses_tasks_write_dropped(struct ses_tasks_writer *w, uint64_t records, uint64_t names)
{
	uint64_t b[2] = { records, names };

	return ses_ct_writer_add(w->ct, SES_TASKS_DROPPED, b, sizeof(b), NULL, 0);
}

int ses_tasks_writer_flush(struct ses_tasks_writer *w)
{
	return ses_ct_writer_flush(w->ct);
}

int ses_tasks_writer_close(struct ses_tasks_writer *w)
{
	return w ? ses_side_writer_release(w, w->ct) : 0;
}

/* ---- reading ---- */

static size_t id_hash(uint32_t id, size_t mask)
{
	/* ids are small consecutive numbers: spread them (Fibonacci hashing) */
	return (size_t)(((uint64_t)id * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* The slot of @id: the one holding it, or the empty one where it would go. */
static uint32_t *id_slot(uint32_t *slots, size_t cap, const struct ses_tasks_str *strs, uint32_t id)
{
	size_t i = id_hash(id, cap - 1);

	while (slots[i] && strs[slots[i] - 1].id != id)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

/* Room in the index for one more id, at a load under 1/2. 0 or -ENOMEM. */
static int reserve_slot(struct ses_tasks *t)
{
	size_t cap = t->capslots ? t->capslots * 2 : 128;
	uint32_t *grown;

	if ((t->nstrs + 1) * 2 <= t->capslots)
		return 0;
	grown = calloc(cap, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	for (size_t i = 0; i < t->capslots; i++)
		if (t->slots[i])
			*id_slot(grown, cap, t->strs, t->strs[t->slots[i] - 1].id) = t->slots[i];
	free(t->slots);
	t->slots = grown;
	t->capslots = cap;
	return 0;
}

static int add_string(struct ses_tasks *t, uint32_t id, const unsigned char *p, uint32_t len)
{
	struct ses_tasks_str *grown;
	char *s;

	if (t->nstrs >= MAX_STRINGS)
		return -E2BIG;
	if (t->nstrs == t->capstrs) {
		size_t cap = t->capstrs ? t->capstrs * 2 : 64;

		grown = realloc(t->strs, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		t->strs = grown;
		t->capstrs = cap;
	}
	if (reserve_slot(t))
		return -ENOMEM;
	s = malloc(len + 1);
	if (!s)
		return -ENOMEM;
	memcpy(s, p, len);
	s[len] = 0;
	t->strs[t->nstrs++] = (struct ses_tasks_str){ id, s };
	/* a later definition of an id wins: its slot now points here */
	*id_slot(t->slots, t->capslots, t->strs, id) = (uint32_t)t->nstrs;
	return 0;
}

static int add_record(struct ses_tasks *t, const unsigned char *p)
{
	struct ses_task_record *r;

	if (t->nrecords >= MAX_RECORDS)
		return -E2BIG;
	if (t->nrecords == t->caprecords) {
		size_t cap = t->caprecords ? t->caprecords * 2 : 1024;

		r = realloc(t->records, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		t->records = r;
		t->caprecords = cap;
	}
	r = &t->records[t->nrecords++];
	memcpy(&r->time_ns, p, 8);
	memcpy(&r->tid, p + 8, 4);
	memcpy(&r->kind, p + 12, 2);
	memcpy(&r->how, p + 14, 2);
	memcpy(&r->domain, p + 16, 4);
	memcpy(&r->name, p + 20, 4);
	return 0;
}

/* The records of @r into @t. 0 (damage ends the walk, said in @r) or -ENOMEM. */
static int parse_records(struct ses_tasks *t, struct ses_ct_reader *r)
{
	struct ses_ct_record rec;

	while (ses_ct_next(r, &rec)) {
		uint32_t slen, id;
		const unsigned char *str;
		const char *bad = NULL;
		int ret = 0;

		switch (rec.type) {
		case SES_TASKS_STRING:
			bad = ses_ct_string(&rec, SES_TASKS_MAX_STRING, &id, &str, &slen);
			if (!bad)
				ret = add_string(t, id, str, slen);
			break;
		case SES_TASKS_RECORD:
			if (rec.len < 24)
				bad = "record entry too short";
			else
				ret = add_record(t, rec.value);
			break;
		case SES_TASKS_DROPPED:
			if (rec.len < 16) {
				bad = "dropped entry too short";
				break;
			}
			memcpy(&t->dropped_records, rec.value, 8);
			memcpy(&t->dropped_names, rec.value + 8, 8);
			break;
		}
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			bad = "too many entries";
		if (bad)
			ses_ct_damage(r, rec.offset, bad);
	}
	return 0;
}

int ses_tasks_parse(const void *buf, size_t len, struct ses_tasks *t, char *err, size_t errlen)
{
	struct ses_ct_reader r;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = ses_ct_open(&r, &tasks_kind, buf, len, err, errlen);
	if (ret)
		return ret;
	memcpy(&t->pid, ses_ct_fields(&r), 4);
	ret = parse_records(t, &r);
	if (ret) {
		ses_tasks_release(t);
		return ret;
	}
	t->damaged_at = r.damaged_at;
	t->damage = r.damage;
	t->unknown_records = r.unknown;
	return 0;
}

void ses_tasks_release(struct ses_tasks *t)
{
	for (size_t i = 0; i < t->nstrs; i++)
		free(t->strs[i].s);
	free(t->strs);
	free(t->records);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

const char *ses_tasks_string(const struct ses_tasks *t, uint32_t id)
{
	uint32_t slot;

	if (!t->capslots)
		return NULL;
	slot = *id_slot(t->slots, t->capslots, t->strs, id);
	return slot ? t->strs[slot - 1].s : NULL;
}

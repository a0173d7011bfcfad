// SPDX-License-Identifier: MIT
/* instrument/<pid>.tasks: writer (collect) and bounded reader (report). */
#include "session/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HDR_SIZE 24
#define MAX_RECORDS (64u << 20) /* 2 GiB of records: refuse more than that */
#define MAX_STRINGS (1u << 20)

struct ses_tasks_str {
	uint32_t id;
	char *s;
};

struct ses_tasks_writer {
	FILE *f;
	int err;
};

static void put(struct ses_tasks_writer *w, const void *p, size_t n)
{
	if (!w->err && fwrite(p, 1, n, w->f) != n)
		w->err = -(errno ? errno : EIO);
}

struct ses_tasks_writer *ses_tasks_writer_open(const char *dir, int pid)
{
	char path[PATH_MAX];
	struct ses_tasks_writer *w;
	uint32_t v[4] = { 1, HDR_SIZE, (uint32_t)pid, 0 };

	snprintf(path, sizeof(path), "%s/" SES_TASKS_DIR, dir);
	if (ses_private_mkdir(path) && errno != EEXIST) /* 0700 (dir.c) */
		return NULL;
	snprintf(path, sizeof(path), "%s/" SES_TASKS_DIR "/%d.tasks", dir, pid);
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->f = ses_file_fopen(path);
	if (!w->f) {
		int e = errno;

		free(w);
		errno = e;
		return NULL;
	}
	put(w, SES_TASKS_MAGIC, 8);
	put(w, v, sizeof(v));
	return w;
}

static void entry(struct ses_tasks_writer *w, uint32_t type, uint32_t size)
{
	uint32_t h[2] = { type, size };

	put(w, h, sizeof(h));
}

int ses_tasks_write_string(struct ses_tasks_writer *w, uint32_t id, const char *s, size_t len)
{
	static const char zero[8];
	uint32_t body[2] = { id, (uint32_t)len };
	size_t size;

	if (len > SES_TASKS_MAX_STRING)
		len = SES_TASKS_MAX_STRING, body[1] = (uint32_t)len;
	size = (8 + 8 + len + 7) & ~(size_t)7;
	entry(w, SES_TASKS_STRING, (uint32_t)size);
	put(w, body, sizeof(body));
	put(w, s, len);
	put(w, zero, size - 16 - len);
	return w->err;
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
	entry(w, SES_TASKS_RECORD, 8 + sizeof(b));
	put(w, b, sizeof(b));
	return w->err;
}

int ses_tasks_write_dropped(struct ses_tasks_writer *w, uint64_t records, uint64_t names)
{
	uint64_t b[2] = { records, names };

	entry(w, SES_TASKS_DROPPED, 8 + sizeof(b));
	put(w, b, sizeof(b));
	return w->err;
}

int ses_tasks_writer_flush(struct ses_tasks_writer *w)
{
	if (!w->err && fflush(w->f))
		w->err = -errno;
	return w->err;
}

int ses_tasks_writer_close(struct ses_tasks_writer *w)
{
	int ret;

	if (!w)
		return 0;
	ret = ses_tasks_writer_flush(w);
	if (fclose(w->f) && !ret)
		ret = -errno;
	free(w);
	return ret;
}

/* ---- reading ---- */

static size_t id_hash(uint32_t id, size_t mask)
{
	/* ids are small consecutive numbers: spread them (Fibonacci hashing) */
	return (size_t)(((uint64_t)id * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* The slot of @id: the one holding it, or the empty one where it would go. */
static uint32_t *id_slot(uint32_t *slots, size_t cap, const struct ses_tasks_str *strs,
			 uint32_t id)
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

static int stop(struct ses_tasks *t, size_t pos, const char *why)
{
	t->damaged_at = pos;
	t->damage = why;
	return 0;
}

static int parse_entries(struct ses_tasks *t, const unsigned char *b, size_t len)
{
	size_t pos = HDR_SIZE;

	while (pos < len) {
		uint32_t type, size, slen, id;
		int ret = 0;

		if (len - pos < 8)
			return stop(t, pos, "entry header cut short");
		memcpy(&type, b + pos, 4);
		memcpy(&size, b + pos + 4, 4);
		if (size < 8 || size % 8)
			return stop(t, pos, "impossible entry size");
		if (size > len - pos)
			return stop(t, pos, "entry runs past the end of the file");
		switch (type) {
		case SES_TASKS_STRING:
			if (size < 16)
				return stop(t, pos, "string entry too short");
			memcpy(&slen, b + pos + 12, 4);
			if (slen > size - 16 || slen > SES_TASKS_MAX_STRING)
				return stop(t, pos, "string longer than its entry");
			memcpy(&id, b + pos + 8, 4);
			ret = add_string(t, id, b + pos + 16, slen);
			break;
		case SES_TASKS_RECORD:
			if (size < 32)
				return stop(t, pos, "record entry too short");
			ret = add_record(t, b + pos + 8);
			break;
		case SES_TASKS_DROPPED:
			if (size < 24)
				return stop(t, pos, "dropped entry too short");
			memcpy(&t->dropped_records, b + pos + 8, 8);
			memcpy(&t->dropped_names, b + pos + 16, 8);
			break;
		default:
			break; /* a newer writer's entry */
		}
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			return stop(t, pos, "too many entries");
		pos += size;
	}
	return 0;
}

int ses_tasks_parse(const void *buf, size_t len, struct ses_tasks *t, char *err, size_t errlen)
{
	const unsigned char *b = buf;
	uint32_t version, hsize;
	int32_t pid;
	int ret;

	memset(t, 0, sizeof(*t));
	if (len < HDR_SIZE || memcmp(b, SES_TASKS_MAGIC, 8)) {
		ses_errf(err, errlen, "offset 0: not a uprof tasks file (no UPTASKS1 header)");
		return -EINVAL;
	}
	memcpy(&version, b + 8, 4);
	memcpy(&hsize, b + 12, 4);
	memcpy(&pid, b + 16, 4);
	if (version != 1 || hsize != HDR_SIZE) {
		ses_errf(err, errlen, "offset 8: tasks file version %u is not one this uprof reads",
			 version);
		return -EPROTO;
	}
	t->pid = pid;
	ret = parse_entries(t, b, len);
	if (ret)
		ses_tasks_release(t);
	return ret;
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

// SPDX-License-Identifier: MIT
/* openmp/<pid>.ompt (openmp.h): writer (collect) and bounded reader (report). */
#include "session/internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR_SIZE 24
#define MAX_EVENTS (64u << 20) /* 2 GiB of records: refuse more than that */
#define MAX_VALUES (4u << 20)  /* the tool sends at most 256 threads x 128 sites x 64 */
#define MAX_SITES (1u << 16)
#define MAX_STRINGS SES_OMPT_MAX_STRINGS /* the runtime's and the devices' names */
#define MAX_TARGETS (16u << 20) /* 512 MiB of target and device records */

struct ses_ompt_str {
	uint32_t id;
	char *s;
};

struct ses_ompt_writer {
	FILE *f;
	int err;
};

static void put(struct ses_ompt_writer *w, const void *p, size_t n)
{
	if (!w->err && fwrite(p, 1, n, w->f) != n)
		w->err = -(errno ? errno : EIO);
}

static void entry(struct ses_ompt_writer *w, uint32_t type, uint32_t size)
{
	uint32_t h[2] = { type, size };

	put(w, h, sizeof(h));
}

struct ses_ompt_writer *ses_ompt_writer_open(const char *dir, int pid, uint16_t impl,
					     uint16_t scope)
{
	char path[PATH_MAX];
	struct ses_ompt_writer *w;
	uint32_t v[3] = { 1, HDR_SIZE, (uint32_t)pid };
	uint16_t how[2] = { impl, scope };

	snprintf(path, sizeof(path), "%s/" SES_OMPT_DIR, dir);
	if (ses_private_mkdir(path) && errno != EEXIST)
		return NULL;
	snprintf(path, sizeof(path), "%s/" SES_OMPT_DIR "/%d.ompt", dir, pid);
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
	put(w, SES_OMPT_MAGIC, 8);
	put(w, v, sizeof(v));
	put(w, how, sizeof(how));
	return w;
}

int ses_ompt_write_string(struct ses_ompt_writer *w, uint32_t id, const char *s, size_t len)
{
	static const char zero[8];
	uint32_t body[2] = { id, (uint32_t)len };
	size_t size;

	if (len > SES_OMPT_MAX_STRING)
		len = SES_OMPT_MAX_STRING, body[1] = (uint32_t)len;
	size = (16 + len + 7) & ~(size_t)7;
	entry(w, SES_OMPT_STRING, (uint32_t)size);
	put(w, body, sizeof(body));
	put(w, s, len);
	put(w, zero, size - 16 - len);
	return w->err;
}

int ses_ompt_write_record(struct ses_ompt_writer *w, const struct ses_ompt_record *r)
{
	unsigned char b[24];

	memcpy(b, &r->value, 8);
	memcpy(b + 8, &r->tid, 4);
	memcpy(b + 12, &r->kind, 2);
	memcpy(b + 14, &r->how, 2);
	memcpy(b + 16, &r->site, 4);
	memcpy(b + 20, &r->slot, 4);
	entry(w, SES_OMPT_RECORD, 8 + sizeof(b));
	put(w, b, sizeof(b));
	return w->err;
}

int ses_ompt_write_dropped(struct ses_ompt_writer *w, uint64_t records)
{
	entry(w, SES_OMPT_DROPPED, 16);
	put(w, &records, 8);
	return w->err;
}

int ses_ompt_writer_close(struct ses_ompt_writer *w)
{
	int ret;

	if (!w)
		return 0;
	ret = w->err;
	if (!ret && fflush(w->f))
		ret = -errno;
	if (fclose(w->f) && !ret)
		ret = -errno;
	free(w);
	return ret;
}

/* ---- reading ---- */

/* Room for one more element in *@v (@n used, *@cap allocated, at most @max). */
static int grow(void **v, size_t n, size_t *cap, size_t elem, size_t max)
{
	size_t c = *cap ? *cap * 2 : 64;
	void *g;

	if (n < *cap)
		return 0;
	if (n >= max)
		return -E2BIG;
	g = realloc(*v, c * elem);
	if (!g)
		return -ENOMEM;
	*v = g;
	*cap = c;
	return 0;
}

static int add_string(struct ses_ompt *o, uint32_t id, const unsigned char *p, uint32_t len)
{
	char *s;

	if (o->nstrs >= MAX_STRINGS)
		return 0; /* names the report never asks for (task names) */
	if (!o->strs) {
		o->strs = calloc(MAX_STRINGS, sizeof(*o->strs));
		if (!o->strs)
			return -ENOMEM;
	}
	s = malloc(len + 1);
	if (!s)
		return -ENOMEM;
	memcpy(s, p, len);
	s[len] = 0;
	o->strs[o->nstrs++] = (struct ses_ompt_str){ id, s };
	return 0;
}

static int add_site(struct ses_ompt *o, const struct ses_ompt_record *r)
{
	int ret;

	for (size_t i = 0; i < o->nsites; i++)
		if (o->sites[i].id == r->site) {
			o->sites[i].kind = r->how;
			o->sites[i].code = r->value;
			return 0;
		}
	ret = grow((void **)&o->sites, o->nsites, &o->capsites, sizeof(*o->sites), MAX_SITES);
	if (!ret)
		o->sites[o->nsites++] = (struct ses_ompt_site){ r->site, r->how, r->value };
	return ret;
}

static int add_record(struct ses_ompt *o, const unsigned char *p)
{
	struct ses_ompt_record r;
	int ret = 0;

	memcpy(&r.value, p, 8);
	memcpy(&r.tid, p + 8, 4);
	memcpy(&r.kind, p + 12, 2);
	memcpy(&r.how, p + 14, 2);
	memcpy(&r.site, p + 16, 4);
	memcpy(&r.slot, p + 20, 4);
	switch (r.kind) {
	case SES_OMPT_BEGIN:
	case SES_OMPT_END:
	case SES_OMPT_WAIT_BEGIN:
	case SES_OMPT_WAIT_END:
		ret = grow((void **)&o->events, o->nevents, &o->capevents, sizeof(r), MAX_EVENTS);
		if (!ret)
			o->events[o->nevents++] = r;
		break;
	case SES_OMPT_VALUE:
		if (r.how == 0 || r.how >= SES_OMPT_F_MAX)
			break; /* a field of a newer writer */
		ret = grow((void **)&o->values, o->nvalues, &o->capvalues, sizeof(r), MAX_VALUES);
		if (!ret)
			o->values[o->nvalues++] = r;
		break;
	case SES_OMPT_SITE:
		ret = add_site(o, &r);
		break;
	case SES_OMPT_TARGET_BEGIN ... SES_OMPT_DEV_BYTES:
		ret = grow((void **)&o->targets, o->ntargets, &o->captargets, sizeof(r),
			   MAX_TARGETS);
		if (!ret)
			o->targets[o->ntargets++] = r;
		break;
	case SES_OMPT_RUNTIME:
		o->has_runtime = true;
		o->omp_version = r.value;
		o->runtime_id = r.slot;
		break;
	default:
		break; /* a kind of a newer writer */
	}
	return ret;
}

static int stop(struct ses_ompt *o, size_t pos, const char *why)
{
	o->damaged_at = pos;
	o->damage = why;
	return 0;
}

static int parse_entries(struct ses_ompt *o, const unsigned char *b, size_t len)
{
	size_t pos = HDR_SIZE;

	while (pos < len) {
		uint32_t type, size, slen, id;
		int ret = 0;

		if (len - pos < 8)
			return stop(o, pos, "entry header cut short");
		memcpy(&type, b + pos, 4);
		memcpy(&size, b + pos + 4, 4);
		if (size < 8 || size % 8)
			return stop(o, pos, "impossible entry size");
		if (size > len - pos)
			return stop(o, pos, "entry runs past the end of the file");
		switch (type) {
		case SES_OMPT_STRING:
			if (size < 16)
				return stop(o, pos, "string entry too short");
			memcpy(&slen, b + pos + 12, 4);
			if (slen > size - 16 || slen > SES_OMPT_MAX_STRING)
				return stop(o, pos, "string longer than its entry");
			memcpy(&id, b + pos + 8, 4);
			ret = add_string(o, id, b + pos + 16, slen);
			break;
		case SES_OMPT_RECORD:
			if (size < 32)
				return stop(o, pos, "record entry too short");
			ret = add_record(o, b + pos + 8);
			break;
		case SES_OMPT_DROPPED:
			if (size < 16)
				return stop(o, pos, "dropped entry too short");
			memcpy(&o->dropped_records, b + pos + 8, 8);
			break;
		default:
			break; /* a newer writer's entry */
		}
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			return stop(o, pos, "too many records");
		pos += size;
	}
	return 0;
}

const char *ses_ompt_string(const struct ses_ompt *o, uint32_t id)
{
	for (size_t i = o->nstrs; id && i-- > 0;)
		if (o->strs[i].id == id)
			return o->strs[i].s;
	return NULL;
}

/* The runtime's version string: the last definition of its id. */
static void name_runtime(struct ses_ompt *o)
{
	for (size_t i = o->nstrs; i-- > 0;)
		if (o->strs[i].id == o->runtime_id && o->runtime_id) {
			snprintf(o->runtime, sizeof(o->runtime), "%s", o->strs[i].s);
			for (char *c = o->runtime; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == '"' || *c == ',')
					*c = ' '; /* it goes into a CSV cell */
			return;
		}
}

int ses_ompt_parse(const void *buf, size_t len, struct ses_ompt *o, char *err, size_t errlen)
{
	const unsigned char *b = buf;
	uint32_t version, hsize;
	int32_t pid;
	int ret;

	memset(o, 0, sizeof(*o));
	if (len < HDR_SIZE || memcmp(b, SES_OMPT_MAGIC, 8)) {
		ses_errf(err, errlen, "offset 0: not a uprof OpenMP file (no UPOMPT01 header)");
		return -EINVAL;
	}
	memcpy(&version, b + 8, 4);
	memcpy(&hsize, b + 12, 4);
	memcpy(&pid, b + 16, 4);
	if (version != 1 || hsize != HDR_SIZE) {
		ses_errf(err, errlen, "offset 8: OpenMP file version %u is not one this uprof reads",
			 version);
		return -EPROTO;
	}
	o->pid = pid;
	memcpy(&o->impl, b + 20, 2);
	memcpy(&o->scope, b + 22, 2);
	ret = parse_entries(o, b, len);
	if (ret) {
		ses_ompt_release(o);
		return ret;
	}
	name_runtime(o);
	return 0;
}

void ses_ompt_release(struct ses_ompt *o)
{
	for (size_t i = 0; i < o->nstrs; i++)
		free(o->strs[i].s);
	free(o->strs);
	free(o->sites);
	free(o->values);
	free(o->events);
	free(o->targets);
	memset(o, 0, sizeof(*o));
}

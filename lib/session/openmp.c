// SPDX-License-Identifier: MIT
/* openmp/<pid>.ompt (openmp.h): writer (collect) and bounded reader (report), in the
 * side-file container (container.c). */
#include "session/internal.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OMPT_MAJOR 2 /* 2: the container's framing; 1: the legacy one (container.c) */
#define OMPT_MINOR 0
#define OMPT_HEADER 24	       /* the prefix, i32 pid, u16 impl, u16 scope */
#define WRITE_BUF 8192	       /* a string of SES_OMPT_MAX_STRING bytes fits */
#define MAX_EVENTS (64u << 20) /* 2 GiB of records: refuse more than that */
#define MAX_VALUES (4u << 20)  /* the tool sends at most 256 threads x 128 sites x 64 */
#define MAX_SITES (1u << 16)
#define MAX_STRINGS SES_OMPT_MAX_STRINGS /* the runtime's and the devices' names */
#define MAX_TARGETS (16u << 20)		 /* 512 MiB of target and device records */

static const struct ses_ct_kind ompt_kind = {
	.magic = SES_OMPT_MAGIC,
	.what = "OpenMP",
	.major = OMPT_MAJOR,
	.legacy_major = 1,
	.min_header = OMPT_HEADER,
	.known = 1u << SES_OMPT_STRING | 1u << SES_OMPT_RECORD | 1u << SES_OMPT_DROPPED,
};

struct ses_ompt_str {
	uint32_t id;
	char *s;
};

struct ses_ompt_writer {
	struct ses_ct_writer *ct;
};

struct ses_ompt_writer *ses_ompt_writer_open(int dfd, int pid, uint16_t impl, uint16_t scope)
{
	char name[32];
	struct ses_ompt_writer *w = calloc(1, sizeof(*w));
	unsigned char fields[8];
	int32_t p = pid;

	if (!w)
		return NULL;
	snprintf(name, sizeof(name), "%d.ompt", pid);
	memcpy(fields, &p, 4);
	memcpy(fields + 4, &impl, 2);
	memcpy(fields + 6, &scope, 2);
	return ses_side_writer_adopt(w, &w->ct,
				     ses_side_writer_create(dfd, SES_OMPT_DIR, name, O_TRUNC,
							    WRITE_BUF, SES_OMPT_MAGIC, OMPT_MAJOR,
							    OMPT_MINOR, fields, sizeof(fields)));
}

int ses_ompt_write_string(struct ses_ompt_writer *w, uint32_t id, const char *s, size_t len)
{
	uint32_t body[2] = { id, (uint32_t)len };

	if (len > SES_OMPT_MAX_STRING)
		len = SES_OMPT_MAX_STRING, body[1] = (uint32_t)len;
	return ses_ct_writer_add(w->ct, SES_OMPT_STRING, body, sizeof(body), s, len);
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
	return ses_ct_writer_add(w->ct, SES_OMPT_RECORD, b, sizeof(b), NULL, 0);
}

int ses_ompt_write_dropped(struct ses_ompt_writer *w, uint64_t records)
{
	return ses_ct_writer_add(w->ct, SES_OMPT_DROPPED, &records, 8, NULL, 0);
}

int ses_ompt_writer_close(struct ses_ompt_writer *w)
{
	return w ? ses_side_writer_release(w, w->ct) : 0;
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

/* The records of @r into @o. 0 (damage ends the walk, said in @r) or -ENOMEM. */
static int parse_records(struct ses_ompt *o, struct ses_ct_reader *r)
{
	struct ses_ct_record rec;

	while (ses_ct_next(r, &rec)) {
		uint32_t slen, id;
		const unsigned char *str;
		const char *bad = NULL;
		int ret = 0;

		switch (rec.type) {
		case SES_OMPT_STRING:
			bad = ses_ct_string(&rec, SES_OMPT_MAX_STRING, &id, &str, &slen);
			if (!bad)
				ret = add_string(o, id, str, slen);
			break;
		case SES_OMPT_RECORD:
			if (rec.len < 24)
				bad = "record entry too short";
			else
				ret = add_record(o, rec.value);
			break;
		case SES_OMPT_DROPPED:
			if (rec.len < 8)
				bad = "dropped entry too short";
			else
				memcpy(&o->dropped_records, rec.value, 8);
			break;
		}
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			bad = "too many records";
		if (bad)
			ses_ct_damage(r, rec.offset, bad);
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
	struct ses_ct_reader r;
	int ret;

	memset(o, 0, sizeof(*o));
	ret = ses_ct_open(&r, &ompt_kind, buf, len, err, errlen);
	if (ret)
		return ret;
	memcpy(&o->pid, ses_ct_fields(&r), 4);
	memcpy(&o->impl, ses_ct_fields(&r) + 4, 2);
	memcpy(&o->scope, ses_ct_fields(&r) + 6, 2);
	ret = parse_records(o, &r);
	if (ret) {
		ses_ompt_release(o);
		return ret;
	}
	o->damaged_at = r.damaged_at;
	o->damage = r.damage;
	o->unknown_records = r.unknown;
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

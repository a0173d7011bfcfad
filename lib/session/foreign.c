// SPDX-License-Identifier: MIT
/*
 * A foreign session (foreign.h): the facts session.ini would hold, synthesized from a
 * perf pipe file in one pass over its records. Events come from the HEADER_ATTR records
 * (the reader keeps them), their names from the metadata records perf writes beside them,
 * everything else from the samples and side-band records. The file is untrusted: the
 * reader and the codec bound every read; the tables here are fixed-size and say when
 * they are full (later entries are ignored, never written past).
 */
#include "session/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAMES_MAX 256 /* names from EVENT_UPDATE / EVENT_DESC / EVENT_TYPE kept */
#define NAME_LEN 64

/* A name for the event of sample id @id (EVENT_UPDATE, EVENT_DESC with ids), for the
 * event described @index-th with @type/@config (EVENT_DESC), or for tracepoint @config
 * (EVENT_TYPE). */
struct name_ent {
	enum { BY_ID, BY_DESC, BY_TRACEPOINT } how;
	uint64_t id;
	uint32_t type;
	uint64_t config;
	int index;
	char name[NAME_LEN];
};

struct scan {
	struct ses_info *info;
	struct ses_reader *rd;
	struct name_ent names[NAMES_MAX];
	int nnames, ndesc;
	int side_pids[SES_MAX_PIDS]; /* from COMM and FORK, when no sample says */
	int nside_pids;
	int last_pid;
	bool any_time;
	uint64_t compressed_at; /* offset of the first COMPRESSED record, 0 none */
};

enum ses_perf_kind ses_perf_kind_of(const void *buf, size_t len)
{
	uint64_t hsize;

	if (len < SES_PIPE_HDR_SIZE || memcmp(buf, SES_PIPE_MAGIC, 8))
		return SES_PERF_OTHER;
	memcpy(&hsize, (const unsigned char *)buf + 8, 8);
	if (hsize == SES_PIPE_HDR_SIZE)
		return SES_PERF_PIPE;
	/* perf.data's struct perf_file_header: 104 bytes today, never below its 72 */
	return hsize >= 72 && hsize <= 4096 ? SES_PERF_FILE_MODE : SES_PERF_OTHER;
}

bool ses_attr_is_timer(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK);
}

static const char *const SW_NAMES[] = {
	"cpu-clock",	    "task-clock",   "page-faults",  "context-switches",
	"cpu-migrations",   "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy",	    "bpf-output",   "cgroup-switches",
};
static const char *const HW_NAMES[] = {
	"cycles",
	"instructions",
	"cache-references",
	"cache-misses",
	"branches",
	"branch-misses",
	"bus-cycles",
	"stalled-cycles-frontend",
	"stalled-cycles-backend",
	"ref-cycles",
};
static const char *const CACHE_NAMES[] = { "L1-dcache", "L1-icache", "LLC", "dTLB",
					   "iTLB",	"branch",    "node" };
static const char *const CACHE_OPS[] = { "load", "store", "prefetch" };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

void ses_perf_event_name(const struct perf_event_attr *a, char *buf, size_t len)
{
	uint64_t c = a->config, lo = c & 0xffffffffULL; /* hybrid PMUs: type above bit 32 */
	const char *mod = a->exclude_kernel && !a->exclude_user	  ? ":u"
			  : a->exclude_user && !a->exclude_kernel ? ":k"
								  : "";
	unsigned cache = (unsigned)(lo & 0xff), op = (unsigned)(lo >> 8 & 0xff),
		 res = (unsigned)(lo >> 16 & 0xff);

	if (a->type == PERF_TYPE_SOFTWARE && c < COUNT(SW_NAMES))
		snprintf(buf, len, "%s%s", SW_NAMES[c], mod);
	else if (a->type == PERF_TYPE_HARDWARE && lo < COUNT(HW_NAMES))
		snprintf(buf, len, "%s%s", HW_NAMES[lo], mod);
	else if (a->type == PERF_TYPE_HW_CACHE && cache < COUNT(CACHE_NAMES) &&
		 op < COUNT(CACHE_OPS) && res <= 1 && !(lo >> 24))
		snprintf(buf, len, "%s-%s%s%s", CACHE_NAMES[cache], CACHE_OPS[op],
			 res ? "-misses" : "s", mod);
	else if (a->type == PERF_TYPE_RAW)
		snprintf(buf, len, "r%llx%s", (unsigned long long)c, mod);
	else if (a->type == PERF_TYPE_TRACEPOINT)
		snprintf(buf, len, "tracepoint:%llu", (unsigned long long)c);
	else
		snprintf(buf, len, "%u:0x%llx%s", a->type, (unsigned long long)c, mod);
}

static void put_name(struct scan *s, struct name_ent e, const char *name, size_t len)
{
	if (s->nnames >= NAMES_MAX || !len)
		return;
	snprintf(e.name, sizeof(e.name), "%.*s", (int)len, name);
	s->names[s->nnames++] = e;
}

/* perf's strings of a feature into @dst (@cap bytes), blanks between them. */
static void feature_strings(const struct ses_feature *f, size_t off, uint32_t n, char *dst,
			    size_t cap)
{
	size_t used = 0;

	for (uint32_t i = 0; i < n && used + 1 < cap; i++) {
		const char *str;
		size_t slen;

		if (ses_feature_string(f, &off, &str, &slen))
			return;
		used += (size_t)snprintf(dst + used, cap - used, "%s%.*s", i ? " " : "", (int)slen,
					 str);
	}
}

static void take_feature(struct scan *s, const struct ses_record *rec)
{
	struct ses_info *in = s->info;
	struct ses_desc_iter it = { 0 };
	struct ses_event_desc d;
	struct ses_feature f;
	uint32_t n;

	if (ses_decode_feature(rec->data, rec->size, &f))
		return;
	switch (f.id) {
	case SES_FEAT_HOSTNAME:
		feature_strings(&f, 0, 1, in->host, sizeof(in->host));
		break;
	case SES_FEAT_OSRELEASE:
		feature_strings(&f, 0, 1, in->kernel, sizeof(in->kernel));
		break;
	case SES_FEAT_ARCH:
		feature_strings(&f, 0, 1, in->arch, sizeof(in->arch));
		break;
	case SES_FEAT_CPUDESC:
		feature_strings(&f, 0, 1, in->cpu_model, sizeof(in->cpu_model));
		break;
	case SES_FEAT_NRCPUS:
		if (f.len >= 4) {
			memcpy(&n, f.data, 4);
			in->ncpus = n <= 65536 ? (int)n : 0;
		}
		break;
	case SES_FEAT_CMDLINE:
		if (f.len >= 4) {
			memcpy(&n, f.data, 4);
			feature_strings(&f, 4, n, in->command, sizeof(in->command));
		}
		break;
	case SES_FEAT_EVENT_DESC:
		while (ses_event_desc_next(&f, &it, &d) == 1) {
			struct name_ent e = {
				BY_DESC, 0, d.attr.type, d.attr.config, s->ndesc++, ""
			};

			put_name(s, e, d.name, d.name_len);
			for (size_t k = 0; k < d.nids; k++) {
				e.how = BY_ID;
				e.id = ses_sample_u64(d.ids, k);
				put_name(s, e, d.name, d.name_len);
			}
		}
		break;
	default:
		break;
	}
}

static void add_pid(int *pids, int *n, int pid)
{
	for (int i = 0; i < *n; i++)
		if (pids[i] == pid)
			return;
	if (*n < SES_MAX_PIDS)
		pids[(*n)++] = pid;
}

static void take_sample(struct scan *s, const struct ses_record *rec)
{
	struct ses_info *in = s->info;
	struct ses_sample smp;

	if (ses_reader_sample(s->rd, rec, &smp))
		return; /* the report counts it as malformed */
	if (smp.time) {
		if (!s->any_time || (int64_t)smp.time < in->start_mono_ns)
			in->start_mono_ns = (int64_t)smp.time;
		if (!s->any_time || (int64_t)smp.time > in->end_mono_ns)
			in->end_mono_ns = (int64_t)smp.time;
		s->any_time = true;
	}
	/* -1: an idle CPU's sample (system-wide), nobody's */
	if (smp.pid != (uint32_t)-1 && smp.pid && (int)smp.pid != s->last_pid) {
		add_pid(in->pids, &in->npids, (int)smp.pid);
		s->last_pid = (int)smp.pid;
	}
}

static void take_record(struct scan *s, const struct ses_record *rec)
{
	const struct perf_event_attr *a = ses_reader_attr_of(s->rd, rec, NULL);
	struct ses_event_update u;
	struct ses_event_type t;
	struct ses_decoded d;

	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		s->info->samples++;
		take_sample(s, rec);
		break;
	case SES_RECORD_HEADER_FEATURE:
		take_feature(s, rec);
		break;
	case SES_RECORD_COMPRESSED:
	case SES_RECORD_COMPRESSED2:
		if (!s->compressed_at)
			s->compressed_at = rec->offset;
		break;
	case SES_RECORD_EVENT_UPDATE:
		if (!ses_decode_event_update(rec->data, rec->size, &u) && u.name)
			put_name(s, (struct name_ent){ BY_ID, u.id, 0, 0, -1, "" }, u.name,
				 u.name_len);
		break;
	case SES_RECORD_HEADER_EVENT_TYPE:
		if (!ses_decode_event_type(rec->data, rec->size, &t))
			put_name(s,
				 (struct name_ent){ BY_TRACEPOINT, 0, PERF_TYPE_TRACEPOINT,
						    t.event_id, -1, "" },
				 t.name, t.name_len);
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_LOST:
		if (ses_decode(a, rec->data, rec->size, &d))
			break;
		if (rec->type == PERF_RECORD_LOST)
			s->info->lost_samples += d.u.lost.lost;
		else if (rec->type == PERF_RECORD_COMM && (int)d.u.comm.pid > 0)
			add_pid(s->side_pids, &s->nside_pids, (int)d.u.comm.pid);
		else if (rec->type == PERF_RECORD_FORK && (int)d.u.task.pid > 0)
			add_pid(s->side_pids, &s->nside_pids, (int)d.u.task.pid);
		break;
	default:
		break;
	}
}

/* The name the file gives attr @i (@a), or NULL. By sample id first (EVENT_UPDATE's, or
 * EVENT_DESC's ids), then EVENT_DESC's i-th event when it describes one like @a, then the
 * tracepoint's EVENT_TYPE. */
static const char *file_name(const struct scan *s, int i, const struct perf_event_attr *a)
{
	for (int k = 0; k < s->nnames; k++) {
		const struct name_ent *e = &s->names[k];
		int idx = e->how == BY_ID ? ses_reader_attr_of_id(s->rd, e->id) : -1;

		if (e->how == BY_ID && idx == i)
			return e->name;
	}
	for (int k = 0; k < s->nnames; k++) {
		const struct name_ent *e = &s->names[k];

		if (e->how == BY_DESC && e->index == i && e->type == a->type &&
		    e->config == a->config)
			return e->name;
	}
	for (int k = 0; k < s->nnames; k++) {
		const struct name_ent *e = &s->names[k];

		if (e->how == BY_TRACEPOINT && a->type == PERF_TYPE_TRACEPOINT &&
		    e->config == a->config)
			return e->name;
	}
	return NULL;
}

/* perf's tracking event (dummy) and attrs that do not sample are not events. */
static bool samples(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY)
		return false;
	return a->freq ? a->sample_freq > 0 : a->sample_period > 0;
}

static void add_event(struct scan *s, int i, const struct perf_event_attr *a)
{
	struct ses_info *in = s->info;
	struct ses_event *e = &in->events[in->nevents++];
	const char *fname = file_name(s, i, a);
	char derived[NAME_LEN];

	if (!fname) {
		ses_perf_event_name(a, derived, sizeof(derived));
		fname = derived;
	}
	if (ses_attr_is_timer(a))
		snprintf(e->name, sizeof(e->name), "CPU_TIME (%.50s)", fname);
	else
		snprintf(e->name, sizeof(e->name), "%s", fname);
	e->type = a->type;
	e->config = a->config;
	e->exclude_kernel = a->exclude_kernel;
	e->exclude_user = a->exclude_user;
	e->attr = i;
	e->weighted = (a->sample_type & PERF_SAMPLE_PERIOD) != 0;
	/* a frequency without per-sample periods: nothing says a sample's worth, so each
	 * counts one */
	e->period = e->weighted || a->freq ? 1 : a->sample_period;
	if (in->callgraph_mode[0])
		return;
	if ((a->sample_type & PERF_SAMPLE_REGS_USER) && (a->sample_type & PERF_SAMPLE_STACK_USER)) {
		snprintf(in->callgraph_mode, sizeof(in->callgraph_mode), "dwarf");
		in->callgraph_stack_bytes = a->sample_stack_user;
	} else if (a->sample_type & PERF_SAMPLE_CALLCHAIN) {
		snprintf(in->callgraph_mode, sizeof(in->callgraph_mode), "fp");
	}
	if (in->callgraph_mode[0]) {
		in->callgraph_depth = a->sample_max_stack;
		snprintf(in->callgraph_scope, sizeof(in->callgraph_scope), "%s",
			 e->exclude_kernel ? "user"
			 : e->exclude_user ? "kernel"
					   : "all");
	}
}

static void defaults(struct ses_info *in)
{
	memset(in, 0, sizeof(*in));
	in->format_version = SES_FORMAT_VERSION;
	snprintf(in->config, sizeof(in->config), "foreign");
	snprintf(in->label, sizeof(in->label), "perf pipe file");
	snprintf(in->description, sizeof(in->description), "a perf pipe file");
	snprintf(in->target_path, sizeof(in->target_path), "unknown");
	in->status = SES_STATUS_COMPLETE;
	in->exit_code = -1;
	in->foreign = true;
}

int ses_foreign_info(const void *buf, size_t len, struct ses_info *info, int *skipped_attrs,
		     char *err, size_t errlen)
{
	struct scan *s = calloc(1, sizeof(*s));
	struct ses_record rec;
	size_t nattrs;
	int ret;

	if (skipped_attrs)
		*skipped_attrs = 0;
	defaults(info);
	if (!s)
		return -ENOMEM;
	s->info = info;
	ret = ses_reader_open_mem(&s->rd, buf, len, err, errlen);
	if (ret)
		goto out;
	while ((ret = ses_reader_next(s->rd, &rec)) == 1)
		take_record(s, &rec);
	if (ret < 0)
		goto out;
	nattrs = ses_reader_nattrs(s->rd);
	if (s->compressed_at) {
		ses_errf(err, errlen,
			 "offset %llu: zstd-compressed records (perf record -z), "
			 "which uprof does not unpack",
			 (unsigned long long)s->compressed_at);
		ret = -EOPNOTSUPP;
		goto out;
	}
	if (!nattrs) {
		const char *why = NULL;
		uint64_t at = ses_reader_damage(s->rd, &why);

		ses_errf(err, errlen, "offset %llu: %s", (unsigned long long)(at ? at : 16),
			 at ? why : "no event description (HEADER_ATTR record) in the file");
		ret = -EINVAL;
		goto out;
	}
	for (size_t i = 0; i < nattrs; i++) {
		const struct perf_event_attr *a = ses_reader_attr(s->rd, i);

		if (!samples(a))
			continue;
		if (info->nevents < SES_MAX_EVENTS)
			add_event(s, (int)i, a);
		else if (skipped_attrs)
			(*skipped_attrs)++;
	}
	if (!info->nevents) {
		ses_errf(err, errlen,
			 "offset 16: no sampling event in the file (only perf's "
			 "tracking event, or events that only count)");
		ret = -EINVAL;
		goto out;
	}
	if (!info->npids)
		for (int i = 0; i < s->nside_pids; i++)
			info->pids[info->npids++] = s->side_pids[i];
out:
	ses_reader_free(s->rd);
	free(s);
	return ret;
}

// SPDX-License-Identifier: MIT
/*
 * Loading a session: session.ini, then samples.data in time order. Rings of different
 * CPUs are written interleaved, so records are sorted by their time stamp (stable on
 * file order) before side-band records and samples are replayed; a sample is then
 * resolved against the mappings that existed at its time. Samples are only counted per
 * (thread, module, address) here; symbols come after, once per distinct address.
 */
#include "report/internal.h"
#include "annotate/annotate.h"
#include "arch/arch.h"
#include "report/stacks.h"
#include "symbols/symbols.h"
#include "openmp/openmp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void errf(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* A FIFO, a device or a directory where collect writes a regular file: nothing to
 * read (input.c refused it before it could hang the report). */
#define NOT_REGULAR "%s%s%s %s; collect writes a regular file there: nothing to report"

/*
 * Every record is decoded once, on the first pass; what replay needs is kept: for a plain
 * sample its few fields inline, for side-band records and samples with call stacks the
 * whole decoded record in @side (their strings and stacks point into the mapped file).
 */
#define NO_SIDE UINT32_MAX

/*
 * Entries and keys are packed (28 and 12 bytes, not 32 and 16): with the sort's copy of the
 * keys they are most of a report's peak memory, one of each per record.
 */
struct __attribute__((packed, aligned(4))) entry {
	uint64_t ip;
	uint32_t pid, tid;
	uint32_t side;	      /* index in side[], or NO_SIDE */
	uint16_t type;	      /* the record's, TYPE_OTHER past 16 bits (replay tells only
			  * SAMPLE and LOST from the others) */
	int16_t decoded;      /* ses_reader_decode()'s result: 0 or -errno */
	int16_t attr;	      /* a sample's attr index */
	uint16_t cpumode : 3; /* misc & PERF_RECORD_MISC_CPUMODE_MASK */
	uint16_t cpu : 13;    /* for rpt_walk(); WALK_CPU_FAR: 8191 or more */
};
#define WALK_CPU_FAR 8191
_Static_assert(sizeof(struct entry) == 28, "an entry per record: keep it packed");
#define TYPE_OTHER UINT16_MAX

/* The sort key: time, then file order (stable). */
struct __attribute__((packed, aligned(4))) key {
	uint64_t time;
	uint32_t seq;
};

struct loaded {
	struct entry *e;
	struct key *k;
	size_t n, cap;
	size_t nsamples;   /* of n */
	uint64_t *periods; /* each record's sample period (0: none) */
	struct ses_decoded *side;
	size_t nside, capside;
};

static void loaded_release(struct loaded *l)
{
	free(l->e);
	free(l->k);
	free(l->periods);
	free(l->side);
}

static int grow_to(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t ncap = *cap ? *cap : first;
	void *q;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	q = realloc(*p, ncap * elem);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = ncap;
	return 0;
}

static bool key_lt(const struct key *a, const struct key *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/*
 * Sort by (time, seq). Rings of different CPUs are written one after the other each
 * round, so the records come as a few long ascending runs: a natural merge sort merges
 * those runs (log2(runs) passes, no comparison callback) instead of sorting from scratch.
 */
static int sort_keys(struct key *k, size_t n)
{
	struct key *tmp, *src = k, *dst;
	size_t *runs, nruns = 0;
	int ret = 0;

	if (n < 2)
		return 0;
	runs = malloc((n + 1) * sizeof(*runs));
	tmp = malloc(n * sizeof(*tmp));
	if (!runs || !tmp) {
		ret = -ENOMEM;
		goto out;
	}
	runs[nruns++] = 0;
	for (size_t i = 1; i < n; i++)
		if (key_lt(&k[i], &k[i - 1]))
			runs[nruns++] = i;
	runs[nruns] = n;
	dst = tmp;
	while (nruns > 1) {
		size_t m = 0;

		for (size_t r = 0; r < nruns; r += 2) {
			/* runs r and r + 1 (boundaries runs[r..r+2]); a last odd run is copied */
			size_t a = runs[r], mid = runs[r + 1];
			size_t b = r + 2 <= nruns ? runs[r + 2] : mid, i = a, j = mid, o = a;

			while (i < mid && j < b)
				dst[o++] = key_lt(&src[j], &src[i]) ? src[j++] : src[i++];
			memcpy(dst + o, src + i, (mid - i) * sizeof(*dst));
			o += mid - i;
			memcpy(dst + o, src + j, (b - j) * sizeof(*dst));
			runs[m++] = a;
		}
		runs[m] = n;
		nruns = m;
		src = dst;
		dst = src == k ? tmp : k;
	}
	if (src != k)
		memcpy(k, src, n * sizeof(*k));
out:
	free(runs);
	free(tmp);
	return ret;
}

/* Entries and keys grow together. */
static int grow_entries(struct loaded *l)
{
	size_t cap = l->cap ? l->cap * 2 : 4096;
	void *e, *k;

	if (l->n < l->cap)
		return 0;
	if (cap > UINT32_MAX) /* keys hold 32-bit record numbers; 4G records: 100+ GB */
		return -ENOMEM;
	e = realloc(l->e, cap * sizeof(*l->e));
	if (e)
		l->e = e;
	k = e ? realloc(l->k, cap * sizeof(*l->k)) : NULL;
	if (k)
		l->k = k;
	if (k && l->periods) {
		k = realloc(l->periods, cap * sizeof(*l->periods));
		if (k)
			l->periods = k;
	}
	if (!e || !k)
		return -ENOMEM;
	l->cap = cap;
	return 0;
}

/* Decode @rec, once, into the next entry (and a side slot when replay needs more). */
static int load_record(const struct ses_reader *rd, const struct ses_record *rec, struct loaded *l,
		       struct ses_leaf_reader *lr, uint64_t seq)
{
	struct ses_decoded *d;
	struct entry *e;
	int ret;

	if (grow_entries(l) ||
	    grow_to((void **)&l->side, &l->capside, l->nside + 1, sizeof(*l->side), 256))
		return -ENOMEM;
	d = &l->side[l->nside];
	ret = ses_reader_decode(rd, rec, d);
	e = &l->e[l->n];
	if (l->periods)
		l->periods[l->n] = !ret && rec->type == PERF_RECORD_SAMPLE ? d->u.sample.period : 0;
	*e = (struct entry){
		0, 0, 0, NO_SIDE, rec->type < TYPE_OTHER ? rec->type : TYPE_OTHER, (int16_t)ret,
		0, 0, 0
	};
	if (rec->type != PERF_RECORD_SAMPLE) {
		e->side = (uint32_t)l->nside++;
	} else if (!ret) {
		struct ses_sample *s = &d->u.sample;

		rpt_leafstack_attach(lr, seq, ses_reader_attr(rd, (size_t)s->attr_index), s);
		l->nsamples++;
		e->ip = s->ip;
		e->pid = s->pid;
		e->tid = s->tid;
		e->attr = (int16_t)s->attr_index;
		e->cpumode = s->cpumode & 7;
		e->cpu = s->cpu < WALK_CPU_FAR ? s->cpu : WALK_CPU_FAR;
		if (s->ips || s->regs || s->stack)
			e->side = (uint32_t)l->nside++;
	}
	l->k[l->n] = (struct key){ ret ? 0 : ses_decoded_time(d), (uint32_t)l->n };
	l->n++;
	return 0;
}

/* What a sample of event @ev adds to the tallies (ses_sample_units): 1, or the period
 * the kernel recorded in it for a weighted event (rpt_events_weigh). A session's sample
 * without one (written without PERF_SAMPLE_PERIOD) stands for the interval asked for. */
static uint64_t units_of(const struct rpt *r, int ev, uint64_t period)
{
	const struct ses_sample s = { .period = period };
	const struct ses_event *e;

	if (ev < 0 || ev >= r->info.nevents)
		return 1;
	e = &r->info.events[ev];
	if (e->weighted && !period && !r->info.foreign)
		return e->period;
	return ses_sample_units(e, &s);
}

static int count_sample(struct rpt *r, const struct ses_reader *rd, const struct entry *e,
			const struct ses_sample *full, uint64_t time, uint64_t period)
{
	uint64_t units;
	struct rpt_thread *t;
	struct ses_sample s;
	uint64_t *slot, addr;
	int module, ev, ret;

	if (e->decoded) {
		r->unparsable++;
		return 0;
	}
	if (e->pid == (uint32_t)-1 || e->tid == (uint32_t)-1)
		return 0; /* idle / no task: not the target's time */
	if (rpt_paused_at(r, time)) {
		r->paused_samples++;
		return 0;
	}
	if (!rpt_filter_keeps(r, (int)e->pid, time)) {
		r->filtered_samples++;
		return 0;
	}
	if (rpt_pause_unknown_at(r, time))
		r->unknown_samples++; /* kept, and said (man uprof-report: Pause State Unknown) */
	if (e->cpumode == PERF_RECORD_MISC_KERNEL || e->cpumode == PERF_RECORD_MISC_GUEST_KERNEL) {
		module = RPT_MODULE_KERNEL;
		addr = e->ip;
	} else {
		const struct rpt_map *m = rpt_world_find_map(&r->world, (int)e->pid, e->ip);

		module = m ? m->module : RPT_MODULE_UNKNOWN;
		addr = m ? e->ip - m->start + m->pgoff : e->ip;
	}
	t = rpt_world_thread(&r->world, (int)e->pid, (int)e->tid);
	if (!t)
		return -ENOMEM;
	ev = rpt_events_of_attr(r, rd, e->attr);
	if (ev < 0)
		return 0; /* not a sampling event of the session */
	units = units_of(r, ev, period);
	r->kept_samples++;
	if (r->opts.walk &&
	    rpt_walk_note(r, &(struct rpt_wsample){ time, e->ip, addr,
						    (uint32_t)(t - r->world.threads), UINT32_MAX,
						    module,
						    e->cpu == WALK_CPU_FAR ? UINT16_MAX : e->cpu,
						    (uint16_t)ev, units }))
		return -ENOMEM;
	if (ev > 0) /* a further event: a column beside the sort event */
		return rpt_events_count(r, ev, (uint32_t)(t - r->world.threads), module, addr,
					units);
	if (r->has_tasks && rpt_tasks_note_sample(r, e->tid, time))
		return -ENOMEM;
	slot = util_hash_slot(&r->addr_counts, (uint64_t)(t - r->world.threads), (uint64_t)module,
			      addr);
	if (!slot)
		return -ENOMEM;
	*slot += units;
	r->samples += units;
	r->sample_records++;
	if (!full) {
		/* no stack: what stacks need of it, rebuilt from the entry */
		s = (struct ses_sample){ .ip = e->ip,
					 .pid = e->pid,
					 .tid = e->tid,
					 .time = time,
					 .attr_index = e->attr,
					 .cpumode = e->cpumode };
		full = &s;
	}
	ret = rpt_stacks_sample(r, rd, full, (uint32_t)(t - r->world.threads), module, addr, units);
	if (!ret && r->opts.walk)
		r->wsamples[r->nwsamples - 1].stack = r->stacks->last_stack;
	return ret;
}

static int replay(struct rpt *r, struct ses_reader *rd, struct ses_leaf_reader *lr,
		  const struct loaded *l)
{
	/* what replay handed back of samples.data and leafstack.data (time order is close to
	 * file order: the stack copies, most of either file, come in order) */
	size_t handed = 0, handed_leaf = 0;
	int ret = 0;

	for (size_t i = 0; i < l->n && !ret; i++) {
		const struct entry *e = &l->e[l->k[i].seq];

		if (r->opts.progress && i % RPT_PROGRESS_EVERY == 0)
			r->opts.progress(r->opts.progress_arg,
					 &(struct rpt_progress){ .pass = 2,
								 .records = i,
								 .of_records = l->n });
		const struct ses_decoded *d = e->side == NO_SIDE ? NULL : &l->side[e->side];

		if (d && e->type == PERF_RECORD_SAMPLE) {
			/* where the sample lies in the file: its stack copy or its fp chain (a
			 * -g leaf copy points into leafstack.data, not here) */
			size_t at = d->u.sample.stack ? ses_reader_offset_of(rd, d->u.sample.stack)
						      : SIZE_MAX;
			size_t leaf = d->u.sample.stack && at == SIZE_MAX
					      ? ses_leaf_reader_offset_of(lr, d->u.sample.stack)
					      : SIZE_MAX;

			if (at == SIZE_MAX && d->u.sample.ips)
				at = ses_reader_offset_of(rd, d->u.sample.ips);
			if (at != SIZE_MAX && at > handed)
				handed = ses_reader_hand_back(rd, handed, at);
			if (leaf != SIZE_MAX && leaf > handed_leaf)
				handed_leaf = ses_leaf_reader_hand_back(lr, handed_leaf, leaf);
		}
		switch (e->type) {
		case PERF_RECORD_SAMPLE:
			r->tr_seq = l->k[i].seq;
			ret = count_sample(r, rd, e, d ? &d->u.sample : NULL, l->k[i].time,
					   l->periods ? l->periods[l->k[i].seq] : 0);
			break;
		case PERF_RECORD_THROTTLE:
			if (e->decoded)
				r->unparsable++;
			else
				r->throttles++;
			break;
		case PERF_RECORD_LOST:
			if (e->decoded)
				r->unparsable++;
			else
				r->lost += d->u.lost.lost;
			break;
		case PERF_RECORD_EXIT:
			/* a process's end (not a thread's): its unwinder state can go */
			if (!e->decoded && d && d->u.task.pid == d->u.task.tid)
				rpt_stacks_process_gone(r->stacks, (int)d->u.task.pid);
			ret = rpt_world_apply(&r->world, d, e->decoded);
			if (ret == -EINVAL) {
				r->unparsable++;
				ret = 0;
			}
			break;
		default:
			ret = rpt_world_apply(&r->world, d, e->decoded);
			if (ret == -EINVAL) {
				r->unparsable++;
				ret = 0;
			}
		}
	}
	return ret;
}

static int read_samples(struct rpt *r, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], why[256];
	struct ses_reader *rd = NULL;
	struct ses_leaf_reader *lr = NULL;
	struct loaded l = { 0 };
	struct ses_record rec;
	uint64_t nrec = 0, size = 0;
	int ret;

	if (r->info.foreign) /* a perf pipe file: r->dir is the file, as the user named it */
		snprintf(path, sizeof(path), "%s", r->dir);
	else
		snprintf(path, sizeof(path), "%s/" SES_DATA_FILE, r->dir);
	ret = r->info.foreign ? ses_reader_open_file(&rd, path, why, sizeof(why))
			      : ses_reader_open_at(&rd, r->dfd, SES_DATA_FILE, why, sizeof(why));
	if (ret == -SES_ENOTREG)
		errf(err, errlen, NOT_REGULAR, path, "", "", why);
	else if (ret == -ELOOP || ret == -EXDEV) /* another user's link: not followed */
		errf(err, errlen, "%s %s", path, why);
	else if (ret && !r->counts_final) /* missing or without its header */
		errf(err, errlen,
		     "%s: %s: collect was interrupted before it wrote the file's "
		     "header; nothing to report",
		     path, why);
	else if (ret)
		errf(err, errlen, "%s: %s", path, why);
	if (ret)
		return ret;
	if (r->opts.progress)
		size = ses_reader_size(rd);
	/* its bytes back fp samples' leaf copies until replay ends (a session's own file) */
	lr = r->info.foreign ? NULL : rpt_leafstack_open(r);
	if (!(l.periods = malloc(sizeof(*l.periods)))) {
		ret = -ENOMEM;
		goto out;
	}
	while ((ret = ses_reader_next(rd, &rec)) == 1) {
		if (r->opts.progress && ++nrec % RPT_PROGRESS_EVERY == 0)
			r->opts.progress(r->opts.progress_arg,
					 &(struct rpt_progress){ .pass = 1,
								 .records = nrec,
								 .bytes = rec.offset,
								 .of_bytes = size });
		if (rec.type == SES_RECORD_HEADER_ATTR || rec.type == SES_RECORD_FINISHED_ROUND)
			continue;
		if (rec.type == PERF_RECORD_SAMPLE) /* what collect counted, decodable or not */
			r->file_samples++;
		ret = load_record(rd, &rec, &l, lr, r->file_samples - 1);
		if (ret)
			goto out;
	}
	if (ret < 0)
		goto out;
	r->damaged_at = ses_reader_damage(rd, &r->damage);
	/* a file cut right after its header reads cleanly, but collect writes its events'
	 * descriptions first: without one, nothing in it can be read */
	if (!r->damaged_at && !l.n && !ses_reader_nattrs(rd)) {
		r->damaged_at = 16;
		r->damage = "nothing after the 16-byte header: cut before collect wrote its "
			    "events";
	}
	ret = sort_keys(l.k, l.n);
	if (!ret)
		ret = rpt_stacks_reserve(r->stacks, l.nsamples);
	if (!ret && r->opts.walk)
		ret = rpt_walk_reserve(r, l.nsamples);
	if (!ret)
		ret = replay(r, rd, lr, &l);
	/* its decompressed CFI is the largest thing a dwarf report holds: not kept while
	 * the call graph opens every module's DWARF */
	rpt_stacks_unwound(r->stacks);
	rpt_leafstack_close(r, lr);
out:
	loaded_release(&l);
	ses_leaf_reader_free(lr);
	ses_reader_free(rd);
	return ret;
}

/* vdso.so can be an ELF image of a few pages; a larger one is not the kernel's */
#define VDSO_MAX_BYTES (16u << 20)

/*
 * The session's vdso.so, read beneath its fd (a regular file, no symlink followed), into
 * a memfd of ours that the symbol table and the unwinder read (r->vdso_file). None there,
 * or refused: they use this process's own vDSO, as when collect saved none. -ENOMEM only.
 */
static int copy_vdso(struct rpt *r)
{
	struct stat sb;
	char *buf = NULL;
	size_t len = 0, done = 0;
	int fd, ret;

	if (!fstat(r->dfd, &sb))
		ret = rpt_symtab_set_vdso(r->symtab, NULL, sb.st_uid);
	else
		ret = rpt_symtab_set_vdso(r->symtab, NULL, geteuid());
	if (ret)
		return ret;
	ret = util_at_read_all(r->dfd, "vdso.so", VDSO_MAX_BYTES, &buf, &len);
	if (ret)
		return ret == -ENOMEM ? ret : 0;
	fd = memfd_create("vdso.so", MFD_CLOEXEC);
	while (fd >= 0 && done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			fd = -1;
			break;
		}
		done += (size_t)n;
	}
	free(buf);
	if (fd < 0)
		return 0;
	r->vdso_fd = fd;
	snprintf(r->vdso_file, sizeof(r->vdso_file), "/proc/self/fd/%d", fd);
	return rpt_symtab_set_vdso(r->symtab, r->vdso_file, sb.st_uid);
}

/* A session whose collector is gone but whose status still says running was killed. */
static void settle_status(struct ses_info *in)
{
	if (in->status != SES_STATUS_RUNNING)
		return;
	if (in->collector_pid <= 0 || kill(in->collector_pid, 0) != 0)
		in->status = SES_STATUS_INTERRUPTED;
}

/* Registers, unwinding rules and address layout are this architecture's (lib/arch): a
 * session of another one is refused, not misread. No arch key: an x86_64 session. */
static int check_arch(const struct rpt *r, char *err, size_t errlen)
{
	const char *arch = r->info.arch[0] ? r->info.arch : ARCH_DEFAULT_NAME;

	if (!strcmp(arch, arch_this.name))
		return 0;
	errf(err, errlen, "%s is a session of %s; this uprof reports %s sessions only", r->dir,
	     arch, arch_this.name);
	return -EPROTO;
}

/*
 * No session.ini. collect makes the session directory first and writes session.ini once
 * the target and its events are set up (tens of ms later): a collect killed in between
 * leaves a directory of its own name holding nothing, or only files written before
 * session.ini (vdso.so). That is said as such, not as "not a session".
 */
static void explain_no_info(int dfd, const char *dir, char *err, size_t errlen)
{
	const char *base = strrchr(dir, '/');
	bool collects = true;
	struct dirent *e;
	DIR *d = NULL;
	int fd;

	base = base ? base + 1 : dir;
	/* a new fd of the directory held: the listing is of what was opened */
	fd = dfd < 0 || strncmp(base, "uprof-", 6) ? -1 : util_at_dir(dfd, ".");
	if (fd >= 0 && !(d = fdopendir(fd)))
		close(fd);
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, "vdso.so") && strcmp(e->d_name, SES_DATA_FILE) &&
		    strcmp(e->d_name, "." SES_INFO_FILE ".tmp")) /* killed inside its write */
			collects = false;
	if (d)
		closedir(d);
	if (d && collects)
		errf(err, errlen,
		     "%s holds no profile: collect was interrupted before it wrote "
		     "session.ini (killed right after it started?); nothing to report",
		     dir);
	else
		errf(err, errlen, "%s is not a uprof session (no session.ini)", dir);
}

int rpt_open(struct rpt **out, const char *dir, const struct rpt_options *opts, char *err,
	     size_t errlen)
{
	/* the user's path, followed as named, once; anything but a directory may be a perf
	 * pipe file (O_DIRECTORY fails on a FIFO before it could block) */
	int dfd = util_dir_open(dir);
	int ret;

	*out = NULL;
	if (dfd < 0 && dfd != -ENOTDIR) {
		if (dfd == -ENOENT)
			explain_no_info(-1, dir, err, errlen);
		else
			errf(err, errlen, "%s: %s", dir, strerror(-dfd));
		return dfd;
	}
	ret = rpt_open_at(out, dfd < 0 ? -1 : dfd, dir, opts, err, errlen);
	if (dfd >= 0)
		close(dfd);
	return ret;
}

int rpt_open_at(struct rpt **out, int dfd, const char *dir, const struct rpt_options *opts,
		char *err, size_t errlen)
{
	bool foreign = dfd < 0;
	struct rpt *r;
	char why[256];
	int ret;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->opts = *opts;
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	/* our own fd of the directory, held until rpt_free (the caller's is borrowed) */
	r->dfd = foreign ? -1 : fcntl(dfd, F_DUPFD_CLOEXEC, 3);
	r->vdso_fd = -1;
	if (!foreign && r->dfd < 0) {
		ret = -errno;
		errf(err, errlen, "%s: %s", dir, strerror(-ret));
		goto fail;
	}
	if (foreign)
		ret = rpt_foreign_open(r, dir, err, errlen);
	else
		ret = ses_info_read_at(r->dfd, &r->info, why, sizeof(why));
	if (ret && foreign) {
		goto fail;
	} else if (ret) {
		if (ret == -ENOENT)
			explain_no_info(r->dfd, dir, err, errlen);
		else if (ret == -SES_ENOTREG)
			errf(err, errlen, NOT_REGULAR, dir, "/", SES_INFO_FILE, why);
		else if (ret == -ELOOP || ret == -EXDEV) /* another user's link: not followed */
			errf(err, errlen, "%s/" SES_INFO_FILE " %s", dir, why);
		else
			errf(err, errlen, "%s/session.ini: %s", dir, why);
		goto fail;
	}
	/* collect rewrites session.ini with its final counts at the end; one left running
	 * holds the counts of the start */
	r->counts_final = r->info.status != SES_STATUS_RUNNING || r->info.foreign;
	settle_status(&r->info);
	ret = check_arch(r, err, errlen);
	if (!ret && !r->info.foreign)
		rpt_events_weigh(r);
	if (!ret)
		ret = rpt_events_init(r, err, errlen);
	if (ret)
		goto fail;
	/* a foreign file has none of a session's other files (pauses, tasks, vdso.so) */
	ret = r->info.foreign ? 0 : rpt_pauses_load(r, err, errlen);
	if (ret)
		goto fail;
	r->has_tasks = !r->info.foreign && rpt_tasks_present(r);
	ret = rpt_world_init(&r->world);
	if (ret)
		goto fail;
	r->symtab = rpt_symtab_new(NULL, opts->kallsyms);
	if (r->symtab && !r->info.foreign && copy_vdso(r)) {
		ret = -ENOMEM;
		goto fail;
	}
	r->stacks = rpt_stacks_new(r);
	r->locator = rpt_locator_new(
		&(struct rpt_locate_opts){ opts->bin_paths, opts->nbin_paths, opts->symbol_paths,
					   opts->nsymbol_paths, opts->buildid_dir });
	if (!r->symtab || !r->stacks || !r->locator) {
		ret = -ENOMEM;
		goto fail;
	}
	rpt_symtab_set_locator(r->symtab, r->locator);
	ret = r->info.foreign ? 0 : rpt_tr_open(r); /* translated.bin: a session's */
	if (!ret)
		ret = read_samples(r, err, errlen);
	if (ret)
		goto fail;
	if (opts->translate_only)
		goto done;
	rpt_rates_settle(r);
	ret = rpt_aggregate(r);
	if (ret)
		goto fail;
	ret = rpt_tasks_load(r);
	if (!ret && !r->info.foreign)
		ret = rpt_omp_load(r);
	if (!ret)
		/* inline chains only show in call stack and task sections; exports ask later */
		ret = rpt_callgraph_build(r, r->stacks->collected || r->has_tasks);
	if (!ret)
		ret = rpt_fpstack_early(r);
	if (!ret && opts->annotate)
		ret = rpt_annot_build(r);
	if (ret)
		goto fail;
done:
	*out = r;
	return 0;
fail:
	if (ret == -ENOMEM)
		errf(err, errlen, "out of memory");
	rpt_free(r);
	return ret;
}

void rpt_free(struct rpt *r)
{
	if (!r)
		return;
	rpt_events_release(r);
	rpt_world_release(&r->world);
	rpt_symtab_free(r->symtab);
	rpt_stacks_free(r->stacks);
	rpt_locator_free(r->locator); /* after its users, the symtab and the unwinder */
	free(r->funcs);
	util_hash_release(&r->addr_counts);
	util_hash_release(&r->func_index);
	util_hash_release(&r->proc_func);
	util_hash_release(&r->proc_module);
	util_hash_release(&r->thread_func);
	util_hash_release(&r->thread_module);
	util_hash_release(&r->module_func);
	rpt_programs_release(r);
	rpt_tasks_release(r);
	rpt_omp_free(r->omp);
	util_hash_release(&r->extra_addr);
	util_hash_release(&r->extra);
	free(r->pauses);
	rpt_walk_release(r);
	rpt_annot_free(r);
	rpt_tr_close(r);
	free(r->unknown);
	if (r->vdso_fd >= 0) /* after the symtab and the unwinder, which read it */
		close(r->vdso_fd);
	if (r->dfd >= 0)
		close(r->dfd);
	free(r);
}

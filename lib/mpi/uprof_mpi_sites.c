// SPDX-License-Identifier: MIT
/*
 * lib/mpi: the call-site table (sites.h) and its flush into SITE and SITES records
 * (lib/session/mpi_sites.h). Looking a site up costs a hash and, once claimed, one
 * compare of the key in the same cache line as the counters it then adds to.
 */
#include "mpi/internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct umpi_site umpi_sites[UMPI_SITES];
uint64_t umpi_sites_lost;
int umpi_chain_depth;
__thread struct umpi_site *umpi_site_cur __attribute__((tls_model("initial-exec")));
/* this thread's stack, [lo, hi): the caller chain is read within it only; hi 1: unknown */
static __thread uintptr_t stack_lo, stack_hi __attribute__((tls_model("initial-exec")));

static const char *const site_names[UMPI_NFUNCS] = {
#define X(n, k) [UMPI_##n] = "MPI_" #n,
	UPROF_MPI_FUNCS(X) UPROF_MPI_FUNCS_MORE(X)
#undef X
};

void umpi_sites_start(void)
{
	const char *d = getenv(SES_MPI_ENV_CHAIN);
	int n = d ? atoi(d) : 0;

	umpi_chain_depth = n < 0 ? 0 : n > SES_MPI_CHAIN_MAX ? SES_MPI_CHAIN_MAX : n;
}

/* Once a thread (its first MPI call with callers kept): where its stack is. */
static void stack_bounds(void)
{
	pthread_attr_t a;
	void *lo = NULL;
	size_t size = 0;

	stack_hi = 1;
	if (pthread_getattr_np(pthread_self(), &a))
		return;
	if (!pthread_attr_getstack(&a, &lo, &size) && lo && size) {
		stack_lo = (uintptr_t)lo;
		stack_hi = (uintptr_t)lo + size;
	}
	pthread_attr_destroy(&a);
}

/* The return addresses of the frames above the wrapper's @fp: its saved frame pointer is
 * the calling function's frame, whose second word returns into that function's caller.
 * Each step must go up the stack, aligned, within this thread's stack: a function built
 * without frame pointers ends the chain, never a read outside the stack. */
static void callers(const void *fp, uint64_t *chain)
{
	const uintptr_t *frame = fp;

	for (int i = 0; i < umpi_chain_depth; i++) {
		uintptr_t next = frame[0];

		if (next <= (uintptr_t)frame || (next & 7) || next < stack_lo ||
		    next + 2 * sizeof(uintptr_t) > stack_hi)
			break;
		frame = (const uintptr_t *)next;
		chain[i] = frame[1];
	}
}

struct umpi_site *umpi_site_find(enum umpi_func f, const void *ret, const void *fp)
{
	uint64_t addr = (uint64_t)(uintptr_t)ret, key = addr << 8 | ((uint64_t)f + 1), h;
	uint64_t chain[SES_MPI_CHAIN_MAX] = { 0 };

	if (fp && !stack_hi)
		stack_bounds();
	/* a thread whose stack is unknown keeps its sites by return address alone, always */
	if (fp && stack_hi != 1) {
		callers(fp, chain);
		h = addr;
		for (int i = 0; i < SES_MPI_CHAIN_MAX; i++)
			h = (h ^ chain[i]) * 0x9e3779b97f4a7c15ULL + (uint64_t)i;
		key = (h & ~0xffULL) | ((uint64_t)f + 1);
		key |= key >> 8 ? 0 : 0x100; /* never 0 above the function: 0 is free */
	}

	/* user-space addresses fit in 56 bits on every platform uprof runs on (x86-64 and
	 * arm64: 48, or 57 with 5-level paging, which only a program's mmap hint reaches) */
	if (addr >> 56)
		goto lost;
	h = umpi_site_home(key);
	for (int i = 0; i < UMPI_SITE_PROBES; i++) {
		struct umpi_site *s = &umpi_sites[(h + (uint64_t)i) & (UMPI_SITES - 1)];
		uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE), zero = 0;

		if (k == key)
			return s;
		if (k)
			continue;
		if (__atomic_compare_exchange_n(&s->key, &zero, key, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			/* ours: what the key hashes (read at the flush, when it has calls) */
			__atomic_store_n(&s->addr, addr, __ATOMIC_RELAXED);
			for (int c = 0; c < SES_MPI_CHAIN_MAX; c++)
				__atomic_store_n(&s->chain[c], chain[c], __ATOMIC_RELAXED);
			return s;
		}
		if (zero == key) /* another thread claimed it for the same site */
			return s;
	}
lost:
	umpi_add(&umpi_sites_lost, 1);
	return NULL;
}

size_t umpi_sites_bytes(void)
{
	return UMPI_SITES * (16 + sizeof(struct ses_mpi_rec_site) +
			     sizeof(struct ses_mpi_rec_site_chain)) +
	       8 + sizeof(struct ses_mpi_rec_sites);
}

static uint64_t rd(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* One site's record, kept self-consistent whatever a flush from a signal interrupted: the
 * message count is the histogram's, and the sizes agree with it. */
static void site_record(const struct umpi_site *s, uint64_t key, struct ses_mpi_rec_site *o,
			int64_t now_ns, uint64_t now_tsc)
{
	const char *name = site_names[(key & 0xff) - 1];
	uint64_t min_plus1 = rd(&s->min_plus1);

	memset(o, 0, sizeof(*o));
	memcpy(o->name, name, strnlen(name, sizeof(o->name) - 1));
	o->addr = umpi_chain_depth ? rd(&s->addr) : key >> 8;
	o->calls = rd(&s->calls);
	o->time_ns = umpi_ticks_ns(rd(&s->ticks), now_ns, now_tsc);
	for (int b = 0; b < SES_MPI_HIST_BUCKETS; b++)
		o->messages += o->hist[b] = rd(&s->hist[b]);
	if (!o->messages)
		return;
	o->bytes = rd(&s->bytes);
	o->max_bytes = rd(&s->max_bytes);
	o->min_bytes = min_plus1 ? min_plus1 - 1 : 0;
	if (o->min_bytes > o->max_bytes)
		o->min_bytes = o->max_bytes;
	if (o->bytes < o->max_bytes)
		o->bytes = o->max_bytes;
}

size_t umpi_sites_put(char *buf, size_t cap, size_t off, int64_t now_ns, uint64_t now_tsc,
		      uint64_t *nrecords)
{
	struct ses_mpi_rec_sites sum = { .capacity = UMPI_SITES };
	size_t n;

	for (int i = 0; i < UMPI_SITES; i++) {
		const struct umpi_site *s = &umpi_sites[i];
		uint64_t key = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
		struct ses_mpi_rec_site o;

		if (!key || (key & 0xff) > UMPI_NFUNCS || !rd(&s->calls))
			continue;
		site_record(s, key, &o, now_ns, now_tsc);
		n = ses_ct_put_record(buf + off, cap - off, SES_MPI_REC_SITE, &o, sizeof(o), NULL,
				      0);
		if (!n)
			break;
		off += n;
		sum.nsites++;
		(*nrecords)++;
		if (umpi_chain_depth) {
			struct ses_mpi_rec_site_chain c = { 0 };

			while (c.depth < (uint64_t)umpi_chain_depth &&
			       (c.frames[c.depth] = rd(&s->chain[c.depth])))
				c.depth++;
			n = c.depth ? ses_ct_put_record(buf + off, cap - off,
							SES_MPI_REC_SITE_CHAIN, &c, sizeof(c), NULL,
							0)
				    : 0;
			off += n;
			*nrecords += n > 0;
		}
	}
	sum.lost_calls = rd(&umpi_sites_lost);
	n = ses_ct_put_record(buf + off, cap - off, SES_MPI_REC_SITES, &sum, sizeof(sum), NULL, 0);
	if (n) {
		off += n;
		(*nrecords)++;
	}
	return off;
}

/* SPDX-License-Identifier: MIT */
/*
 * lib/mpi: calls, time and message sizes per call site, a site being an MPI function and
 * the return address of the program's call (uprof_mpi_sites.c; the .mpi file's SITE
 * records, lib/session/mpi_sites.h). Included by internal.h, after umpi_add().
 *
 * A wrapper names its site with umpi_site_here() in its own body (the return address is
 * its caller's only there: a macro, not a function); the thread keeps it until the call's
 * umpi_count() and umpi_hist() have added to it. The table is fixed (no allocation on the
 * hot path) and filled without locks: a slot is claimed by one compare-and-swap of its
 * key; a call whose site finds no free slot in a few probes is counted as lost.
 * With collect -g (SES_MPI_ENV_CHAIN), a site is also its callers: the frame-pointer
 * chain above the call, read within the thread's own stack only (a caller built without
 * frame pointers gives a chain that ends early, or names what its frame holds).
 */
#ifndef UPROF_MPI_SITES_H
#define UPROF_MPI_SITES_H

/* a power of two; the 1025th site of a rank is a lost call (SITES record): mpiP's reports
 * of real codes show tens to a few hundred sites */
#define UMPI_SITES 1024
#define UMPI_SITE_PROBES 16

struct umpi_site {
	/* return address << 8 | function + 1; with callers, their hash with the function in
	 * the low byte; 0: free */
	uint64_t key;
	uint64_t addr, chain[SES_MPI_CHAIN_MAX]; /* with callers: written by the claimer */
	uint64_t calls, ticks, messages, bytes;
	uint64_t min_plus1, max_bytes; /* min_plus1: the smallest message + 1, 0: none yet */
	uint64_t hist[SES_MPI_HIST_BUCKETS];
};

_Static_assert(UMPI_NFUNCS < 255, "a site key holds the function in 8 bits");

extern struct umpi_site umpi_sites[UMPI_SITES];
extern uint64_t umpi_sites_lost;
extern int umpi_chain_depth; /* callers kept per site: 0 unless collect -g */
/* the site of the call this thread is in (NULL: none, or the table was full) */
extern __thread struct umpi_site *umpi_site_cur __attribute__((tls_model("initial-exec")));

/* The slot of (@f, @ret and, given the wrapper's frame @fp, its callers), claimed on first
 * sight; NULL when the table is full. */
struct umpi_site *umpi_site_find(enum umpi_func f, const void *ret, const void *fp);
/* At MPI_Init: how many callers a site keeps (collect's SES_MPI_ENV_CHAIN). */
void umpi_sites_start(void);

#define umpi_site_here(f) \
	(umpi_site_cur = umpi_site_find((f), __builtin_return_address(0), \
					umpi_chain_depth ? __builtin_frame_address(0) : NULL))

static inline struct umpi_site *umpi_site_of(enum umpi_func f)
{
	struct umpi_site *s = umpi_site_cur;

	/* a site named by another call (the library calling MPI_* inside ours) is not this */
	return s && (s->key & 0xff) == (uint64_t)f + 1 ? s : NULL;
}

/* One call of @f at the current site, @ticks long. */
static inline void umpi_site_call(enum umpi_func f, int64_t ticks)
{
	struct umpi_site *s = umpi_site_of(f);

	if (!s)
		return;
	umpi_add(&s->calls, 1);
	umpi_add(&s->ticks, (uint64_t)(ticks > 0 ? ticks : 0));
}

/* The smaller of *@p and @v kept in *@p (@max: the larger), racing threads too. */
static inline void umpi_site_keep(uint64_t *p, uint64_t v, int max)
{
	uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (max ? v > cur : (cur == 0 || v < cur)) {
		if (!umpi.mt) {
			__atomic_store_n(p, v, __ATOMIC_RELAXED);
			return;
		}
		if (__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			return;
	}
}

/* A message of @bytes through @f at the current site. */
static inline void umpi_site_msg(enum umpi_func f, uint64_t bytes)
{
	struct umpi_site *s = umpi_site_of(f);
	int b = bytes ? 64 - __builtin_clzll(bytes) : 0;

	if (!s)
		return;
	umpi_add(&s->messages, 1);
	umpi_add(&s->bytes, bytes);
	umpi_add(&s->hist[b < SES_MPI_HIST_BUCKETS ? b : SES_MPI_HIST_BUCKETS - 1], 1);
	umpi_site_keep(&s->min_plus1, bytes + 1, 0);
	umpi_site_keep(&s->max_bytes, bytes, 1);
}

/* The flush's part: the buffer bytes its records may take, and the records into @buf
 * from @off (the new offset; *@nrecords counts them). Async-signal-safe. */
size_t umpi_sites_bytes(void);
size_t umpi_sites_put(char *buf, size_t cap, size_t off, int64_t now_ns, uint64_t now_tsc,
		      uint64_t *nrecords);

#endif

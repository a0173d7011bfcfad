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
	/* what every call adds to: in the key's cache line */
	uint64_t calls, ticks, messages, bytes;
	uint64_t min_plus1, max_bytes; /* min_plus1: the smallest message + 1, 0: none yet */
	uint64_t addr, chain[SES_MPI_CHAIN_MAX]; /* with callers: written by the claimer */
	uint64_t hist[SES_MPI_HIST_BUCKETS];
} __attribute__((aligned(64)));

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

/* The slot a site's @key is looked for first (its probes follow it). */
static inline uint64_t umpi_site_home(uint64_t key)
{
	return (key * 0x9e3779b97f4a7c15ULL) >> 32;
}

/* umpi_site_find's common case inline: no callers kept (without collect -g) and the site
 * in its home slot, a multiply, a load and a compare; else (a first sight, a collision,
 * callers to walk) the function. */
static inline struct umpi_site *umpi_site_lookup(enum umpi_func f, const void *ret, const void *fp)
{
	uint64_t addr = (uint64_t)(uintptr_t)ret, key = addr << 8 | ((uint64_t)f + 1);
	struct umpi_site *s = &umpi_sites[umpi_site_home(key) & (UMPI_SITES - 1)];

	if (!fp && !(addr >> 56) && __atomic_load_n(&s->key, __ATOMIC_ACQUIRE) == key)
		return s;
	return umpi_site_find(f, ret, fp);
}

#define umpi_site_here(f) \
	(umpi_site_cur = umpi_site_lookup((f), __builtin_return_address(0), \
					  umpi_chain_depth ? __builtin_frame_address(0) : NULL))

static inline struct umpi_site *umpi_site_of(enum umpi_func f)
{
	struct umpi_site *s = umpi_site_cur;

	/* a site named by another call (the library calling MPI_* inside ours) is not this */
	return s && (s->key & 0xff) == (uint64_t)f + 1 ? s : NULL;
}

/* One call of @f at the current site, @ticks long (umpi_count). */
static inline __attribute__((always_inline)) void umpi_site_call_as(int mt, enum umpi_func f,
								    uint64_t ticks)
{
	struct umpi_site *s = umpi_site_of(f);

	if (!s)
		return;
	umpi_add_as(mt, &s->calls, 1);
	umpi_add_as(mt, &s->ticks, ticks);
}

/* The smaller of *@p and @v kept in *@p (@max: the larger), racing threads too (@mt). */
static inline __attribute__((always_inline)) void umpi_site_keep(int mt, uint64_t *p, uint64_t v,
								 int max)
{
	uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (max ? v > cur : (cur == 0 || v < cur)) {
		if (!mt) {
			__atomic_store_n(p, v, __ATOMIC_RELAXED);
			return;
		}
		if (__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			return;
	}
}

/* A message of @bytes (histogram bucket @b) through @f at the current site (umpi_hist). */
static inline __attribute__((always_inline)) void umpi_site_msg_as(int mt, enum umpi_func f,
								   uint64_t bytes, int b)
{
	struct umpi_site *s = umpi_site_of(f);

	if (!s)
		return;
	umpi_add_as(mt, &s->messages, 1);
	umpi_add_as(mt, &s->bytes, bytes);
	umpi_add_as(mt, &s->hist[b], 1);
	umpi_site_keep(mt, &s->min_plus1, bytes + 1, 0);
	umpi_site_keep(mt, &s->max_bytes, bytes, 1);
}

/* The flush's part: the buffer bytes its records may take, and the records into @buf
 * from @off (the new offset; *@nrecords counts them). Async-signal-safe. */
size_t umpi_sites_bytes(void);
size_t umpi_sites_put(char *buf, size_t cap, size_t off, int64_t now_ns, uint64_t now_tsc,
		      uint64_t *nrecords);

#endif

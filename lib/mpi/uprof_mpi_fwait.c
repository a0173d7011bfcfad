// SPDX-License-Identifier: MIT
/*
 * lib/mpi: what the Fortran bindings (uprof_mpi_fbind.c) need beyond forwarding:
 *   - the family's Fortran sentinels, which are addresses in its Fortran library, not the
 *     C constants: MPI_IN_PLACE is Open MPI's mpi_fortran_in_place_ (mpif.h, use mpi and
 *     use mpi_f08 alike), MPICH's MPIR_F08_MPI_IN_PLACE (use mpi_f08) or the address its
 *     Fortran library stored in MPIR_F_MPI_IN_PLACE at MPI_Init (the MPIPRIV1 common
 *     block of mpif.h and use mpi); MPI_STATUS(ES)_IGNORE are the C-visible
 *     MPI_F_STATUS(ES)_IGNORE (and MPICH's MPI_F08_STATUS(ES)_IGNORE), checked against
 *     the same symbols by name (nm -D on libmpi.so.40, libmpi_usempif08.so.40,
 *     libmpich.so.12 and libmpichfort.so.12 here);
 *   - the Wait and Test families under --trace mpi=full: a Fortran request is an integer
 *     handle, and the library frees the C request behind it as it completes it, so the
 *     handles are turned into C requests (PMPI_Request_f2c) before the call and the
 *     Fortran statuses into C ones (PMPI_Status_f2c) after it, then linked by events.h's
 *     umpi_ev_wait_* as the C wrappers link theirs. The Fortran indices are 1-based.
 */
#include "mpi/fbind.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- sentinels ---- */

#define FB_SENTINELS 8

struct sentinels {
	int n;
	const void *at[FB_SENTINELS];
};

static void add_sym(struct sentinels *s, const char *name)
{
	const void *p = dlsym(RTLD_DEFAULT, name);

	if (p && s->n < FB_SENTINELS)
		s->at[s->n++] = p;
}

static void add_ptr(struct sentinels *s, const void *p)
{
	if (p && s->n < FB_SENTINELS)
		s->at[s->n++] = p;
}

static int in(const struct sentinels *s, const void *p)
{
	for (int i = 0; i < s->n; i++)
		if (s->at[i] == p)
			return 1;
	return 0;
}

/* Looked up once, by the first Fortran call that needs them (after MPI_Init). */
static struct sentinels in_place, ignore;
/* MPICH's pointer to mpif.h's MPI_IN_PLACE, set by its Fortran MPI_Init */
static const void *const *mpich_f_in_place;
static pthread_once_t looked_up = PTHREAD_ONCE_INIT;

static void look_up_once(void)
{
	add_sym(&in_place, "mpi_fortran_in_place_"); /* Open MPI */
	add_sym(&in_place, "mpi_fortran_in_place");
	add_sym(&in_place, "mpi_fortran_in_place__");
	add_sym(&in_place, "MPIR_F08_MPI_IN_PLACE"); /* MPICH's use mpi_f08 */
	mpich_f_in_place = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE");
	add_ptr(&ignore, MPI_F_STATUS_IGNORE);
	add_ptr(&ignore, MPI_F_STATUSES_IGNORE);
#ifdef MPICH_VERSION
	add_ptr(&ignore, MPI_F08_STATUS_IGNORE);
	add_ptr(&ignore, MPI_F08_STATUSES_IGNORE);
#endif
	add_sym(&ignore, "mpi_fortran_status_ignore_"); /* Open MPI's, under the C names */
	add_sym(&ignore, "mpi_fortran_statuses_ignore_");
	add_sym(&ignore, "MPIR_F08_MPI_STATUS_IGNORE_OBJ");
	add_sym(&ignore, "MPIR_F08_MPI_STATUSES_IGNORE_OBJ");
}

static void look_up(void)
{
	pthread_once(&looked_up, look_up_once);
}

int fb_status_ignored(const void *p)
{
	if (!p)
		return 1;
	look_up();
	return in(&ignore, p);
}

int fb_is_in_place(const void *p, int ts)
{
	if (p && ts)
		p = *(const void *const *)p; /* CFI_cdesc_t: base_addr first */
	if (!p)
		return 0;
	look_up();
	return in(&in_place, p) || (mpich_f_in_place && *mpich_f_in_place == p);
}

/* ---- the Wait and Test families ---- */

static int is_one(enum fb_shape s)
{
	return s == FB_WAIT || s == FB_WAITANY || s == FB_TEST || s == FB_TESTANY;
}

void fb_wait_before(struct fb_wait *fw, const struct fbind *b, void **a)
{
	const F *freq = a[b->req];
	MPI_Request *creq = fw->creq_local;
	MPI_Status *cst = MPI_STATUSES_IGNORE; /* umpi_ev_wait_setup's own C statuses */
	int n = b->shape == FB_WAIT || b->shape == FB_TEST ? 1 : fint(a, b->c), nst;

	fw->one = is_one(b->shape);
	fw->own = NULL;
	fw->fst = NULL;
	fw->n = 0;
	fw->w.reqs = NULL;
	if (n <= 0 || !freq)
		return;
	if (n > UMPI_EV_WAIT_LOCAL && !(creq = malloc(sizeof(*creq) * (size_t)n)))
		return;
	for (int i = 0; i < n; i++)
		creq[i] = PMPI_Request_f2c(freq[i]);
	nst = fw->one ? 1 : n;
	if (fb_status_ignored(a[b->st])) {
		fw->fst = nst <= UMPI_EV_WAIT_LOCAL
				  ? fw->fst_local
				  : (fw->own = malloc(sizeof(F) * FB_STATUS_INTS * (size_t)nst));
		if (fw->fst)
			a[b->st] = fw->fst; /* the library writes ours */
	} else {
		fw->fst = a[b->st];
	}
	umpi_ev_wait_begin(&fw->w, n, creq, &cst); /* copies the handles */
	if (creq != fw->creq_local)
		free(creq);
	fw->n = n;
}

/* Request @i (0-based) completed: its status into the C one, then linked. */
static void done(struct fb_wait *fw, int i)
{
	int k = fw->one ? 0 : i;

	if (i < 0 || i >= fw->n)
		return;
	if (fw->fst && fw->w.st)
		PMPI_Status_f2c(&fw->fst[(size_t)k * FB_STATUS_INTS], &fw->w.st[k]);
	umpi_ev_wait_done(&fw->w, i, fw->one);
}

void fb_wait_after(struct fb_wait *fw, const struct fbind *b, void *const *a)
{
	F idx, out;

	if (fw->n) {
		switch (b->shape) {
		case FB_WAIT:
			done(fw, 0);
			break;
		case FB_TEST:
			if (fint(a, b->flag))
				done(fw, 0);
			break;
		case FB_TESTALL:
			if (!fint(a, b->flag))
				break;
			/* fall through */
		case FB_WAITALL:
			for (int i = 0; i < fw->n; i++)
				done(fw, i);
			break;
		case FB_TESTANY:
			if (!fint(a, b->flag))
				break;
			/* fall through */
		case FB_WAITANY:
			idx = fint(a, b->idx);
			if (idx != MPI_UNDEFINED)
				done(fw, idx - 1);
			break;
		case FB_WAITSOME:
		case FB_TESTSOME:
			out = fint(a, b->out);
			for (int k = 0; out != MPI_UNDEFINED && k < out && k < fw->n; k++)
				done(fw, ((const F *)a[b->idx])[k] - 1);
			break;
		default:
			break;
		}
	}
	umpi_ev_wait_end(&fw->w);
	free(fw->own);
	fw->own = NULL;
}

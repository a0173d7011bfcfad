// SPDX-License-Identifier: MIT
/* lib/session/mpi_sites.c: the .mpi file's call-site records (1.2) on whole, cut and
 * corrupted files, a 1.1 file without them, and the callers collect -g adds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"

struct img {
	uint8_t b[4096];
	size_t n;
	uint64_t nrec;
	size_t at[8]; /* offset of each record */
};

static void rec(struct img *m, uint32_t code, const void *p, uint32_t len)
{
	struct ses_mpi_rec_header h = { code, len };

	m->at[m->nrec] = m->n;
	memcpy(m->b + m->n, &h, sizeof(h));
	memcpy(m->b + m->n + sizeof(h), p, len);
	m->n += sizeof(h) + len;
	m->nrec++;
}

static const struct ses_mpi_rec_site send_site = {
	.name = "MPI_Send",
	.addr = 0x401234,
	.calls = 3,
	.time_ns = 900,
	.messages = 3,
	.bytes = 700,
	.min_bytes = 100,
	.max_bytes = 400,
	.hist = { [7] = 1, [8] = 1, [9] = 1 }, /* 100, 200, 400 bytes */
};
static const struct ses_mpi_rec_site fence_site = {
	.name = "MPI_Win_fence", .addr = 0x401300, .calls = 2, .time_ns = 50
};

/* rank 0 of 2: FUNC MPI_Send, SITE MPI_Send, SITE MPI_Win_fence, SITES, END; with
 * @sites false, a 1.1 file: FUNC and END only */
static void image(struct img *m, bool sites)
{
	struct ses_mpi_file_header h = { .major = SES_MPI_MAJOR, .minor = SES_MPI_MINOR,
					 .header_size = sizeof(h), .rank = 0, .size = 2,
					 .family = SES_MPI_OPENMPI, .end_how = SES_MPI_END_FINALIZE,
					 .pid = 42 };
	struct ses_mpi_rec_func send = { .kind = SES_MPI_K_P2P, .calls = 3, .time_ns = 900,
					 .bytes_sent = 700, .name = "MPI_Send" };
	struct ses_mpi_rec_sites sum = { .nsites = 2, .capacity = 1024, .lost_calls = 5 };
	struct ses_mpi_rec_end end = { 0, 900, 0, 3 };

	memset(m, 0, sizeof(*m));
	memcpy(h.magic, SES_MPI_MAGIC, 8);
	if (!sites)
		h.minor = 1;
	memcpy(m->b, &h, sizeof(h));
	m->n = sizeof(h);
	rec(m, SES_MPI_REC_FUNC, &send, sizeof(send));
	if (sites) {
		rec(m, SES_MPI_REC_SITE, &send_site, sizeof(send_site));
		rec(m, SES_MPI_REC_SITE, &fence_site, sizeof(fence_site));
		rec(m, SES_MPI_REC_SITES, &sum, sizeof(sum));
	}
	end.nrecords = m->nrec;
	rec(m, SES_MPI_REC_END, &end, sizeof(end));
}

static void parses_sites(void **state)
{
	struct img m;
	struct ses_mpi r;
	char err[128];

	(void)state;
	image(&m, true);
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_true(r.complete);
	assert_string_equal(r.damage, "");
	assert_int_equal(r.sites.n, 2);
	assert_string_equal(r.sites.v[0].name, "MPI_Send");
	assert_int_equal(r.sites.v[0].addr, 0x401234);
	assert_int_equal(r.sites.v[0].calls, 3);
	assert_int_equal(r.sites.v[0].time_ns, 900);
	assert_int_equal(r.sites.v[0].messages, 3);
	assert_int_equal(r.sites.v[0].bytes, 700);
	assert_int_equal(r.sites.v[0].min_bytes, 100);
	assert_int_equal(r.sites.v[0].max_bytes, 400);
	assert_int_equal(r.sites.v[0].hist[8], 1);
	assert_string_equal(r.sites.v[1].name, "MPI_Win_fence");
	assert_int_equal(r.sites.v[1].messages, 0);
	assert_true(r.sites.counted);
	assert_int_equal(r.sites.capacity, 1024);
	assert_int_equal(r.sites.lost_calls, 5);
	ses_mpi_release(&r);
	ses_mpi_release(&r);
	assert_null(r.sites.v);
}

static void older_file_has_no_sites(void **state)
{
	struct img m;
	struct ses_mpi r;
	char err[128];

	(void)state;
	image(&m, false);
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_true(r.complete);
	assert_int_equal(r.sites.n, 0);
	assert_false(r.sites.counted);
	ses_mpi_release(&r);
}

/* Every cut: what came before kept, never complete, never a site half read. */
static void truncated_sites(void **state)
{
	struct img m;

	(void)state;
	image(&m, true);
	for (size_t n = sizeof(struct ses_mpi_file_header); n < m.n; n++) {
		uint8_t *cut = malloc(n);
		struct ses_mpi r;
		char err[128] = "";

		memcpy(cut, m.b, n);
		assert_int_equal(ses_mpi_parse(cut, n, &r, err, sizeof(err)), 0);
		assert_false(r.complete);
		assert_true(r.damage[0]);
		/* record i is [at[i], at[i + 1]): the sites are records 1 and 2 */
		assert_int_equal(r.sites.n, n >= m.at[3] ? 2 : n >= m.at[2] ? 1 : 0);
		if (r.sites.n)
			assert_int_equal(r.sites.v[0].bytes, 700);
		assert_int_equal(r.sites.counted, n >= m.at[4]);
		ses_mpi_release(&r);
		free(cut);
	}
}

/* image()'s record @rec_index (1, 2: the sites; 3: SITES) with @len bytes of @v at @field
 * of its payload: the parse keeps what came before and says @why. */
static void expect_damage(size_t field, const void *v, size_t len, int rec_index,
			  const char *why, size_t sites_kept)
{
	struct img m;
	struct ses_mpi r;
	char err[128];

	image(&m, true);
	memcpy(m.b + m.at[rec_index] + sizeof(struct ses_mpi_rec_header) + field, v, len);
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_false(r.complete);
	assert_string_equal(r.damage, why);
	assert_int_equal(r.damaged_at, m.at[rec_index]);
	assert_int_equal(r.sites.n, sites_kept);
	assert_int_equal(r.nfuncs, 1); /* the function before is kept */
	ses_mpi_release(&r);
}

static void corrupted_sites(void **state)
{
	uint64_t v;
	uint32_t len = 8;
	char name[32] = { 0 };

	(void)state;
	v = 4; /* four messages, a histogram of three */
	expect_damage(offsetof(struct ses_mpi_rec_site, messages), &v, sizeof(v), 1,
		      "a call site's size histogram does not count its messages", 0);
	v = 500; /* the smallest message larger than the largest */
	expect_damage(offsetof(struct ses_mpi_rec_site, min_bytes), &v, sizeof(v), 1,
		      "a call site's message sizes contradict each other", 0);
	v = 7; /* a fence without messages, with bytes */
	expect_damage(offsetof(struct ses_mpi_rec_site, bytes), &v, sizeof(v), 2,
		      "a call site's message sizes contradict each other", 1);
	v = UINT64_MAX; /* a histogram that overflows */
	expect_damage(offsetof(struct ses_mpi_rec_site, hist) + 9 * 8, &v, sizeof(v), 1,
		      "a call site's size histogram overflows", 0);
	expect_damage(offsetof(struct ses_mpi_rec_site, name), name, sizeof(name), 1,
		      "a call site without a function name", 0);
	memset(name, 'A', sizeof(name)); /* no NUL in its 32 bytes */
	expect_damage(offsetof(struct ses_mpi_rec_site, name), name, sizeof(name), 2,
		      "a call site without a function name", 1);
	v = 3; /* SITES counts three sites, two were read */
	expect_damage(offsetof(struct ses_mpi_rec_sites, nsites), &v, sizeof(v), 3,
		      "the call-site count differs from the sites read", 2);
	/* a site record of the wrong length (the header's length field) */
	{
		struct img m;
		struct ses_mpi r;
		char err[128];

		image(&m, true);
		memcpy(m.b + m.at[1] + offsetof(struct ses_mpi_rec_header, len), &len,
		       sizeof(len));
		assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
		assert_false(r.complete);
		assert_int_equal(r.sites.n, 0);
		assert_int_equal(r.damaged_at, m.at[1]);
		ses_mpi_release(&r);
	}
}

/* A code of the sites' range this reader does not know (a later 1.x): skipped, counted. */
static void unknown_site_code_skipped(void **state)
{
	struct img m;
	struct ses_mpi r;
	char err[128];
	struct ses_mpi_rec_end end = { 0, 900, 0, 3 };

	(void)state;
	image(&m, true);
	m.n = m.at[4]; /* drop END */
	m.nrec = 4;
	rec(&m, 49, "later", 5);
	end.nrecords = m.nrec;
	rec(&m, SES_MPI_REC_END, &end, sizeof(end));
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_true(r.complete);
	assert_int_equal(r.unknown_records, 1);
	assert_int_equal(r.sites.n, 2);
	ses_mpi_release(&r);
}

/* collect -g: a SITE_CHAIN after its SITE gives that site its callers; one before any
 * site, a second one for a site, or a depth of 0 or past the most are damage. */
static void caller_chains(void **state)
{
	struct ses_mpi_rec_site_chain two = { 2, { 0x401500, 0x7f0000001000 } };
	struct ses_mpi_rec_site_chain bad_depth = { SES_MPI_CHAIN_MAX + 1, { 1 } };
	struct ses_mpi_rec_sites sum = { .nsites = 1, .capacity = 1024 };
	struct ses_mpi_rec_end end = { 0, 900, 0, 3 };
	struct ses_mpi r;
	struct img m;
	char err[128];

	(void)state;
	for (int variant = 0; variant < 4; variant++) {
		image(&m, true);
		m.n = m.at[1]; /* FUNC kept, the rest rebuilt */
		m.nrec = 1;
		if (variant == 1) /* before any site */
			rec(&m, SES_MPI_REC_SITE_CHAIN, &two, sizeof(two));
		rec(&m, SES_MPI_REC_SITE, &send_site, sizeof(send_site));
		rec(&m, SES_MPI_REC_SITE_CHAIN, variant == 3 ? &bad_depth : &two, sizeof(two));
		if (variant == 2) /* a second chain for the same site */
			rec(&m, SES_MPI_REC_SITE_CHAIN, &two, sizeof(two));
		rec(&m, SES_MPI_REC_SITES, &sum, sizeof(sum));
		end.nrecords = m.nrec;
		rec(&m, SES_MPI_REC_END, &end, sizeof(end));
		assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
		if (variant == 0) {
			assert_true(r.complete);
			assert_int_equal(r.sites.n, 1);
			assert_int_equal(r.sites.v[0].nchain, 2);
			assert_int_equal(r.sites.v[0].chain[0], 0x401500);
			assert_int_equal(r.sites.v[0].chain[1], 0x7f0000001000);
		} else {
			assert_false(r.complete);
			assert_string_equal(r.damage, variant == 3 ? "a caller chain of an impossible depth"
								   : "a caller chain without its call site");
		}
		ses_mpi_release(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_sites),
		cmocka_unit_test(older_file_has_no_sites),
		cmocka_unit_test(truncated_sites),
		cmocka_unit_test(corrupted_sites),
		cmocka_unit_test(unknown_site_code_skipped),
		cmocka_unit_test(caller_chains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

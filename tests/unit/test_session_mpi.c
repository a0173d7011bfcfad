// SPDX-License-Identifier: MIT
/* lib/session/mpi.c: the reader of mpi/<pid>.mpi on whole, cut and corrupted files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/session.h"

struct img {
	uint8_t b[4096];
	size_t n;
	uint64_t nrec;
};

static void rec(struct img *m, uint32_t code, const void *p, uint32_t len)
{
	struct ses_mpi_rec_header h = { code, len };

	memcpy(m->b + m->n, &h, sizeof(h));
	memcpy(m->b + m->n + sizeof(h), p, len);
	m->n += sizeof(h) + len;
	m->nrec++;
}

/* rank 1 of 4: ENV, MPI_Send (5 calls, 2000 bytes), MPI_Barrier, a peer 2, its call in
 * flight, a histogram, RMA on rank 3 (1.3), END */
static void good(struct img *m)
{
	struct ses_mpi_file_header h = { .major = SES_MPI_MAJOR,
					 .minor = SES_MPI_MINOR,
					 .header_size = sizeof(h),
					 .rank = 1,
					 .size = 4,
					 .family = SES_MPI_MPICH,
					 .end_how = SES_MPI_END_SIGNAL,
					 .signal = 15,
					 .pid = 77,
					 .init_mono_ns = 10,
					 .end_mono_ns = 20 };
	struct {
		struct ses_mpi_rec_env e;
		char v[7];
	} env = { { 3, 3, 1, 0 }, "MPICH 4" };
	struct ses_mpi_rec_func send = { .kind = SES_MPI_K_P2P,
					 .calls = 5,
					 .time_ns = 500,
					 .bytes_sent = 2000,
					 .name = "MPI_Send" };
	struct ses_mpi_rec_func bar = { .kind = SES_MPI_K_COLL,
					.calls = 1,
					.time_ns = 3000,
					.name = "MPI_Barrier" };
	struct ses_mpi_rec_peer peer = { .peer = 2,
					 .send_calls = 5,
					 .send_bytes = 2000,
					 .send_time_ns = 500,
					 .recv_calls = 1,
					 .recv_bytes = 8 };
	struct ses_mpi_rec_inflight in = { .kind = SES_MPI_K_COLL,
					   .elapsed_ns = 9000,
					   .name = "MPI_Barrier" };
	struct ses_mpi_rec_hist hist = { .name = "MPI_Send", .count = { [11] = 5 } };
	struct ses_mpi_rec_rma rma = { .peer = 3, .ops = 2, .put_bytes = 64, .get_bytes = 40 };
	struct ses_mpi_rec_end end = { 0, 3500, 3000, 6 };

	memset(m, 0, sizeof(*m));
	memcpy(h.magic, SES_MPI_MAGIC, 8);
	memcpy(m->b, &h, sizeof(h));
	m->n = sizeof(h);
	rec(m, SES_MPI_REC_ENV, &env, sizeof(env));
	rec(m, SES_MPI_REC_FUNC, &send, sizeof(send));
	rec(m, 99, "newer", 5); /* a newer minor's record: skipped */
	rec(m, SES_MPI_REC_FUNC, &bar, sizeof(bar));
	rec(m, SES_MPI_REC_PEER, &peer, sizeof(peer));
	rec(m, SES_MPI_REC_INFLIGHT, &in, sizeof(in));
	rec(m, SES_MPI_REC_HIST, &hist, sizeof(hist));
	rec(m, SES_MPI_REC_RMA, &rma, sizeof(rma));
	end.nrecords = m->nrec;
	rec(m, SES_MPI_REC_END, &end, sizeof(end));
}

static void parses_a_whole_file(void **state)
{
	struct img m;
	struct ses_mpi r;
	char err[128];

	(void)state;
	good(&m);
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_true(r.complete);
	assert_string_equal(r.damage, "");
	assert_int_equal(r.rank, 1);
	assert_int_equal(r.size, 4);
	assert_int_equal(r.pid, 77);
	assert_int_equal(r.family, SES_MPI_MPICH);
	assert_int_equal(r.end_how, SES_MPI_END_SIGNAL);
	assert_int_equal(r.signal, 15);
	assert_string_equal(r.lib_version, "MPICH 4");
	assert_int_equal(r.thread_level, 3);
	assert_int_equal(r.nfuncs, 2);
	assert_string_equal(r.funcs[0].name, "MPI_Send");
	assert_int_equal(r.funcs[0].calls, 5);
	assert_int_equal(r.funcs[0].bytes_sent, 2000);
	assert_string_equal(r.funcs[1].name, "MPI_Barrier");
	assert_int_equal(r.funcs[1].kind, SES_MPI_K_COLL);
	assert_int_equal(r.npeers, 1);
	assert_int_equal(r.peers[0].peer, 2);
	assert_int_equal(r.peers[0].send_bytes, 2000);
	assert_int_equal(r.peers[0].recv_bytes, 8);
	assert_int_equal(r.mpi_time_ns, 3500);
	assert_int_equal(r.wait_ns, 3000);
	assert_int_equal(r.calls, 6);
	assert_string_equal(ses_mpi_end_name(r.end_how), "signal");
	assert_true(r.inflight);
	assert_string_equal(r.inflight_name, "MPI_Barrier");
	assert_int_equal(r.inflight_ns, 9000);
	assert_int_equal(r.funcs[0].hist[11], 5); /* 1024..2047 bytes */
	assert_int_equal(r.funcs[1].hist[11], 0);
	assert_int_equal(r.nrma, 1);
	assert_int_equal(r.rma[0].peer, 3);
	assert_int_equal(r.rma[0].ops, 2);
	assert_int_equal(r.rma[0].put_bytes, 64);
	assert_int_equal(r.rma[0].get_bytes, 40);
	ses_mpi_release(&r);
	assert_null(r.rma);
	ses_mpi_release(&r);
}

/* Every prefix: a header cut short is refused, any later cut keeps what came before and
 * says it is damaged (never complete). The copy is exactly as long as the prefix. */
static void truncated_files(void **state)
{
	struct img m;

	(void)state;
	good(&m);
	for (size_t n = 0; n < m.n; n++) {
		uint8_t *cut = malloc(n ? n : 1);
		struct ses_mpi r;
		char err[128] = "";
		int ret;

		memcpy(cut, m.b, n);
		ret = ses_mpi_parse(cut, n, &r, err, sizeof(err));
		if (n < sizeof(struct ses_mpi_file_header)) {
			assert_int_equal(ret, -EINVAL);
			assert_true(err[0]);
			assert_null(r.funcs);
		} else {
			assert_int_equal(ret, 0);
			assert_false(r.complete);
			assert_true(r.damage[0]);
			assert_true(r.damaged_at <= n);
			assert_true(r.nfuncs <= 2 && r.npeers <= 1 && r.nrma <= 1);
			ses_mpi_release(&r);
		}
		free(cut);
	}
}

static void corrupted_headers(void **state)
{
	struct img m;
	struct ses_mpi r;
	char err[128];
	struct ses_mpi_file_header *h = (void *)m.b;

	(void)state;
	good(&m);
	m.b[0] = 'X';
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "offset 0: not a uprof MPI file (no UPROFMPI header)");
	good(&m);
	h->major = 2;
	h->minor = 0;
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), -EPROTO);
	assert_string_equal(err, "offset 8: MPI file format 2.0 is newer than this uprof reads "
				 "(1.x): read it with a newer uprof");
	good(&m);
	h->minor = 9; /* a newer minor: read */
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_true(r.complete);
	ses_mpi_release(&r);
	good(&m);
	h->header_size = 1u << 30;
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), -EINVAL);
	good(&m);
	h->rank = 4;
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "rank 4 of 4 ranks is impossible");
	good(&m);
	h->size = 0;
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(ses_mpi_parse(m.b, (size_t)SES_MPI_MAX_BYTES + 1, &r, err, sizeof(err)),
			 -EFBIG);
}

/* Offset of record @i (0: ENV) in good()'s image. */
static size_t rec_at(const struct img *m, int i)
{
	size_t off = sizeof(struct ses_mpi_file_header);

	while (i--) {
		struct ses_mpi_rec_header h;

		memcpy(&h, m->b + off, sizeof(h));
		off += sizeof(h) + h.len;
	}
	return off;
}

/* Record @i's payload length (records after a string are unaligned: memcpy). */
static void set_len(struct img *m, int i, uint32_t len)
{
	memcpy(m->b + rec_at(m, i) + offsetof(struct ses_mpi_rec_header, len), &len, sizeof(len));
}

static void corrupted_records(void **state)
{
	struct img m;
	struct ses_mpi r;
	char err[128];
	const size_t rh = sizeof(struct ses_mpi_rec_header);

	(void)state;
	/* a func record of the wrong length: the ENV before it kept */
	good(&m);
	set_len(&m, 1, 8);
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nfuncs, 0);
	assert_string_equal(r.lib_version, "MPICH 4");
	assert_string_equal(r.damage, "a record of the wrong length");
	assert_int_equal(r.damaged_at, rec_at(&m, 1));
	ses_mpi_release(&r);
	/* a length past the end of the file */
	good(&m);
	set_len(&m, 2, 0xffffffffu);
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nfuncs, 1);
	assert_string_equal(r.damage, "entry runs past the end of the file");
	ses_mpi_release(&r);
	/* a peer outside the world */
	good(&m);
	{ /* records follow a string: unaligned, as the reader expects (it copies) */
		int32_t four = 4;

		memcpy(m.b + rec_at(&m, 4) + rh + offsetof(struct ses_mpi_rec_peer, peer), &four,
		       sizeof(four));
	}
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_int_equal(r.npeers, 0);
	assert_false(r.complete);
	assert_string_equal(r.damage, "a peer outside the job's ranks");
	ses_mpi_release(&r);
	/* an end record that counts other records: records lost in between */
	good(&m);
	memset(m.b + rec_at(&m, 8) + rh, 0x11, 8);
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_false(r.complete);
	assert_int_equal(r.nfuncs, 2);
	ses_mpi_release(&r);
	/* a name without its NUL stays within its 32 bytes */
	good(&m);
	memset(m.b + rec_at(&m, 1) + rh + offsetof(struct ses_mpi_rec_func, name), 'A',
	       SES_MPI_NAME_MAX);
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_int_equal(strlen(r.funcs[0].name), SES_MPI_NAME_MAX);
	ses_mpi_release(&r);
	/* a histogram of no function */
	good(&m);
	memcpy(m.b + rec_at(&m, 6) + rh, "MPI_Nothing", 12);
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_string_equal(r.damage, "a size histogram of a function the file does not have");
	assert_false(r.complete);
	ses_mpi_release(&r);
	/* an RMA target outside the world, negative or past it; an RMA record too short */
	for (int i = 0; i < 3; i++) {
		int32_t bad = i == 0 ? 4 : -1;

		good(&m);
		if (i < 2)
			memcpy(m.b + rec_at(&m, 7) + rh + offsetof(struct ses_mpi_rec_rma, peer),
			       &bad, sizeof(bad));
		else
			set_len(&m, 7, sizeof(struct ses_mpi_rec_rma) - 8);
		assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
		assert_int_equal(r.nrma, 0);
		assert_false(r.complete);
		assert_int_equal(r.damaged_at, rec_at(&m, 7));
		assert_string_equal(r.damage, i < 2 ? "an RMA target outside the job's ranks"
						    : "a record of the wrong length");
		assert_int_equal(r.npeers, 1); /* what came before is kept */
		ses_mpi_release(&r);
	}
}

static void refuses_a_fifo(void **state)
{
	char dir[] = "/tmp/uprof-test-mpi.XXXXXX", path[64], err[128];
	struct ses_mpi r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/1.mpi", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(ses_mpi_read(path, &r, err, sizeof(err)), -SES_ENOTREG);
	assert_string_equal(err, "is a FIFO, not a regular file");
	unlink(path);
	rmdir(dir);
}

/* 1.2: a snapshot (written while the rank ran, at most once a second) reads as one, its
 * counts kept; an end_how of a later version is "unknown", its data still read */
static void snapshot_files(void **state)
{
	struct ses_mpi_file_header *h;
	struct img m;
	struct ses_mpi r;
	char err[128];

	(void)state;
	good(&m);
	h = (struct ses_mpi_file_header *)m.b;
	assert_true(h->minor >= 2); /* a snapshot is 1.2 or later */
	h->end_how = SES_MPI_END_SNAPSHOT;
	h->signal = 0;
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_true(r.complete);
	assert_int_equal(r.end_how, SES_MPI_END_SNAPSHOT);
	assert_string_equal(ses_mpi_end_name(r.end_how), "snapshot");
	assert_int_equal(r.funcs[0].calls, 5);
	assert_int_equal(r.end_mono_ns, 20);
	ses_mpi_release(&r);
	h->end_how = 99;
	assert_int_equal(ses_mpi_parse(m.b, m.n, &r, err, sizeof(err)), 0);
	assert_string_equal(ses_mpi_end_name(r.end_how), "unknown");
	assert_int_equal(r.funcs[0].calls, 5);
	ses_mpi_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_a_whole_file), cmocka_unit_test(truncated_files),
		cmocka_unit_test(corrupted_headers),   cmocka_unit_test(corrupted_records),
		cmocka_unit_test(refuses_a_fifo),      cmocka_unit_test(snapshot_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

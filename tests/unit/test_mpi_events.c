// SPDX-License-Identifier: MIT
/* lib/session/mpi_events.c: the reader of mpi/<pid>.mpiev on whole, cut and corrupted files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/session.h"

struct img {
	uint8_t b[16384];
	size_t n;
	uint64_t nrec;
	size_t ev_at; /* offset of the events record's first event */
};

static void rec(struct img *m, uint32_t code, const void *p, uint32_t len, const void *tail,
		uint32_t tail_len)
{
	struct ses_mpi_rec_header h = { code, len + tail_len };

	memcpy(m->b + m->n, &h, sizeof(h));
	memcpy(m->b + m->n + sizeof(h), p, len);
	if (tail_len)
		memcpy(m->b + m->n + sizeof(h) + len, tail, tail_len);
	m->n += sizeof(h) + len + tail_len;
	m->nrec++;
}

static void name(struct img *m, uint32_t id, const char *s)
{
	struct ses_mpiev_rec_name n = { id, SES_MPI_K_P2P };

	rec(m, SES_MPIEV_REC_NAME, &n, sizeof(n), s, (uint32_t)strlen(s));
}

/*
 * Rank 1 of 4 (pid 77), TSC clock at 2 ticks per ns from (1000 ticks, 5000 ns): names
 * MPI_Isend, MPI_Recv, MPI_Waitall, MPI_Irecv; events: an Isend to 2 (tag 7, 400 bytes),
 * an unfilled slot, a Recv from 0 (tag 5, 16 bytes, the status's) on thread 78, an Irecv
 * from MPI_ANY_SOURCE, the Waitall, then the Waitall's completions of the Isend and of
 * the Irecv (from 3, tag 9, 24 bytes: its status); 9 calls dropped past a cap of 7.
 */
static void good(struct img *m)
{
	struct ses_mpiev_file_header h = { .major = SES_MPIEV_MAJOR,
					   .minor = SES_MPIEV_MINOR,
					   .header_size = sizeof(h),
					   .rank = 1,
					   .size = 4,
					   .pid = 77,
					   .clock = SES_MPIEV_CLOCK_TSC,
					   .ref0_ticks = 1000,
					   .ref0_ns = 5000,
					   .ref1_ticks = 21000,
					   .ref1_ns = 15000,
					   .recorded = 7,
					   .dropped = 9,
					   .cap = 7,
					   .end_how = SES_MPI_END_FINALIZE };
	struct ses_mpiev_event ev[7] = {
		{ .begin = 3000, .end = 3200, .sent = 400, .func = 1,
		  .flags = SES_MPIEV_SEND | SES_MPIEV_NONBLOCKING, .tid = 77, .dest = 2,
		  .send_tag = 7, .source = -1 },
		{ 0 },
		{ .begin = 4000, .end = 9000, .recvd = 16, .func = 2,
		  .flags = SES_MPIEV_RECV | SES_MPIEV_STATUS, .tid = 78, .comm = 5, .dest = -1,
		  .source = 0, .recv_tag = 5 },
		{ .begin = 8000, .end = 8100, .recvd = 100, .func = 4,
		  .flags = SES_MPIEV_RECV | SES_MPIEV_NONBLOCKING, .tid = 77, .dest = -1,
		  .source = -1, .recv_tag = 9 },
		{ .begin = 9000, .end = 11000, .func = 3, .tid = 77, .dest = -1, .source = -1 },
		{ .begin = 11000, .end = 11000, .func = 3, .flags = SES_MPIEV_COMPLETION,
		  .tid = 77, .done = 1, .dest = -1, .source = -1 },
		{ .begin = 11000, .end = 11000, .recvd = 24, .func = 3,
		  .flags = SES_MPIEV_COMPLETION | SES_MPIEV_STATUS, .tid = 77, .done = 4,
		  .dest = -1, .source = 3, .recv_tag = 9 },
	};
	struct ses_mpiev_rec_end end = { 0, 7 };

	memset(m, 0, sizeof(*m));
	memcpy(h.magic, SES_MPIEV_MAGIC, 8);
	memcpy(m->b, &h, sizeof(h));
	m->n = sizeof(h);
	name(m, 0, "MPI_Isend");
	name(m, 1, "MPI_Recv");
	rec(m, 99, "newer", 5, NULL, 0); /* a newer minor's record: skipped */
	name(m, 2, "MPI_Waitall");
	name(m, 3, "MPI_Irecv");
	m->ev_at = m->n + sizeof(struct ses_mpi_rec_header);
	rec(m, SES_MPIEV_REC_EVENTS, ev, sizeof(ev), NULL, 0);
	end.nrecords = m->nrec;
	rec(m, SES_MPIEV_REC_END, &end, sizeof(end), NULL, 0);
}

static struct ses_mpiev_event *event(struct img *m, int i)
{
	return (struct ses_mpiev_event *)(m->b + m->ev_at + (size_t)i * sizeof(struct ses_mpiev_event));
}

static void parses_a_whole_file(void **state)
{
	struct img m;
	struct ses_mpiev e;
	char err[128];

	(void)state;
	good(&m);
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_true(e.complete);
	assert_string_equal(e.damage, "");
	assert_int_equal(e.rank, 1);
	assert_int_equal(e.size, 4);
	assert_int_equal(e.pid, 77);
	assert_int_equal(e.cap, 7);
	assert_int_equal(e.dropped, 9);
	assert_int_equal(e.unfilled, 1);
	assert_int_equal(e.unknown_records, 1);
	assert_int_equal(e.nnames, 4);
	assert_string_equal(e.names[2], "MPI_Waitall");
	assert_int_equal(e.ncalls, 4); /* the completions are not calls */
	assert_int_equal(e.completions, 2);
	assert_int_equal(e.unlinked, 0);
	/* ticks to ns: 5000 + (t - 1000) / 2 */
	assert_int_equal(e.calls[0].begin_ns, 6000);
	assert_int_equal(e.calls[0].end_ns, 6100);
	assert_string_equal(e.names[e.calls[0].func], "MPI_Isend");
	assert_int_equal(e.calls[0].dest, 2);
	assert_int_equal(e.calls[0].send_tag, 7);
	assert_int_equal(e.calls[0].sent, 400);
	/* completed in the call recorded before its completion on its thread: the Waitall
	 * (the 4th call: the unfilled slot is none) */
	assert_int_equal(e.calls[0].done, 4);
	assert_string_equal(e.names[e.calls[e.calls[0].done - 1].func], "MPI_Waitall");
	assert_int_equal(e.calls[0].flags, SES_MPIEV_SEND | SES_MPIEV_NONBLOCKING);
	/* the Irecv from MPI_ANY_SOURCE: what came is its completion's status */
	assert_int_equal(e.calls[2].done, 4);
	assert_int_equal(e.calls[2].source, 3);
	assert_int_equal(e.calls[2].recv_tag, 9);
	assert_int_equal(e.calls[2].recvd, 24);
	assert_true(e.calls[2].flags & SES_MPIEV_STATUS);
	assert_int_equal(e.calls[1].begin_ns, 6500);
	assert_int_equal(e.calls[1].end_ns, 9000);
	assert_int_equal(e.calls[1].tid, 78);
	assert_int_equal(e.calls[1].comm, 5);
	assert_int_equal(e.calls[1].source, 0);
	assert_int_equal(e.calls[1].recv_tag, 5);
	assert_int_equal(e.calls[1].flags, SES_MPIEV_RECV | SES_MPIEV_STATUS);
	assert_int_equal(e.calls[3].done, 0);
	ses_mpiev_release(&e);
	ses_mpiev_release(&e);
}

/*
 * PART events (1.1): MPI_Startall's messages. Rank 0 of 2, ns clock; names MPI_Startall,
 * MPI_Waitall; events: a PART with no call before it on its thread (unlinked, dropped),
 * the Startall (thread 77), its two PARTs (a send to 1, tag 3, 8 bytes; a receive from 1
 * posted for 32), one PART of thread 78 (no call of its thread: unlinked), the Waitall,
 * and its completion of the receive PART (8 bytes came, the status's).
 */
static void part_events_are_messages_of_their_call(void **state)
{
	struct ses_mpiev_file_header h = { .major = SES_MPIEV_MAJOR,
					   .minor = SES_MPIEV_MINOR,
					   .header_size = sizeof(h),
					   .rank = 0,
					   .size = 2,
					   .pid = 77,
					   .clock = SES_MPIEV_CLOCK_NS,
					   .recorded = 7,
					   .cap = 100,
					   .end_how = SES_MPI_END_FINALIZE };
	struct ses_mpiev_event ev[7] = {
		{ .begin = 50, .end = 60, .func = 1, .flags = SES_MPIEV_PART | SES_MPIEV_SEND,
		  .tid = 77, .dest = 1, .source = -1 },
		{ .begin = 100, .end = 200, .func = 1, .tid = 77, .dest = -1, .source = -1 },
		{ .begin = 100, .end = 200, .sent = 8, .func = 1,
		  .flags = SES_MPIEV_PART | SES_MPIEV_SEND | SES_MPIEV_NONBLOCKING, .tid = 77,
		  .dest = 1, .send_tag = 3, .source = -1 },
		{ .begin = 100, .end = 200, .recvd = 32, .func = 1,
		  .flags = SES_MPIEV_PART | SES_MPIEV_RECV | SES_MPIEV_NONBLOCKING, .tid = 77,
		  .dest = -1, .source = 1, .recv_tag = 3 },
		{ .begin = 150, .end = 160, .func = 1, .flags = SES_MPIEV_PART | SES_MPIEV_SEND,
		  .tid = 78, .dest = 1, .source = -1 },
		{ .begin = 300, .end = 400, .func = 2, .tid = 77, .dest = -1, .source = -1 },
		{ .begin = 400, .end = 400, .recvd = 8, .func = 2,
		  .flags = SES_MPIEV_COMPLETION | SES_MPIEV_STATUS, .tid = 77, .done = 4,
		  .dest = -1, .source = 1, .recv_tag = 3 },
	};
	struct ses_mpiev_rec_end end = { 0, 7 };
	struct img m;
	struct ses_mpiev e;
	char err[128];

	(void)state;
	memset(&m, 0, sizeof(m));
	memcpy(h.magic, SES_MPIEV_MAGIC, 8);
	memcpy(m.b, &h, sizeof(h));
	m.n = sizeof(h);
	name(&m, 0, "MPI_Startall");
	name(&m, 1, "MPI_Waitall");
	rec(&m, SES_MPIEV_REC_EVENTS, ev, sizeof(ev), NULL, 0);
	end.nrecords = m.nrec;
	rec(&m, SES_MPIEV_REC_END, &end, sizeof(end), NULL, 0);
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_true(e.complete);
	assert_string_equal(e.damage, "");
	assert_int_equal(e.unlinked, 2); /* the PARTs of no call */
	assert_int_equal(e.ncalls, 4);	 /* Startall, its 2 PARTs, Waitall */
	assert_int_equal(e.calls[0].flags, 0);
	assert_int_equal(e.calls[0].part_of, 0);
	assert_int_equal(e.calls[1].part_of, 1);
	assert_int_equal(e.calls[1].dest, 1);
	assert_int_equal(e.calls[1].send_tag, 3);
	assert_int_equal(e.calls[2].part_of, 1);
	assert_true(e.calls[2].flags & SES_MPIEV_PART);
	/* the PARTs left the Startall its thread's last call: the Waitall is it now, and
	 * the receive PART completed in it with what came */
	assert_int_equal(e.calls[3].part_of, 0);
	assert_int_equal(e.calls[2].done, 4);
	assert_int_equal(e.calls[2].recvd, 8);
	assert_true(e.calls[2].flags & SES_MPIEV_STATUS);
	assert_int_equal(e.calls[1].done, 0);
	ses_mpiev_release(&e);
}

/* The ns clock: ticks are the times. */
static void reads_the_ns_clock(void **state)
{
	struct img m;
	struct ses_mpiev e;
	struct ses_mpiev_file_header *h = (void *)m.b;
	char err[128];

	(void)state;
	good(&m);
	h->clock = SES_MPIEV_CLOCK_NS;
	h->ref1_ticks = h->ref0_ticks; /* no rate needed */
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_int_equal(e.calls[0].begin_ns, 3000);
	assert_int_equal(e.calls[3].end_ns, 11000);
	ses_mpiev_release(&e);
}

static void corrupted_headers(void **state)
{
	struct img m;
	struct ses_mpiev e;
	struct ses_mpiev_file_header *h = (void *)m.b;
	char err[128];

	(void)state;
	good(&m);
	m.b[0] = 'X';
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "offset 0: not a uprof MPI events file (no UPMPIEV1 header)");
	good(&m);
	h->major = 2;
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), -EPROTO);
	good(&m);
	h->minor = 7; /* a newer minor: read */
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_true(e.complete);
	ses_mpiev_release(&e);
	good(&m);
	h->rank = 4;
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "rank 4 of 4 ranks is impossible");
	good(&m);
	h->clock = 3;
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "clock 3 is none this uprof knows");
	good(&m);
	h->ref1_ticks = h->ref0_ticks; /* a TSC rate of nothing */
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "its clock pairs do not go forward: its times cannot be read");
	good(&m);
	h->recorded = 8; /* more than the cap */
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), -EINVAL);
	good(&m);
	h->cap = SES_MPIEV_CAP_MAX + 1u;
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), -EINVAL);
	good(&m);
	assert_int_equal(ses_mpiev_parse(m.b, (size_t)4 << 30, &e, err, sizeof(err)), -EFBIG);
}

/* A corrupted event ends the read there: what came before is kept, the damage said. */
static void corrupted_events(void **state)
{
	struct img m;
	struct ses_mpiev e;
	struct ses_mpiev_file_header *h = (void *)m.b;
	char err[128];

	(void)state;
	good(&m);
	event(&m, 2)->func = 9; /* no such name */
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_int_equal(e.ncalls, 1);
	assert_false(e.complete);
	assert_string_equal(e.damage,
			    "an event with an impossible function, time, rank or request");
	assert_int_equal(e.calls[0].done, 0); /* its completion was not read */
	ses_mpiev_release(&e);
	good(&m);
	event(&m, 0)->dest = 4; /* outside the world */
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_int_equal(e.ncalls, 0);
	ses_mpiev_release(&e);
	good(&m);
	event(&m, 4)->end = 1; /* ends before it began */
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_int_equal(e.ncalls, 3);
	ses_mpiev_release(&e);
	good(&m);
	event(&m, 5)->done = 6; /* completes itself: a request posted after it */
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_int_equal(e.ncalls, 4);
	assert_int_equal(e.calls[0].done, 0);
	assert_false(e.complete);
	ses_mpiev_release(&e);
	good(&m);
	event(&m, 5)->done = 2; /* the unfilled slot: nothing to link, counted */
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_true(e.complete);
	assert_int_equal(e.calls[0].done, 0);
	assert_int_equal(e.unlinked, 1);
	ses_mpiev_release(&e);
	good(&m);
	event(&m, 6)->tid = 99; /* a thread with no call before it: its completing call unknown */
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_true(e.complete);
	assert_int_equal(e.calls[2].done, 0);
	assert_int_equal(e.calls[2].source, -1);
	assert_int_equal(e.unlinked, 1);
	ses_mpiev_release(&e);
	/* the header says fewer events than the file holds: the record is refused */
	good(&m);
	h->recorded = 6;
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_string_equal(e.damage, "an events record of the wrong length");
	assert_int_equal(e.ncalls, 0);
	ses_mpiev_release(&e);
	/* an events record that is not whole events */
	good(&m);
	{
		uint32_t len = 7 * sizeof(struct ses_mpiev_event) + 1;

		memcpy(m.b + m.ev_at - 4, &len, sizeof(len));
	}
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_false(e.complete);
	assert_int_equal(e.ncalls, 0);
	ses_mpiev_release(&e);
	/* an end record that counts other events */
	good(&m);
	memset(m.b + m.n - sizeof(struct ses_mpiev_rec_end) + 8, 0x22, 8);
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_false(e.complete);
	assert_int_equal(e.ncalls, 4);
	ses_mpiev_release(&e);
	/* a name out of order */
	good(&m);
	m.b[sizeof(struct ses_mpiev_file_header) + sizeof(struct ses_mpi_rec_header)] = 1;
	assert_int_equal(ses_mpiev_parse(m.b, m.n, &e, err, sizeof(err)), 0);
	assert_string_equal(e.damage, "a malformed function name");
	assert_int_equal(e.nnames, 0);
	ses_mpiev_release(&e);
}

/* A session directory @dir (a mkdtemp template) with mpi/, its fd; with @write, good()'s
 * file in it as mpi/77.mpiev, at @path. */
static int session_dir(char *dir, char *path, size_t len, bool write)
{
	struct img m;
	FILE *f;
	int dfd;

	assert_non_null(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	snprintf(path, len, "%s/mpi", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, len, "%s/mpi/77.mpiev", dir);
	if (write) {
		good(&m);
		f = fopen(path, "w");
		assert_non_null(f);
		assert_int_equal(fwrite(m.b, 1, m.n, f), m.n);
		fclose(f);
	}
	return dfd;
}

/* mpi/77.mpiev made a FIFO: what a reader of it must refuse. */
static void make_fifo(const char *path)
{
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
}

static void session_rm(const char *dir, const char *path, int dfd)
{
	char sub[96];

	unlink(path);
	snprintf(sub, sizeof(sub), "%s/mpi", dir);
	rmdir(sub);
	close(dfd);
	rmdir(dir);
}

/* ---- streaming (ses_mpiev_stream, ses_mpiev_stream_at) ---- */

struct got {
	uint64_t index[8];
	struct ses_mpiev_call c[8];
	int n, fail_at; /* the sink fails at its fail_at-th event (0: never) */
};

static int sink(void *ctx, const struct ses_mpiev *e, uint64_t index,
		const struct ses_mpiev_call *c)
{
	struct got *g = ctx;

	assert_true(c->func < e->nnames);
	if (g->n == 8)
		return -E2BIG;
	g->index[g->n] = index;
	g->c[g->n++] = *c;
	return g->fail_at && g->n == g->fail_at ? -EPIPE : 0;
}

/* Every event in file order, the unfilled slot left out but counted in the indexes; the
 * completions as themselves (the completing call's function, done naming the posting
 * event); nothing kept in e. */
static void streams_a_whole_file(void **state)
{
	struct img m;
	struct ses_mpiev e;
	struct got g = { 0 };
	char err[128];

	(void)state;
	good(&m);
	assert_int_equal(ses_mpiev_stream(m.b, m.n, &e, sink, &g, err, sizeof(err)), 0);
	assert_true(e.complete);
	assert_null(e.calls);
	assert_int_equal(e.ncalls, 4);
	assert_int_equal(e.completions, 2);
	assert_int_equal(e.unfilled, 1);
	assert_int_equal(g.n, 6);
	assert_int_equal(g.index[0], 0);
	assert_int_equal(g.index[1], 2); /* slot 1 was never filled */
	assert_int_equal(g.index[5], 6);
	assert_int_equal(g.c[0].begin_ns, 6000);
	assert_int_equal(g.c[0].sent, 400);
	assert_int_equal(g.c[0].done, 0);
	assert_string_equal(e.names[g.c[1].func], "MPI_Recv");
	assert_int_equal(g.c[1].tid, 78);
	/* the Waitall's two completions: of event 0 (the Isend) and event 3 (the Irecv) */
	assert_true(g.c[4].flags & SES_MPIEV_COMPLETION);
	assert_string_equal(e.names[g.c[4].func], "MPI_Waitall");
	assert_int_equal(g.c[4].done, 1);
	assert_int_equal(g.c[5].done, 4);
	assert_int_equal(g.c[5].source, 3);
	assert_int_equal(g.c[5].recvd, 24);
	ses_mpiev_release(&e);
	/* a sink that fails stops the walk there, its error returned */
	memset(&g, 0, sizeof(g));
	g.fail_at = 2;
	assert_int_equal(ses_mpiev_stream(m.b, m.n, &e, sink, &g, err, sizeof(err)), -EPIPE);
	assert_int_equal(g.n, 2);
	ses_mpiev_release(&e);
}

/* ---- the cases every reader passes: whole (ses_mpiev_parse, ses_mpiev_find_at) and
 * streamed (ses_mpiev_stream, ses_mpiev_stream_find_at, its events to sink()) ---- */

struct way {
	const char *name;
	int (*read)(const void *buf, size_t len, struct ses_mpiev *e, struct got *g, char *err,
		    size_t errlen);
	int (*find_at)(int sdfd, struct ses_mpiev *e, struct got *g, char *err, size_t errlen);
};

static int parse_whole(const void *buf, size_t len, struct ses_mpiev *e, struct got *g,
		       char *err, size_t errlen)
{
	(void)g;
	return ses_mpiev_parse(buf, len, e, err, errlen);
}

static int parse_streamed(const void *buf, size_t len, struct ses_mpiev *e, struct got *g,
			  char *err, size_t errlen)
{
	return ses_mpiev_stream(buf, len, e, sink, g, err, errlen);
}

static int find_whole(int sdfd, struct ses_mpiev *e, struct got *g, char *err, size_t errlen)
{
	(void)g;
	return ses_mpiev_find_at(sdfd, e, err, errlen);
}

static int find_streamed(int sdfd, struct ses_mpiev *e, struct got *g, char *err, size_t errlen)
{
	return ses_mpiev_stream_find_at(sdfd, e, sink, g, err, errlen);
}

static const struct way ways[] = {
	{ "whole", parse_whole, find_whole },
	{ "streamed", parse_streamed, find_streamed },
};

/* The events a read kept or handed out: the whole parse's calls and completions, or
 * what the sink was given. */
static size_t events_of(const struct way *w, const struct ses_mpiev *e, const struct got *g)
{
	return w->read == parse_whole ? e->ncalls + e->completions : (size_t)g->n;
}

/* Every prefix: a header cut short is refused, any later cut keeps what came before and
 * says it is damaged (never complete), no completion points past what was kept, and both
 * ways keep the same (the stream hands out what the whole parse keeps). */
static void truncated_files(void **state)
{
	struct img m;

	(void)state;
	good(&m);
	for (size_t n = 0; n < m.n; n++) {
		uint8_t *cut = malloc(n ? n : 1);
		struct ses_mpiev e[2];
		struct got g[2];
		int ret[2];

		memcpy(cut, m.b, n);
		memset(g, 0, sizeof(g));
		for (int w = 0; w < 2; w++) {
			char err[128] = "";

			ret[w] = ways[w].read(cut, n, &e[w], &g[w], err, sizeof(err));
			if (n < sizeof(struct ses_mpiev_file_header)) {
				assert_int_equal(ret[w], -EINVAL);
				assert_true(err[0]);
				assert_null(e[w].calls);
				continue;
			}
			assert_int_equal(ret[w], 0);
			assert_false(e[w].complete);
			assert_true(e[w].damage[0]);
			assert_true(e[w].damaged_at <= n);
			assert_true(e[w].ncalls <= 4 && e[w].nnames <= 4);
			for (size_t i = 0; e[w].calls && i < e[w].ncalls; i++)
				assert_true(e[w].calls[i].done <= e[w].ncalls);
		}
		if (!ret[0]) {
			assert_int_equal(e[1].damaged_at, e[0].damaged_at);
			assert_int_equal(e[1].ncalls, e[0].ncalls);
			assert_int_equal(events_of(&ways[1], &e[1], &g[1]),
					 events_of(&ways[0], &e[0], &g[0]));
		}
		ses_mpiev_release(&e[0]);
		ses_mpiev_release(&e[1]);
		free(cut);
	}
}

/* Beneath a session's fd, each way: none without mpi/ or without the file, good()'s file
 * read whole (4 calls, 6 events), and the file named when it is no regular file. */
static void finds_the_file_beneath_the_session(void **state)
{
	(void)state;
	for (int w = 0; w < 2; w++) {
		char dir[] = "/tmp/uprof-test-mpiev.XXXXXX", path[96], err[256];
		struct ses_mpiev e;
		struct got g = { 0 };
		int dfd, nodir;

		nodir = open("/", O_RDONLY | O_DIRECTORY); /* no mpi/ there */
		assert_int_equal(ways[w].find_at(nodir, &e, &g, err, sizeof(err)), 0);
		ses_mpiev_release(&e);
		close(nodir);
		dfd = session_dir(dir, path, sizeof(path), false);
		assert_int_equal(ways[w].find_at(dfd, &e, &g, err, sizeof(err)), 0); /* no file */
		ses_mpiev_release(&e);
		session_rm(dir, path, dfd);
		strcpy(dir, "/tmp/uprof-test-mpiev.XXXXXX");
		dfd = session_dir(dir, path, sizeof(path), true);
		assert_int_equal(ways[w].find_at(dfd, &e, &g, err, sizeof(err)), 1);
		assert_true(e.complete);
		assert_int_equal(e.ncalls, 4);
		assert_int_equal(events_of(&ways[w], &e, &g), 6);
		ses_mpiev_release(&e);
		/* a FIFO where the file is: refused, named */
		make_fifo(path);
		assert_int_equal(ways[w].find_at(dfd, &e, &g, err, sizeof(err)), -SES_ENOTREG);
		assert_string_equal(err, "mpi/77.mpiev: is a FIFO, not a regular file");
		session_rm(dir, path, dfd);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_a_whole_file),
		cmocka_unit_test(reads_the_ns_clock),
		cmocka_unit_test(part_events_are_messages_of_their_call),
		cmocka_unit_test(truncated_files),
		cmocka_unit_test(corrupted_headers),
		cmocka_unit_test(corrupted_events),
		cmocka_unit_test(finds_the_file_beneath_the_session),
		cmocka_unit_test(streams_a_whole_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/* lib/export/mpi_match.c: messages matched from the call that sent them to the call where
 * they arrived, on made-up ranks' calls (MPI's non-overtaking rule, wildcards, requests,
 * communicators, the cap). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "export/internal.h"

#define MAXC 16

struct rank {
	struct ses_mpiev ev;
	struct ses_mpiev_call calls[MAXC];
};

static struct ses_mpiev_call *call(struct rank *r, int64_t begin, uint32_t flags)
{
	struct ses_mpiev_call *c = &r->calls[r->ev.ncalls++];

	memset(c, 0, sizeof(*c));
	c->begin_ns = begin;
	c->end_ns = begin + 10;
	c->flags = flags;
	c->dest = c->source = -1;
	return c;
}

static struct ses_mpiev_call *send(struct rank *r, int64_t t, int dest, int tag, uint32_t comm)
{
	struct ses_mpiev_call *c = call(r, t, SES_MPIEV_SEND);

	c->dest = dest;
	c->send_tag = tag;
	c->comm = comm;
	return c;
}

static struct ses_mpiev_call *recv(struct rank *r, int64_t t, int source, int tag, uint32_t comm)
{
	struct ses_mpiev_call *c = call(r, t, SES_MPIEV_RECV);

	c->source = source;
	c->recv_tag = tag;
	c->comm = comm;
	return c;
}

static void ranks_init(struct rank *r, struct rpt_mpi_rank *out, int n)
{
	for (int i = 0; i < n; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		r[i].ev.calls = r[i].calls;
		r[i].ev.rank = i;
		r[i].ev.size = n;
		memset(&out[i], 0, sizeof(out[i]));
		out[i].ev = &r[i].ev;
		out[i].rank = i;
	}
}

/* Flow @k is from (rank, call) to (rank, call). */
static void flow_is(const struct rpt_pf_mpi *m, size_t k, uint32_t sr, uint32_t sc, uint32_t rr,
		    uint32_t rc)
{
	assert_true(k < m->nflows);
	assert_int_equal(m->flows[k].send_rank, sr);
	assert_int_equal(m->flows[k].send_call, sc);
	assert_int_equal(m->flows[k].recv_rank, rr);
	assert_int_equal(m->flows[k].recv_call, rc);
}

/* Three messages of one tag: the k-th send arrives in the k-th receive posted, whatever
 * their times say (a late receive posted first still takes the first message). */
static void messages_of_one_tag_arrive_in_order(void **state)
{
	struct rank r[2];
	struct rpt_mpi_rank in[2];
	struct rpt_pf_mpi *m;

	(void)state;
	ranks_init(r, in, 2);
	for (int k = 0; k < 3; k++) {
		send(&r[0], 100 + 10 * k, 1, 5, 0);
		recv(&r[1], 1000 - 100 * k, 0, 5, 0); /* posted in order, times reversed */
	}
	assert_int_equal(rpt_pf_mpi_new(&m, in, 2, 100), 0);
	assert_int_equal(m->nflows, 3);
	for (uint32_t k = 0; k < 3; k++)
		flow_is(m, k, 0, k, 1, k);
	assert_int_equal(m->unmatched_sends + m->unmatched_recvs, 0);
	rpt_pf_mpi_free(m);
}

/* A nonblocking receive's message arrives in the call that completed it; one from
 * MPI_ANY_SOURCE never completed matches nothing and is counted; another communicator's
 * message with the same ranks and tag is not this one's; MPI_PROC_NULL sends nothing. */
static void requests_wildcards_and_communicators(void **state)
{
	struct rank r[3];
	struct rpt_mpi_rank in[3];
	struct rpt_pf_mpi *m;
	struct ses_mpiev_call *irecv;

	(void)state;
	ranks_init(r, in, 3);
	send(&r[0], 10, 1, 7, 0);		/* 0.0 -> arrives in rank 1's Waitall */
	send(&r[0], 20, 1, 7, 42);		/* 0.1: on communicator 42, nobody receives */
	send(&r[0], 30, -1, 7, 0);		/* 0.2: MPI_PROC_NULL */
	irecv = recv(&r[1], 5, 0, 7, 0);	/* 1.0 */
	irecv->flags |= SES_MPIEV_NONBLOCKING | SES_MPIEV_STATUS;
	call(&r[1], 50, 0);			/* 1.1: the Waitall */
	irecv->done = 2;
	recv(&r[1], 60, -1, 7, 0)->flags |= SES_MPIEV_NONBLOCKING; /* 1.2: never completed */
	recv(&r[2], 70, 0, 7, 0);				   /* 2.0: nobody sends */
	assert_int_equal(rpt_pf_mpi_new(&m, in, 3, 100), 0);
	assert_int_equal(m->nflows, 1);
	flow_is(m, 0, 0, 0, 1, 1);
	assert_int_equal(m->flows[0].posted, 0);
	assert_int_equal(m->unmatched_sends, 2);
	assert_int_equal(m->unmatched_recvs, 2);
	rpt_pf_mpi_free(m);
}

/* MPI_Startall's messages are PARTs of its call: each matched on its own, rank 0's two
 * sends (tags 1 and 2) to rank 1's receive PARTs, which arrive in the Waitall that
 * completed them; a PART never completed arrives in the Startall's own PART. */
static void startall_parts_are_messages(void **state)
{
	struct rank r[2];
	struct rpt_mpi_rank in[2];
	struct rpt_pf_mpi *m;
	struct ses_mpiev_call *c;

	(void)state;
	ranks_init(r, in, 2);
	call(&r[0], 10, 0); /* 0.0: the Startall */
	for (int tag = 1; tag <= 2; tag++) {
		c = send(&r[0], 10, 1, tag, 0); /* 0.1, 0.2 */
		c->flags |= SES_MPIEV_PART | SES_MPIEV_NONBLOCKING;
		c->part_of = 1;
	}
	call(&r[1], 5, 0); /* 1.0: the Startall */
	for (int tag = 1; tag <= 2; tag++) {
		c = recv(&r[1], 5, 0, tag, 0); /* 1.1, 1.2 */
		c->flags |= SES_MPIEV_PART | SES_MPIEV_NONBLOCKING;
		c->part_of = 1;
	}
	call(&r[1], 50, 0); /* 1.3: the Waitall */
	r[1].calls[1].done = 4;
	assert_int_equal(rpt_pf_mpi_new(&m, in, 2, 100), 0);
	assert_int_equal(m->nflows, 2);
	flow_is(m, 0, 0, 1, 1, 3);
	flow_is(m, 1, 0, 2, 1, 2);
	assert_int_equal(m->unmatched_sends + m->unmatched_recvs, 0);
	rpt_pf_mpi_free(m);
}

/* A Sendrecv is both ends: each rank's call sends to and receives from the other. */
static void sendrecv_is_both_ends(void **state)
{
	struct rank r[2];
	struct rpt_mpi_rank in[2];
	struct rpt_pf_mpi *m;

	(void)state;
	ranks_init(r, in, 2);
	for (int i = 0; i < 2; i++) {
		struct ses_mpiev_call *c = send(&r[i], 10, 1 - i, 3, 0);

		c->flags |= SES_MPIEV_RECV;
		c->source = 1 - i;
		c->recv_tag = 3;
	}
	assert_int_equal(rpt_pf_mpi_new(&m, in, 2, 100), 0);
	assert_int_equal(m->nflows, 2);
	flow_is(m, 0, 0, 0, 1, 0);
	flow_is(m, 1, 1, 0, 0, 0);
	rpt_pf_mpi_free(m);
}

/* The cap keeps the earliest calls (with the ranks' offsets) and matches among them. */
static void the_cap_keeps_the_earliest(void **state)
{
	struct rank r[2];
	struct rpt_mpi_rank in[2];
	struct rpt_pf_mpi *m;

	(void)state;
	ranks_init(r, in, 2);
	in[1].offset_ns = 1000; /* rank 1's clock: 1 us later on the time line */
	send(&r[0], 100, 1, 1, 0);
	send(&r[0], 2000, 1, 1, 0);
	recv(&r[1], 0, 0, 1, 0);   /* at 1000 */
	recv(&r[1], 900, 0, 1, 0); /* at 1900: past the cap of 2 calls */
	assert_int_equal(rpt_pf_mpi_new(&m, in, 2, 2), 0);
	assert_true(m->cut);
	assert_int_equal(m->cut_ns, 1900);
	assert_true(rpt_pf_mpi_kept(m, 0, 0) && rpt_pf_mpi_kept(m, 1, 0));
	assert_false(rpt_pf_mpi_kept(m, 1, 1));
	assert_int_equal(m->nflows, 1);
	flow_is(m, 0, 0, 0, 1, 0);
	/* the second send and receive are past the cut: neither drawn nor unmatched */
	assert_int_equal(m->unmatched_sends + m->unmatched_recvs, 0);
	assert_int_equal(m->ncalls, 4);
	rpt_pf_mpi_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(messages_of_one_tag_arrive_in_order),
		cmocka_unit_test(requests_wildcards_and_communicators),
		cmocka_unit_test(sendrecv_is_both_ends),
		cmocka_unit_test(startall_parts_are_messages),
		cmocka_unit_test(the_cap_keeps_the_earliest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

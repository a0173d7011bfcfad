// SPDX-License-Identifier: MIT
/*
 * uprof collect as an MPI rank, stopped by a signal: the launcher ending the job. Its
 * SIGKILL may follow at once (Open MPI 4.1 sent it 85 ms after its SIGTERM in a run
 * traced here; MPICH's hydra sends SIGKILL alone, to the rank's whole process group), so
 * the end's rewrite of session.ini may never come. session.ini says at once what ended
 * the collection and when: a collect killed after this leaves that, and report ends the
 * profile there and names the signal (lib/job/job_end.c), not 0 s and no cause.
 */
#include "cli/collect.h"

#include <time.h>

void collect_note_stop(struct collect_state *st)
{
	struct ses_info in;

	if (!st->mpi.on || st->attach || st->session_fd < 0)
		return;
	in = st->info;
	/* still "running": its counts are the start's, and a report of a session left so by a
	 * collect that is gone takes it for killed (lib/report/load.c) */
	in.stop_signal = st->stop_signal;
	in.end_mono_ns = cli_now_ns(CLOCK_MONOTONIC);
	in.end_epoch_ns = cli_now_ns(CLOCK_REALTIME);
	ses_info_write(st->session_fd, &in); /* best effort: the end writes it again */
}

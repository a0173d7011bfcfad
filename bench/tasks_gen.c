// SPDX-License-Identifier: MIT
/*
 * A synthetic instrument/<pid>.tasks for bench/tasks_names.sh, written through lib/session's
 * own tasks writer (the format collect writes):
 *   tasks_gen SESSION PID TID RECORDS NAMES START_NS END_NS
 * NAMES task names (ids 2..NAMES+1) in domain "Bench" (id 1), then RECORDS/2 begin+end
 * pairs on thread TID, name i % NAMES for pair i, spread evenly over [START_NS, END_NS]
 * (each instance half its slot), so every name is looked up RECORDS/NAMES times.
 */
#include "session/session.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct ses_tasks_writer *w;
	uint64_t records, names, start, end, pairs, step;
	char name[32];
	int pid, tid, dfd, ret = 0;

	if (argc != 8) {
		fprintf(stderr, "usage: %s SESSION PID TID RECORDS NAMES START_NS END_NS\n", argv[0]);
		return 2;
	}
	pid = atoi(argv[2]);
	tid = atoi(argv[3]);
	records = strtoull(argv[4], NULL, 0);
	names = strtoull(argv[5], NULL, 0);
	start = strtoull(argv[6], NULL, 0);
	end = strtoull(argv[7], NULL, 0);
	pairs = records / 2;
	if (!names || !pairs || end <= start || names > UINT32_MAX - 2) {
		fprintf(stderr, "tasks_gen: need NAMES > 0, RECORDS >= 2, END_NS > START_NS\n");
		return 2;
	}
	step = (end - start) / pairs ? (end - start) / pairs : 1;
	dfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	w = dfd < 0 ? NULL : ses_tasks_writer_open(dfd, pid);
	if (!w) {
		fprintf(stderr, "tasks_gen: %s/%s/%d.tasks: %s\n", argv[1], SES_TASKS_DIR, pid,
			strerror(errno));
		return 1;
	}
	ret = ses_tasks_write_string(w, 1, "Bench", 5);
	for (uint64_t i = 0; i < names && !ret; i++) {
		int n = snprintf(name, sizeof(name), "task-%" PRIu64, i);

		ret = ses_tasks_write_string(w, (uint32_t)(i + 2), name, (size_t)n);
	}
	for (uint64_t i = 0; i < pairs && !ret; i++) {
		uint64_t t = start + i * step;
		struct ses_task_record b = { t, (uint32_t)tid, SES_TASK_BEGIN, 0, 1,
					     (uint32_t)(i % names + 2) };
		struct ses_task_record e = { t + step / 2, (uint32_t)tid, SES_TASK_END, 0, 1, 0 };

		ret = ses_tasks_write_record(w, &b);
		if (!ret)
			ret = ses_tasks_write_record(w, &e);
	}
	if (ses_tasks_writer_close(w) && !ret)
		ret = -EIO;
	if (ret) {
		fprintf(stderr, "tasks_gen: writing: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}

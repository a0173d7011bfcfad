// SPDX-License-Identifier: MIT
/* The rank and the job id from what the launcher put in the environment (launcher.h). */
#include "launcher/launcher.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first of @names that is set to a number in [0, @max], into *@out; its name, or NULL. */
static const char *env_int(const char *const *names, int max, int *out)
{
	for (; *names; names++) {
		const char *v = getenv(*names);
		char *end;
		long n;

		if (!v || !*v)
			continue;
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno || *end || n < 0 || n > max)
			continue;
		*out = (int)n;
		return *names;
	}
	return NULL;
}

int launcher_rank_detect(struct launcher_rank *out)
{
	static const char *const ranks[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
					     "SLURM_PROCID", NULL };
	static const char *const sizes[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS",
					     NULL };
	static const char *const locals[] = { "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
					      "SLURM_LOCALID", NULL };

	out->rank = 0;
	out->size = out->local_rank = -1;
	out->from = env_int(ranks, LAUNCHER_MAX_RANKS - 1, &out->rank);
	if (!out->from)
		return -ENOENT;
	env_int(sizes, LAUNCHER_MAX_RANKS, &out->size);
	env_int(locals, LAUNCHER_MAX_RANKS - 1, &out->local_rank);
	if (out->size == 0 || (out->size > 0 && out->rank >= out->size))
		return -ERANGE;
	return 0;
}

void launcher_job_id_clean(char *dst, size_t size, const char *src)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789._-";
	size_t i = 0;

	if (!size)
		return;
	for (; src[i] && i + 1 < size; i++)
		dst[i] = strchr(ok, src[i]) ? src[i] : '_';
	dst[i] = 0;
}

int launcher_job_id(char *out, size_t size)
{
	static const char *const direct[] = { "PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid",
					      "PMI_KVSNAME", NULL };
	const char *job = getenv("UPROF_MPI_JOB"), *step;
	char buf[256];
	int fd, ret = 0;

	for (int i = 0; direct[i] && !(job && *job); i++)
		job = getenv(direct[i]);
	if (!(job && *job) && getenv("SLURM_JOB_ID")) {
		step = getenv("SLURM_STEP_ID");
		snprintf(buf, sizeof(buf), "slurm.%s.%s", getenv("SLURM_JOB_ID"),
			 step ? step : "0");
		job = buf;
	}
	if (!(job && *job)) {
		fd = launcher_pmi_fd();
		ret = fd < 0 ? fd
			     : launcher_pmi_kvsname(fd, LAUNCHER_PMI_TIMEOUT_MS, buf, sizeof(buf));
		job = buf;
	}
	if (!ret)
		launcher_job_id_clean(out, size, job);
	return ret;
}

// SPDX-License-Identifier: MIT
/* uprof pcm top: AMDuProfPcm's live view. Every -I ms a table per group: the system and
 * each core as rows, the group's metrics as columns; on a terminal each table replaces
 * the last, else they follow one another. Without -m: ipc where a core PMU exists, else
 * swi (software events), said on the first line. No -A (AMDuProfPcm's rule too: the rows
 * are the system and every core), no CSV options: it is a view, not a file. */
#include "cli/pcm.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const CMD = "pcm top";

int pcm_top_prepare(struct pcm_state *st)
{
	char path[4096];

	if (st->levels_given)
		return cli_usage_error(CMD,
				       "-A is not for top: its rows are the system and every core");
	if (st->cumulative || st->out_path || st->out_dir || st->html)
		return cli_usage_error(CMD, "top shows a live table: -C, -o, -O and --html are for "
					    "'uprof pcm' without top");
	if (st->prog_argv || st->attach_id)
		return cli_usage_error(CMD, "top watches the whole machine: no program, --pid or "
					    "--tid");
	if (!st->groups_arg[0] && !st->user_cfg) {
		snprintf(path, sizeof(path), "%s/bus/event_source/devices/cpu", pmc_sysfs_root());
		bool core = !access(path, F_OK);

		snprintf(st->groups_arg, sizeof(st->groups_arg), "%s", core ? "ipc" : "swi");
		if (!core)
			fprintf(stderr, "uprof pcm top: no core PMU on this machine: showing swi "
					"(software events: CPU time, context switches, migrations, "
					"page faults)\n");
	}
	st->levels = (1u << PMC_LEVEL_SYSTEM) | (1u << PMC_LEVEL_CORE);
	if (!st->cpu_arg[0])
		st->all_cpus = true;
	return -1;
}

static int width_of(const char *name)
{
	int n = (int)strlen(name);

	return n < 10 ? 10 : n;
}

void pcm_top_frame(struct pcm_state *st, FILE *f, const struct pmc_count *delta,
		   const uint64_t *idle, int64_t elapsed_ns)
{
	time_t now = time(NULL);
	char stamp[32];

	strftime(stamp, sizeof(stamp), "%H:%M:%S", localtime(&now));
	if (isatty(fileno(f)))
		fputs("\033[H\033[2J", f); /* home, clear: the new table replaces the last */
	fprintf(f, "uprof pcm top  %s  every %u ms  (Ctrl-C ends)\n", stamp, st->interval_ms);
	for (int g = 0; g < st->mg.ngroups; g++) {
		const struct pmc_group *grp = &st->mg.groups[g];

		fprintf(f, "\n%-20s", grp->name);
		for (int m = 0; m < grp->nmetrics; m++)
			fprintf(f, "  %*s", width_of(st->mg.metrics[grp->first_metric + m].name),
				st->mg.metrics[grp->first_metric + m].name);
		fputc('\n', f);
		for (int c = 0; c < st->ncomps; c++) {
			const struct pcm_comp *comp = &st->comps[c];

			if (comp->group != g)
				continue;
			fprintf(f, "%-20s", comp->label);
			for (int m = 0; m < grp->nmetrics; m++) {
				int mi = grp->first_metric + m;
				double v = pcm_metric_value(st, comp, mi, delta, idle, elapsed_ns);
				int w = width_of(st->mg.metrics[mi].name);

				if (isnan(v))
					fprintf(f, "  %*s", w, "-");
				else
					fprintf(f, "  %*.*f", w, pcm_metric_decimals(st, mi), v);
			}
			fputc('\n', f);
		}
	}
	fflush(f);
}

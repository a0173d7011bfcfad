// SPDX-License-Identifier: MIT
/* Read access to a loaded report: the summary and the hottest rows of each section. */
#include "report/internal.h"
#include "symbols/symbols.h"

#include <stdlib.h>
#include <string.h>

static double period_s(const struct rpt *r)
{
	return r->info.nevents ? (double)r->info.events[0].period / 1e9 : 0.001;
}

/* samples per second of the CPU time sampled; 0 when it is not known */
static double achieved_hz(const struct rpt *r, const char **mode)
{
	double cpu = rpt_rate_cpu_s(r, mode);

	return cpu > 0 ? (double)(r->sample_records + r->filtered_samples + r->tool_dropped +
				  r->system_samples) /
				 cpu
		       : 0;
}

static void module_states(const struct rpt *r, struct rpt_summary *s)
{
	uint64_t top_missing = 0, top_changed = 0, top_cache = 0, top_bin = 0;

	for (int i = 0; i < r->world.nmodules; i++) {
		const struct rpt_module *m = &r->world.modules[i];

		if (!m->samples)
			continue;
		switch (rpt_symtab_file_found(r->symtab, m->path)) {
		case RPT_FOUND_CACHE:
			if (!s->cache_modules++ || m->samples > top_cache) {
				top_cache = m->samples;
				s->cache_module = m->path;
			}
			break;
		case RPT_FOUND_BIN_PATH:
			if (!s->bin_path_modules++ || m->samples > top_bin) {
				top_bin = m->samples;
				s->bin_path_module = m->path;
			}
			break;
		default:
			break;
		}
		switch (rpt_symtab_file_state(r->symtab, m->path)) {
		case RPT_FILE_MISSING:
			s->missing_modules++;
			s->missing_samples += m->samples;
			if (m->samples > top_missing) {
				top_missing = m->samples;
				s->missing_module = m->path;
			}
			break;
		case RPT_FILE_CHANGED:
			s->changed_modules++;
			s->changed_samples += m->samples;
			if (m->samples > top_changed) {
				top_changed = m->samples;
				s->changed_module = m->path;
			}
			break;
		default:
			break;
		}
	}
}

void rpt_summary(const struct rpt *r, struct rpt_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->info = &r->info;
	s->samples = r->samples;
	s->sample_records = r->sample_records;
	s->kept_samples = r->kept_samples;
	s->lost = r->lost > r->info.lost_samples ? r->lost : r->info.lost_samples;
	s->damaged_at = r->damaged_at;
	s->damage = r->damage;
	s->unparsable = r->unparsable;
	s->counted_samples = r->info.samples;
	s->file_samples = r->file_samples;
	s->counted_lost = r->info.lost_samples;
	s->file_lost = r->lost;
	s->counted_pause_ns = r->info.pause_total_ns;
	s->file_pause_ns = r->file_pause_ns;
	s->count_damage = r->counts_final && (s->counted_samples != s->file_samples ||
					      s->counted_lost != s->file_lost ||
					      s->counted_pause_ns != s->file_pause_ns);
	s->period_s = period_s(r);
	s->cpu_time_s = (double)r->samples * rpt_sample_s(r);
	s->requested_hz = s->period_s > 0 ? 1.0 / s->period_s : 0;
	/* the rate is the collection's: samples outside -p / --time-filter count too, over
	 * the CPU time of the modes sampled and the unpaused share of the run */
	s->achieved_hz = achieved_hz(r, &s->rate_mode);
	s->rate_samples =
		r->sample_records + r->filtered_samples + r->tool_dropped + r->system_samples;
	s->rate_max_samples = rpt_rate_max_samples(r);
	s->rate_damage = s->rate_max_samples && s->rate_samples > s->rate_max_samples;
	s->throttles = r->throttles;
	s->time_scale = r->time_scale;
	s->interrupted = r->info.status != SES_STATUS_COMPLETE;
	s->collect_killed = r->collect_killed;
	s->pause_s = (double)r->pause_total_ns / 1e9;
	s->npauses = r->pause_rows;
	s->paused_samples = r->paused_samples;
	s->unknown_rows = r->unknown_rows;
	s->unknown_s = (double)r->unknown_total_ns / 1e9;
	s->unknown_samples = r->unknown_samples;
	s->lost_pause_records = r->info.lost_pause_records;
	s->filtered = r->opts.nonly_pids || r->opts.time_filter;
	s->filtered_samples = r->filtered_samples;
	s->tool_dropped = r->tool_dropped;
	s->has_tasks = r->has_tasks;
	s->task_records = r->task_records;
	s->task_instances = r->task_instances;
	s->task_lost = r->task_lost > r->info.lost_task_records ? r->task_lost
								: r->info.lost_task_records;
	s->task_malformed = r->task_malformed;
	s->task_comma = r->task_comma;
	s->task_names_dropped = r->task_names_dropped;
	s->task_unnamed = r->task_unnamed;
	s->pages_squatted = r->info.pages_squatted;
	s->pages_refused = r->info.pages_refused;
	s->pages_not_followed = r->info.pages_not_followed;
	s->pages_pids = r->info.pages_pids;
	s->task_comma_name = r->task_comma ? r->task_comma_name : NULL;
	s->nfile_notes = r->nfile_notes;
	s->file_notes = r->file_notes;
	module_states(r, s);
	for (int i = 0; i < r->world.nprocs; i++)
		s->nprocesses += r->world.procs[i].samples > 0;
	for (int i = 0; i < r->world.nthreads; i++)
		s->nthreads += r->world.threads[i].samples > 0;
	for (int i = 0; i < r->nprograms; i++)
		s->nprograms += r->programs[i].samples > 0;
	s->by_program = rpt_programs_shown(r);
}

struct keyed {
	int idx;
	uint64_t samples;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->idx - y->idx;
}

int rpt_rows_max(const struct rpt *r)
{
	return r->nfuncs + r->world.nprocs + r->world.nmodules + r->world.nthreads + 1;
}

int rpt_rows(const struct rpt *r, enum rpt_section sec, struct rpt_row *rows, int max)
{
	const struct rpt_world *w = &r->world;
	int n = sec == RPT_FUNCTIONS   ? r->nfuncs
		: sec == RPT_PROCESSES ? w->nprocs
		: sec == RPT_MODULES   ? w->nmodules
		: sec == RPT_TASKS     ? r->nitems
		: sec == RPT_PROGRAMS  ? r->nprograms
				       : w->nthreads;
	struct keyed *k = malloc(sizeof(*k) * (n ? n : 1));
	int out = 0;

	if (!k)
		return 0;
	for (int i = 0; i < n; i++) {
		uint64_t s = sec == RPT_FUNCTIONS   ? r->funcs[i].samples
			     : sec == RPT_PROCESSES ? w->procs[i].samples
			     : sec == RPT_MODULES   ? w->modules[i].samples
			     : sec == RPT_TASKS	    ? r->items[i].samples
			     : sec == RPT_PROGRAMS  ? r->programs[i].samples
						    : w->threads[i].samples;

		k[i] = (struct keyed){ i, s };
	}
	util_qsort(k, n, sizeof(*k), cmp_keyed);
	/* tasks are listed even with no samples: a sleeping task still has an elapsed time */
	for (int i = 0; i < n && out < max && (k[i].samples || sec == RPT_TASKS); i++, out++) {
		struct rpt_row *row = &rows[out];
		int idx = k[i].idx;

		memset(row, 0, sizeof(*row));
		row->item = idx;
		row->samples = k[i].samples;
		row->seconds = (double)k[i].samples * rpt_sample_s(r);
		switch (sec) {
		case RPT_FUNCTIONS:
			row->name = r->funcs[idx].name;
			row->module = w->modules[r->funcs[idx].module].path;
			break;
		case RPT_PROCESSES:
			rpt_process_name(r, idx, row->buf, sizeof(row->buf));
			row->name = row->buf;
			row->id = w->procs[idx].pid;
			break;
		case RPT_MODULES:
			row->name = w->modules[idx].path;
			break;
		case RPT_THREADS:
			rpt_thread_name(r, idx, row->buf, sizeof(row->buf));
			row->name = row->buf;
			row->id = w->threads[idx].tid;
			break;
		case RPT_TASKS:
			row->name = r->items[idx].name;
			row->module = r->items[idx].domain;
			row->count = r->items[idx].count;
			row->elapsed = (double)r->items[idx].elapsed_ns / 1e9;
			break;
		case RPT_PROGRAMS:
			row->name = r->programs[idx].name;
			row->module = rpt_program_path(r, idx);
			row->count = (uint64_t)r->programs[idx].nprocs;
			break;
		}
	}
	free(k);
	return out;
}

// SPDX-License-Identifier: MIT
/*
 * uprof pcm hreport <dir>: report.html again from what a pcm run saved in -O's directory
 * (AMDuProfPcm's hreport), drawn by the one page writer (pcm_html.c) from a pcm_state
 * rebuilt from the files: the timeseries (report-timeseries.csv of pcm profile, or
 * report.csv of pcm -O), the cumulative table beside it (report-cumulative.csv; or
 * report.csv itself for pcm -C -O) and report-run.tsv (the program's command line and
 * which metrics are counts). The page holds the CSV's own numbers, as the run's page does
 * (pcm_out.c keeps them as written), so the two are the same page.
 *
 * The files are bytes anyone who can write the directory may have put there: read beneath
 * the directory's fd (no symlink followed, no name leaving it), parsed by lib/metric's
 * bounded readers; anything wrong is one line, exit 2, and nothing is written.
 */
#include "cli/pcm.h"
#include "cli/options.h"
#include "metric/metric.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "pcm hreport";

#define MAX_FILE (256u << 20) /* a day of 1 s rows of a few hundred columns */

struct hr_opts {
	const char *out_path;
};

static const struct cli_option options[] = {
	OPT_STRING('o', "output", struct hr_opts, out_path, "<file.html>",
		   "write the page here (default: <dir>/report.html)"),
	OPT_HELP(),
	OPT_END(),
};

static const struct cli_command command = {
	.name = "pcm hreport",
	.usage = "usage: uprof pcm hreport <dir> [-o <file.html>]\n",
	.intro =
		"Write the HTML report of a saved pcm run: the page 'uprof pcm --html' and 'uprof\n"
		"pcm profile' write, drawn again from the files the run left in its -O directory.\n",
	.outro = "<dir> is what 'uprof pcm -O <dir>' or 'uprof pcm profile -O <dir>' wrote:\n"
		 "report.csv or report-timeseries.csv, report-cumulative.csv and report-run.tsv.\n"
		 "See 'man uprof-pcm'.\n",
	.options = options,
	.column = 28,
};

/* What was read from the directory; each NULL/false when it is not there. */
struct saved {
	const char *dir;
	int dfd;
	char *ts_buf, *cum_buf, *run_buf;
	size_t ts_len, cum_len, run_len;
	const char *ts_name;
	bool have_series, have_run;
	struct mtr_pcm_series ser;
	struct mtr_pcm_table *cum; /* NULL: no cumulative table */
	struct mtr_pcm_run run;
	const char *meta;
	size_t meta_len;
};

/* File @name beneath the directory: 0, -ENOENT (not there), or the exit code (said). */
static int read_file(struct saved *sv, const char *name, char **buf, size_t *len)
{
	int ret = util_at_read_all(sv->dfd, name, MAX_FILE, buf, len);

	if (!ret || ret == -ENOENT)
		return ret;
	if (ret == -ENOMEM)
		return cli_error(1, CMD, "out of memory");
	if (ret == -ELOOP)
		return cli_error(EXIT_USAGE, CMD,
				 "'%s/%s' is a symbolic link: not followed (pcm writes plain "
				 "files there)",
				 sv->dir, name);
	if (ret == -EFBIG || ret == -EINVAL)
		return cli_error(EXIT_USAGE, CMD, "'%s/%s' is not a pcm file (%s)", sv->dir, name,
				 ret == -EFBIG ? "over 256 MiB" : "not a regular file");
	return cli_error(EXIT_USAGE, CMD, "cannot read '%s/%s': %s", sv->dir, name, strerror(-ret));
}

/* The cumulative table in @buf (@name): parsed into sv->cum, or the exit code (said). */
static int parse_cumulative(struct saved *sv, const char *name, const char *buf, size_t len)
{
	char err[512];

	sv->cum = malloc(sizeof(*sv->cum));
	if (!sv->cum)
		return cli_error(1, CMD, "out of memory");
	if (mtr_pcm_table_parse(buf, len, sv->cum, err, sizeof(err)))
		return cli_error(EXIT_USAGE, CMD, "%s/%s: %s", sv->dir, name, err);
	return 0;
}

/* The metadata of a file holding only the cumulative table (pcm -C): its lines before
 * the 'Metric,' header. */
static size_t meta_before_table(const char *buf, size_t len)
{
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(buf + pos, '\n', len - pos);

		if (len - pos >= 7 && !memcmp(buf + pos, "Metric,", 7))
			return pos;
		pos = nl ? (size_t)(nl - buf) + 1 : len;
	}
	return 0;
}

static int load(struct saved *sv)
{
	char err[512];
	int ret;

	sv->ts_name = PCM_PROFILE_TIMESERIES;
	ret = read_file(sv, sv->ts_name, &sv->ts_buf, &sv->ts_len);
	if (ret == -ENOENT) {
		sv->ts_name = "report.csv";
		ret = read_file(sv, sv->ts_name, &sv->ts_buf, &sv->ts_len);
	}
	if (ret == -ENOENT)
		return cli_error(EXIT_USAGE, CMD,
				 "'%s' is not a uprof pcm output directory: it holds neither %s "
				 "nor report.csv (give the directory of 'uprof pcm -O <dir>' or "
				 "'uprof pcm profile -O <dir>')",
				 sv->dir, PCM_PROFILE_TIMESERIES);
	if (ret)
		return ret;
	ret = mtr_pcm_series_parse(sv->ts_buf, sv->ts_len, PCM_HTML_MAX_VALUES, &sv->ser, err,
				   sizeof(err));
	if (ret == -ENOMEM)
		return cli_error(1, CMD, "out of memory");
	if (ret == -ENODATA && !strcmp(sv->ts_name, "report.csv")) {
		/* pcm -C -O: report.csv is the cumulative table alone */
		ret = parse_cumulative(sv, sv->ts_name, sv->ts_buf, sv->ts_len);
		if (ret)
			return ret;
		sv->meta = sv->ts_buf;
		sv->meta_len = meta_before_table(sv->ts_buf, sv->ts_len);
	} else if (ret) {
		return cli_error(EXIT_USAGE, CMD, "%s/%s: %s", sv->dir, sv->ts_name,
				 ret == -ENODATA ? "no timeseries header (a 'Timestamp,' row): "
						   "not a uprof pcm timeseries"
						 : err);
	} else {
		sv->have_series = true;
		sv->meta = sv->ts_buf;
		sv->meta_len = sv->ser.meta_len;
		ret = read_file(sv, PCM_PROFILE_CUMULATIVE, &sv->cum_buf, &sv->cum_len);
		if (ret && ret != -ENOENT)
			return ret;
		if (ret == -ENOENT)
			fprintf(stderr,
				"uprof %s: note: '%s' holds no %s (written beside the timeseries "
				"since uprof pcm hreport): the page has no cumulative table\n",
				CMD, sv->dir, PCM_PROFILE_CUMULATIVE);
		else if ((ret = parse_cumulative(sv, PCM_PROFILE_CUMULATIVE, sv->cum_buf,
						 sv->cum_len)))
			return ret;
	}
	ret = read_file(sv, PCM_RUN_FILE, &sv->run_buf, &sv->run_len);
	if (ret == -ENOENT) {
		fprintf(stderr,
			"uprof %s: note: '%s' holds no %s (written by uprof pcm -O since uprof "
			"pcm hreport): the page has no Program line, and which metrics are "
			"counts (no decimals) is taken from how their cells are written\n",
			CMD, sv->dir, PCM_RUN_FILE);
		return 0;
	}
	if (ret)
		return ret;
	ret = mtr_pcm_run_parse(sv->run_buf, sv->run_len, &sv->run, err, sizeof(err));
	if (ret == -ENOMEM)
		return cli_error(1, CMD, "out of memory");
	if (ret)
		return cli_error(EXIT_USAGE, CMD, "%s/%s: %s", sv->dir, PCM_RUN_FILE, err);
	sv->have_run = true;
	return 0;
}

/* The aggregation level a component label names (pcm_groups.c's comp_label): only which
 * components share a chart depends on it. */
static enum pmc_level level_of(const char *label)
{
	static const struct {
		const char *prefix;
		enum pmc_level level;
	} levels[] = { { "System", PMC_LEVEL_SYSTEM },
		       { "Package", PMC_LEVEL_PACKAGE },
		       { "CCX", PMC_LEVEL_CCX },
		       { "Core-", PMC_LEVEL_CORE } };

	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (!strncmp(label, levels[i].prefix, strlen(levels[i].prefix)))
			return levels[i].level;
	return PMC_LEVEL_CPU;
}

/* Metric @m's name (@name) is a count: the run file's word, else its cells' (@seen: a
 * count has no decimals; a metric with no value anywhere is taken as derived). */
static int metric_kind(const struct saved *sv, int m, const char *name, unsigned seen, bool *count)
{
	if (sv->have_run) {
		if (m >= sv->run.nmetrics || strcmp(sv->run.metric[m].name, name))
			return cli_error(EXIT_USAGE, CMD,
					 "%s/%s does not match %s: its metric %d is '%.64s', the "
					 "CSV's '%.64s'",
					 sv->dir, PCM_RUN_FILE, sv->ts_name, m + 1,
					 m < sv->run.nmetrics ? sv->run.metric[m].name : "(none)",
					 name);
		*count = sv->run.metric[m].count;
		return 0;
	}
	*count = seen == MTR_PCM_SEEN_INT;
	return 0;
}

static int add_metric(struct pcm_state *st, const struct saved *sv, const char *name, unsigned seen)
{
	struct pmc_group_metric *gm;
	bool count = false;
	int ret;

	if (st->mg.nmetrics == PMC_GROUPS_MAX_METRICS)
		return cli_error(EXIT_USAGE, CMD, "%s/%s: more than %d metrics", sv->dir,
				 sv->ts_name, PMC_GROUPS_MAX_METRICS);
	ret = metric_kind(sv, st->mg.nmetrics, name, seen, &count);
	if (ret)
		return ret;
	gm = &st->mg.metrics[st->mg.nmetrics++];
	snprintf(gm->name, sizeof(gm->name), "%s", name);
	gm->count_name = count ? 0 : -1;
	return 0;
}

/* Groups, metrics and components from the timeseries' header. */
static int from_series(struct pcm_state *st, const struct saved *sv)
{
	const struct mtr_pcm_series *s = &sv->ser;
	int ret;

	if (s->ngroups > PMC_GROUPS_MAX)
		return cli_error(EXIT_USAGE, CMD, "%s/%s: more than %d groups", sv->dir,
				 sv->ts_name, PMC_GROUPS_MAX);
	st->comps = calloc((size_t)s->ncomps, sizeof(*st->comps));
	if (!st->comps)
		return cli_error(1, CMD, "out of memory");
	st->ncomps = s->ncomps;
	for (int k = 0; k < s->ncomps; k++) {
		const struct mtr_pcm_series_comp *c = &s->comps[k];
		struct pmc_group *g = &st->mg.groups[c->group];

		snprintf(st->comps[k].label, sizeof(st->comps[k].label), "%s", c->label);
		st->comps[k].group = c->group;
		st->comps[k].level = level_of(c->label);
		if (c->group < st->mg.ngroups)
			continue;
		/* a group's first component: the group's metrics are its columns */
		st->mg.ngroups = c->group + 1;
		snprintf(g->title, sizeof(g->title), "%s", s->titles[c->group]);
		g->first_metric = st->mg.nmetrics;
		g->nmetrics = c->ncols;
		for (int i = 0; i < c->ncols; i++) {
			unsigned seen = 0;

			for (int j = k; j < s->ncomps && s->comps[j].group == c->group; j++)
				seen |= s->seen[s->comps[j].first_col + i];
			if ((ret = add_metric(st, sv, s->metric[c->first_col + i], seen)))
				return ret;
		}
		if (sv->have_run)
			snprintf(g->name, sizeof(g->name), "%s",
				 sv->run.metric[g->first_metric].group);
	}
	return 0;
}

/* pcm -C: one group of the table's metrics, a component per column. */
static int from_table(struct pcm_state *st, const struct saved *sv)
{
	const struct mtr_pcm_table *t = sv->cum;

	st->comps = calloc((size_t)t->ncomps, sizeof(*st->comps));
	if (!st->comps)
		return cli_error(1, CMD, "out of memory");
	st->ncomps = t->ncomps;
	for (int c = 0; c < t->ncomps; c++) {
		snprintf(st->comps[c].label, sizeof(st->comps[c].label), "%s", t->comp[c]);
		st->comps[c].level = level_of(t->comp[c]);
	}
	st->mg.ngroups = 1;
	for (int m = 0; m < t->nmetrics - 1; m++) {
		int ret = add_metric(st, sv, t->metric[m], t->seen[m]);

		if (ret)
			return ret;
	}
	st->mg.groups[0].nmetrics = st->mg.nmetrics;
	return 0;
}

/* The cumulative table into st->series: a row per metric in the CSV's order, then the
 * multiplex scale; a column per component label. */
static int cumulative(struct pcm_state *st, const struct saved *sv, const char *name)
{
	const struct mtr_pcm_table *t = sv->cum;
	struct pcm_series *s = st->series;

	if (t->nmetrics != st->mg.nmetrics + 1 ||
	    strcmp(t->metric[t->nmetrics - 1], PCM_MUX_SCALE_NAME))
		return cli_error(
			EXIT_USAGE, CMD,
			"%s/%s: %d rows where the run has %d metrics and the '" PCM_MUX_SCALE_NAME
			"' row",
			sv->dir, name, t->nmetrics, st->mg.nmetrics);
	for (int m = 0; m < st->mg.nmetrics; m++)
		if (strcmp(t->metric[m], st->mg.metrics[m].name))
			return cli_error(EXIT_USAGE, CMD,
					 "%s/%s: row %d is '%s' where the timeseries has '%s'",
					 sv->dir, name, m + 2, t->metric[m],
					 st->mg.metrics[m].name);
	for (int c = 0; c < st->ncomps; c++) {
		int j = 0;

		if (pcm_label_index(st, c) != c)
			continue;
		while (j < t->ncomps && strcmp(t->comp[j], st->comps[c].label))
			j++;
		if (j == t->ncomps)
			return cli_error(EXIT_USAGE, CMD, "%s/%s: no column '%s'", sv->dir, name,
					 st->comps[c].label);
		for (int m = 0; m < st->mg.nmetrics; m++)
			s->cum[(size_t)m * (size_t)st->ncomps + (size_t)c] = t->val[m][j];
		s->cum_scale[c] = t->val[t->nmetrics - 1][j];
	}
	s->have_cum = true;
	return 0;
}

/* The state the page writer draws from, as the run had it. */
static int build(struct pcm_state *st, struct saved *sv)
{
	int ret = sv->have_series ? from_series(st, sv) : from_table(st, sv);

	if (ret)
		return ret;
	if (mtr_pcm_meta_uint(sv->meta, sv->meta_len, "Sample interval (ms):", &st->interval_ms))
		return cli_error(EXIT_USAGE, CMD,
				 "%s/%s: no 'Sample interval (ms):' line in its metadata: not a "
				 "uprof pcm file",
				 sv->dir, sv->ts_name);
	if (sv->have_run && sv->run.nmetrics != st->mg.nmetrics)
		return cli_error(EXIT_USAGE, CMD, "%s/%s names %d metrics, %s has %d", sv->dir,
				 PCM_RUN_FILE, sv->run.nmetrics, sv->ts_name, st->mg.nmetrics);
	if (pcm_html_new(st))
		return cli_error(1, CMD, "out of memory");
	st->series->meta = malloc(sv->meta_len + 1);
	if (!st->series->meta)
		return cli_error(1, CMD, "out of memory");
	memcpy(st->series->meta, sv->meta, sv->meta_len);
	st->series->meta_len = sv->meta_len;
	if (sv->have_series) {
		/* the rows, taken over */
		if (st->series->ncols != sv->ser.ncols + 1)
			return cli_error(1, CMD, "internal: %d columns, %d read", st->series->ncols,
					 sv->ser.ncols + 1);
		st->series->vals = sv->ser.vals;
		st->series->stamps = sv->ser.stamps;
		st->series->rows = st->series->cap = sv->ser.rows;
		st->series->rows_total = sv->ser.rows_total;
		sv->ser.vals = NULL;
		sv->ser.stamps = NULL;
	}
	if (sv->cum)
		ret = cumulative(st, sv, sv->have_series ? PCM_PROFILE_CUMULATIVE : sv->ts_name);
	if (!ret && sv->have_run)
		st->prog_argv = sv->run.argv;
	return ret;
}

static int write_page(struct pcm_state *st, struct saved *sv, const char *out_path)
{
	char name[256], path[4096];
	int dfd = sv->dfd, ret;

	snprintf(name, sizeof(name), "report.html");
	snprintf(path, sizeof(path), "%s/report.html", sv->dir);
	if (out_path) {
		dfd = cli_open_parent(out_path, name, sizeof(name));
		if (dfd < 0)
			return cli_error(1, CMD, "cannot write '%s': %s", out_path, strerror(-dfd));
		snprintf(path, sizeof(path), "%s", out_path);
	}
	st->out_dfd = dfd;
	ret = pcm_html_write(st, name);
	st->out_dfd = -1;
	if (dfd != sv->dfd)
		close(dfd);
	if (ret)
		return cli_error(1, CMD, "cannot write '%s': %s", path, strerror(-ret));
	fprintf(stderr, "Generated HTML report path: %s\n", path);
	return 0;
}

int cmd_pcm_hreport(int argc, char **argv)
{
	struct hr_opts o = { 0 };
	struct saved sv = { .dfd = -1 };
	struct pcm_state *st = NULL;
	int first, ret = cli_options_parse(&command, &o, argc, argv, &first);

	if (ret >= 0)
		return ret;
	if (argc - first != 1)
		return cli_usage_error(CMD, "give one directory: the -O directory of a uprof pcm "
					    "run");
	sv.dir = argv[first];
	sv.dfd = util_dir_open(sv.dir);
	if (sv.dfd < 0)
		return cli_error(EXIT_USAGE, CMD,
				 "cannot open '%s': %s (give the -O directory of a uprof pcm run)",
				 sv.dir, strerror(-sv.dfd));
	ret = load(&sv);
	if (!ret && !(st = calloc(1, sizeof(*st))))
		ret = cli_error(1, CMD, "out of memory");
	if (!ret) {
		st->out_dfd = -1;
		ret = build(st, &sv);
	}
	if (!ret)
		ret = write_page(st, &sv, o.out_path);
	if (st) {
		pcm_html_free(st);
		free(st->comps);
		free(st);
	}
	mtr_pcm_series_free(&sv.ser);
	if (sv.have_run)
		mtr_pcm_run_free(&sv.run);
	free(sv.cum);
	free(sv.ts_buf);
	free(sv.cum_buf);
	free(sv.run_buf);
	close(sv.dfd);
	return ret;
}

// SPDX-License-Identifier: MIT
/*
 * uprof pcm compare <baseline>,<other>: two pcm runs' cumulative tables side by side
 * (AMDuProfPcm's compare). Each side is a CSV file with a cumulative table (pcm -C -o) or a
 * directory holding one (pcm profile's report-cumulative.csv, or pcm -C -O's report.csv),
 * read by lib/metric's mtr_pcm_table_parse. Every metric and component of either run is a
 * row: both values, the change and the change in percent of the baseline (empty where a
 * side lacks it or the baseline is 0).
 */
#include "cli/pcm.h"
#include "cli/options.h"
#include "metric/metric.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const CMD = "pcm compare";

#define MAX_FILE (16u << 20) /* a cumulative table is a few KiB; a timeseries may be long */

struct cmp_state {
	const char *out_path;
	char *side[2];
};

static const struct cli_option options[] = {
	OPT_STRING('o', "output", struct cmp_state, out_path, "<file.csv>",
		   "write the comparison here (default: standard output)"),
	OPT_HELP(),
	OPT_END(),
};

static const struct cli_command command = {
	.name = "pcm compare",
	.usage = "usage: uprof pcm compare <baseline>,<other> [-o <file.csv>]\n"
		 "       uprof pcm compare <baseline> <other> [-o <file.csv>]\n",
	.intro = "Compare two pcm runs' cumulative tables, metric by metric and unit by unit.\n",
	.outro =
		"Each side is a CSV file with a cumulative table ('uprof pcm -C -o FILE') or a\n"
		"directory with one ('uprof pcm profile -O DIR': report-cumulative.csv; 'uprof pcm\n"
		"-C -O DIR': report.csv). See 'man uprof-pcm'.\n",
	.options = options,
	.column = 27,
};

/* @path opened for reading (O_NONBLOCK: a FIFO named there does not hang us), or -errno */
static int open_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Side @k's table from @arg (a file, or a directory holding one). */
static int load(const char *arg, struct mtr_pcm_table *t, char *path, size_t plen)
{
	static const char *const names[] = { PCM_PROFILE_CUMULATIVE, "report.csv" };
	char err[512], *buf = NULL;
	struct stat sb;
	size_t len = 0;
	int ret = -ENOENT;

	snprintf(path, plen, "%s", arg);
	if (!stat(arg, &sb) && S_ISDIR(sb.st_mode)) {
		for (size_t i = 0; i < 2 && ret == -ENOENT; i++) {
			snprintf(path, plen, "%s/%s", arg, names[i]);
			ret = util_fd_read_all(open_path(path), MAX_FILE, &buf, &len);
		}
		if (ret == -ENOENT)
			return cli_error(EXIT_USAGE, CMD,
					 "'%s' holds neither %s nor report.csv: give a pcm output "
					 "directory or CSV file",
					 arg, PCM_PROFILE_CUMULATIVE);
	} else {
		ret = util_fd_read_all(open_path(path), MAX_FILE, &buf, &len);
	}
	if (ret == -ENOMEM)
		return cli_error(1, CMD, "out of memory");
	if (ret == -EFBIG || ret == -EINVAL)
		return cli_error(EXIT_USAGE, CMD, "'%s' is not a pcm CSV file (%s)", path,
				 ret == -EFBIG ? "over 16 MiB" : "not a regular file");
	if (ret)
		return cli_error(EXIT_USAGE, CMD, "cannot read '%s': %s", path, strerror(-ret));
	if (mtr_pcm_table_parse(buf, len, t, err, sizeof(err))) {
		free(buf);
		return cli_error(EXIT_USAGE, CMD, "%s: %s", path, err);
	}
	free(buf);
	return -1;
}

static void num(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.2f", v);
}

static void line(FILE *f, const char *metric, const char *comp, double a, double b)
{
	util_csv_cell(f, metric, UTIL_CSV_WHEN_NEEDED);
	fputc(',', f);
	util_csv_cell(f, comp, UTIL_CSV_WHEN_NEEDED);
	fputc(',', f);
	num(f, a);
	fputc(',', f);
	num(f, b);
	fputc(',', f);
	num(f, b - a);
	fputc(',', f);
	if (!isnan(a) && !isnan(b) && a != 0)
		num(f, (b - a) * 100 / fabs(a));
	fputc('\n', f);
}

static void compare(FILE *f, const char *const path[2], struct mtr_pcm_table *t[2])
{
	double a, b;

	fputs("PCM COMPARISON\nBaseline:,", f);
	util_csv_cell(f, path[0], UTIL_CSV_WHEN_NEEDED);
	fputs("\nOther:,", f);
	util_csv_cell(f, path[1], UTIL_CSV_WHEN_NEEDED);
	fputs("\n\nMetric,Component,Baseline,Other,Change,Change (%)\n", f);
	for (int m = 0; m < t[0]->nmetrics; m++)
		for (int c = 0; c < t[0]->ncomps; c++) {
			a = t[0]->val[m][c];
			if (mtr_pcm_table_find(t[1], t[0]->metric[m], t[0]->comp[c], &b))
				b = NAN;
			line(f, t[0]->metric[m], t[0]->comp[c], a, b);
		}
	/* what only the other run has */
	for (int m = 0; m < t[1]->nmetrics; m++)
		for (int c = 0; c < t[1]->ncomps; c++)
			if (mtr_pcm_table_find(t[0], t[1]->metric[m], t[1]->comp[c], &a))
				line(f, t[1]->metric[m], t[1]->comp[c], NAN, t[1]->val[m][c]);
}

static int run(struct cmp_state *st)
{
	struct mtr_pcm_table *t[2] = { calloc(1, sizeof(*t[0])), calloc(1, sizeof(*t[1])) };
	char path[2][PATH_MAX], base[256];
	const char *paths[2] = { path[0], path[1] };
	int ret = -1, dfd = -1;
	FILE *f = stdout;

	if (!t[0] || !t[1])
		ret = cli_error(1, CMD, "out of memory");
	for (int k = 0; k < 2 && ret < 0; k++)
		ret = load(st->side[k], t[k], path[k], sizeof(path[k]));
	if (ret < 0 && st->out_path) {
		dfd = cli_open_parent(st->out_path, base, sizeof(base));
		f = dfd < 0 ? NULL : cli_output_fopen_at(dfd, base);
		if (!f)
			ret = cli_error(1, CMD, "cannot write '%s': %s", st->out_path,
					strerror(dfd < 0 ? -dfd : errno));
	}
	if (ret < 0) {
		compare(f, paths, t);
		ret = 0;
		if (f != stdout) {
			bool bad = ferror(f) != 0;

			bad = fclose(f) != 0 || bad;
			if (bad)
				ret = cli_error(1, CMD, "cannot write '%s': %s", st->out_path,
						strerror(errno ? errno : EIO));
			else
				fprintf(stderr, "Generated data file path: %s\n", st->out_path);
		}
	}
	if (dfd >= 0)
		close(dfd);
	free(t[0]);
	free(t[1]);
	return ret;
}

int cmd_pcm_compare(int argc, char **argv)
{
	struct cmp_state st = { 0 };
	char *comma;
	int first, ret = cli_options_parse(&command, &st, argc, argv, &first);

	if (ret >= 0)
		return ret;
	if (argc - first == 1 && (comma = strchr(argv[first], ',')) && comma[1] &&
	    comma != argv[first] && !strchr(comma + 1, ',')) {
		*comma = 0; /* uProf's form: <d1>,<d2> */
		st.side[0] = argv[first];
		st.side[1] = comma + 1;
	} else if (argc - first == 2) {
		st.side[0] = argv[first];
		st.side[1] = argv[first + 1];
	} else {
		return cli_usage_error(CMD, "give the two runs: <baseline>,<other> (or the two as "
					    "two words)");
	}
	return run(&st);
}

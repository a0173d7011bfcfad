// SPDX-License-Identifier: MIT
/* uprof report: a session directory in, report.csv and a terminal summary out. */
#include "cli/cli.h"
#include "cli/report_args.h"
#include "cli/report_job.h"
#include "cli/report_state.h"
#include "job/job.h"
#include "metric/metric.h"
#include "export/export.h"
#include "report/report.h"
#include "symbols/symbols.h"
#include "session/session.h"
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const CMD = "report";

/* struct report_state: cli/report_state.h */

static const struct cli_command report_cmd = {
	.name = "report",
	.usage = "usage: uprof report -i <session-dir> [<options>]\n"
		 "       uprof report [<options>] <session-dir>\n"
		 "       uprof report [<options>] <perf-pipe-file>\n",
	.intro = "Symbolize and aggregate a session written by 'uprof collect' into\n"
		 "<session-dir>/report.csv (uProf's layout). The ten hottest functions go to\n"
		 "standard output, what the report says about the session to standard error.\n"
		 "A perf pipe file (perf record -o - > FILE, perf inject -o -) is reported\n"
		 "too (-i FILE), into FILE.report.csv: every event, each sample weighted by\n"
		 "its period.\n",
	.options = cli_report_options_table,
	.column = 29,
};

static int parse_options(struct report_state *st, int argc, char **argv)
{
	char msg[256];
	int ret, first;

	st->a.opts.cutoff = 10;
	st->a.opts.openmp_top = 5;
	st->a.opts.mpi_top = 20; /* mpiP's top twenty */
	ret = cli_options_parse(&report_cmd, st, argc, argv, &first);
	if (ret >= 0 || (ret = cli_log_start(CMD, argc, argv)) >= 0)
		return ret;
	/* "uprof report DIR": the session without -i, as uProf takes it */
	if (!st->a.input && first == argc - 1)
		st->a.input = argv[first++];
	if (first < argc) {
		snprintf(msg, sizeof(msg), "unexpected argument '%s'", argv[first]);
		return cli_usage_error(CMD, msg);
	}
	if (!st->a.input)
		return cli_usage_error(CMD, "no session given: use -i <session-dir> (or a perf "
					    "pipe file)");
	return -1;
}

/* A perf file's directory, opened once: its outputs go beside it (FILE.report.csv). */
static int open_input_parent(struct report_state *st)
{
	if (st->input_parent < 0)
		st->input_parent = cli_open_parent(st->a.input, st->input_base,
						   sizeof(st->input_base));
	return st->input_parent;
}

/* Where the CSV goes: st->out_path (to name it), st->out_dfd and st->out_name (to make
 * it). -1 to go on, or an exit code: a directory that is not one is named as such here,
 * rather than as a failed open of "<it>/report.csv". */
static int output_path(struct report_state *st)
{
	const char *o = st->output;
	size_t len = o ? strlen(o) : 0;
	int fd;

	if (!o) { /* a perf file's beside it: FILE.report.csv */
		snprintf(st->out_path, sizeof(st->out_path), "%s%sreport.csv", st->a.input,
			 st->foreign ? "." : "/");
		fd = st->foreign ? open_input_parent(st) : st->dfd;
		if (fd < 0)
			return cli_error(1, CMD,
					 "cannot write '%s': %s; use --report-output <path>",
					 st->out_path, strerror(-fd));
		snprintf(st->out_name, sizeof(st->out_name), "%s%s",
			 st->foreign ? st->input_base : "",
			 st->foreign ? ".report.csv" : "report.csv");
		st->out_dfd = fd;
		return -1;
	}
	while (len > 1 && o[len - 1] == '/') /* "dir/" and "dir" are the same directory */
		len--;
	if (len > 4 && !strncmp(o + len - 4, ".csv", 4) && len == strlen(o)) {
		snprintf(st->out_path, sizeof(st->out_path), "%s", o);
		fd = cli_open_parent(o, st->out_name, sizeof(st->out_name));
		if (fd < 0)
			return cli_error(1, CMD,
					 "cannot write '%s': %s; use --report-output <path>", o,
					 strerror(-fd));
		st->out_dfd = fd;
		return -1;
	}
	fd = util_dir_open(o); /* the user's path, followed as named, once */
	if (fd == -ENOTDIR)
		return cli_error(1, CMD,
				 "--report-output '%s' is not a directory; give a file name "
				 "ending in .csv to write the CSV to a file",
				 o);
	if (fd < 0)
		return cli_error(1, CMD,
				 "--report-output '%s': %s; give an existing directory, or "
				 "a file name ending in .csv",
				 o, fd == -ENOENT ? "no such directory" : strerror(-fd));
	st->out_dfd = fd;
	snprintf(st->out_name, sizeof(st->out_name), "report.csv");
	snprintf(st->out_path, sizeof(st->out_path), "%.*s%sreport.csv", (int)len, o,
		 len == 1 && o[0] == '/' ? "" : "/");
	return -1;
}

/* The directory the exports go in, opened once: --export-dir (made, mode 0700, when it
 * is not there), the session's, or a perf file's. Its fd (st's to close), or -errno with
 * st->export_error. */
static int open_export_dir(struct report_state *st)
{
	char dir[PATH_MAX], base[NAME_MAX + 1];
	size_t len;
	int pfd, fd;

	if (!st->export_dir) {
		fd = st->foreign ? open_input_parent(st) : st->dfd;
		if (fd < 0)
			snprintf(st->export_error, sizeof(st->export_error),
				 "cannot open the directory of '%s': %s", st->a.input,
				 strerror(-fd));
		return fd;
	}
	fd = util_dir_open(st->export_dir);
	if (fd != -ENOENT)
		goto out;
	len = strlen(st->export_dir);
	while (len > 1 && st->export_dir[len - 1] == '/')
		len--;
	snprintf(dir, sizeof(dir), "%.*s", (int)len, st->export_dir);
	pfd = cli_open_parent(dir, base, sizeof(base));
	if (pfd < 0) {
		fd = pfd;
		goto out;
	}
	/* made beneath its parent's fd, then checked to be the directory we made */
	fd = util_at_mkdir(pfd, base, SES_DIR_MODE, true);
	close(pfd);
out:
	if (fd < 0)
		snprintf(st->export_error, sizeof(st->export_error),
			 "cannot create --export-dir '%s': %s", st->export_dir, strerror(-fd));
	return fd;
}

/* Where export @e goes: --export-dir, or the session directory (a perf file's beside
 * it, FILE.<name>). */
static const char *export_path(const struct report_state *st, int e, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", st->export_dir ? st->export_dir : st->a.input,
		 st->foreign && !st->export_dir ? "." : "/", rpt_export_filename(e));
	return buf;
}

/* The terminal, once every file is written (a reader of stdout that goes away early,
 * `| true`, ends us by SIGPIPE and must not cost an export): the summary, then the
 * exports. The table is flushed at once so that stdout and stderr into one file (2>&1)
 * keep the terminal's order. */
static void print_terminal(const struct report_state *st, const struct rpt *r, const char *written)
{
	FILE *table = st->to_stdout ? stderr : stdout;
	char path[PATH_MAX + 64];
	struct rpt_stacks_facts facts;
	struct rpt_omp_trace_facts omp;
	uint64_t os_left = 0;

	report_summary(r, written, table);
	fflush(table);
	for (int e = 0; e < RPT_EXPORT_COUNT; e++)
		if (st->exported[e])
			fprintf(stderr, "Generated %s file: %s\n", rpt_exporter(e)->what,
				export_path(st, e, path, sizeof(path)));
	rpt_stacks_facts(r, &facts);
	if (st->exported[RPT_EXPORT_PERFETTO] && facts.left_out)
		fprintf(stderr,
			"note: trace.json's sample tracks show one sample in %" PRIu64 ", evenly "
			"over the profile (%zu shown, %" PRIu64
			" left out; its otherData says so): "
			"report keeps at most %u samples' times\n",
			facts.stride, facts.nsamples, facts.left_out, RPT_TIMELINE_MAX);
	rpt_omp_trace_facts(r, &omp);
	if (st->exported[RPT_EXPORT_PERFETTO] && omp.left_out)
		fprintf(stderr,
			"note: trace.json's OpenMP tracks end where the report's %u slices did: "
			"%" PRIu64 " later ones left out (its otherData says so)\n",
			RPT_OMP_SLICES_MAX, omp.left_out);
	if (st->exported[RPT_EXPORT_PERFETTO] && rpt_os_span_count(r, &os_left) && os_left)
		fprintf(stderr,
			"note: trace.json's thread-state and system-call tracks end where the "
			"report's %u slices did: %" PRIu64
			" later ones left out (its otherData says so)\n",
			RPT_OS_SPANS_MAX, os_left);
}

/* Each --export into its file, written whole or not at all (temp file + rename). The
 * files are named on the terminal after the table; why one failed goes into
 * st->export_error, said last. 0 or -errno. */
static int write_exports(struct report_state *st, struct rpt *r)
{
	char path[PATH_MAX + 64], name[NAME_MAX + 1], tmp[NAME_MAX + 1];
	int dfd = -1, ret = 0;

	for (int e = 0; e < RPT_EXPORT_COUNT && !ret; e++) {
		FILE *f;

		if (!st->exports[e])
			continue;
		if (dfd < 0 && (dfd = open_export_dir(st)) < 0)
			return dfd;
		export_path(st, e, path, sizeof(path));
		if (snprintf(name, sizeof(name), "%s%s%s",
			     st->foreign && !st->export_dir ? st->input_base : "",
			     st->foreign && !st->export_dir ? "." : "",
			     rpt_export_filename(e)) >= (int)sizeof(name)) {
			ret = -ENAMETOOLONG;
			snprintf(st->export_error, sizeof(st->export_error),
				 "cannot write '%s': %s", path, strerror(-ret));
			break;
		}
		f = util_at_replace_fopen(dfd, name, SES_FILE_MODE, tmp, sizeof(tmp));
		if (!f) {
			ret = -errno;
			snprintf(st->export_error, sizeof(st->export_error),
				 "cannot write '%s': %s", path, strerror(-ret));
			break;
		}
		ret = util_at_replace_fcommit(dfd, tmp, name, f, rpt_export(r, e, f));
		if (ret) {
			snprintf(st->export_error, sizeof(st->export_error),
				 "writing '%s' failed: %s", path, strerror(-ret));
			break;
		}
		st->exported[e] = true;
	}
	if (st->export_dir && dfd >= 0)
		close(dfd);
	return ret;
}

int cli_report_check_options(int argc, char **argv)
{
	struct report_state st = { 0 };

	return parse_options(&st, argc, argv);
}

static void record_command(struct report_state *st, int argc, char **argv)
{
	size_t used = snprintf(st->command, sizeof(st->command), "uprof report");

	for (int i = 1; i < argc && used < sizeof(st->command); i++)
		used += snprintf(st->command + used, sizeof(st->command) - used, " %s", argv[i]);
	st->a.opts.report_command = st->command;
}

/* The session's report.csv: a rank of an MPI job (--trace mpi) adds its MPI TRACING
 * REPORT, as the job report writes it for that rank alone. */
static int write_csv(const struct report_state *st, const struct rpt *r, FILE *f)
{
	int ret = rpt_write_csv(r, f);

	if (!ret && rpt_dir_fd(r) >= 0 && rpt_category(&st->a.opts, RPT_CAT_MPI))
		ret = rpt_job_session_mpi(rpt_dir_fd(r), f, NULL, NULL, 0);
	return ret;
}

/* report.csv, or the CSV on stdout (--stdout). 0; the exit code of a failure already
 * said; or -errno for a failed write to stdout, said after the summary. */
static int write_report(struct report_state *st, struct rpt *r)
{
	char tmp[NAME_MAX + 1];
	FILE *f;
	int ret;

	if (st->to_stdout)
		return write_csv(st, r, stdout);
	ret = output_path(st);
	if (ret >= 0)
		return ret;
	/* a new temp file (O_EXCL) beneath the directory's fd, renamed over report.csv */
	f = util_at_replace_fopen(st->out_dfd, st->out_name, SES_FILE_MODE, tmp, sizeof(tmp));
	if (!f)
		return cli_error(1, CMD, "cannot write '%s': %s; use --report-output <path>",
				 st->out_path, strerror(errno));
	ret = util_at_replace_fcommit(st->out_dfd, tmp, st->out_name, f, write_csv(st, r, f));
	if (ret)
		return cli_error(1, CMD, "writing '%s' failed: %s", st->out_path, strerror(-ret));
	return 0;
}

/* -p: every pid must be one of the session's, or the report would silently be empty */
static int check_pids(const struct report_state *st, const struct rpt *r)
{
	int n = rpt_process_ids(r, NULL, 0);
	int *have = malloc(sizeof(int) * (size_t)(n ? n : 1));
	char list[160] = "";
	size_t used = 0;
	int missing = 0;

	if (!have)
		return cli_error(1, CMD, "out of memory");
	rpt_process_ids(r, have, n);
	for (int i = 0; i < st->a.opts.nonly_pids && !missing; i++) {
		int k = 0;

		while (k < n && have[k] != st->pids[i])
			k++;
		if (k == n)
			missing = st->pids[i];
	}
	for (int k = 0; missing && k < n && k < 8; k++)
		used += snprintf(list + used, sizeof(list) - used, "%s%d", k ? ", " : "", have[k]);
	if (n > 8)
		snprintf(list + used, sizeof(list) - used, " and %d more", n - 8);
	free(have);
	if (missing)
		return cli_error(1, CMD, "-p %d: the session has no process %d; its processes: %s",
				 missing, missing, n ? list : "none");
	return 0;
}

/* A job's export @e: its directory's fd (-errno with st->export_error), its path and name. */
static int job_export(struct report_state *st, int e, char path[PATH_MAX + 64], const char **shown,
		      const char **name)
{
	int dfd = open_export_dir(st);

	*shown = export_path(st, e, path, PATH_MAX + 64);
	*name = rpt_export_filename(e);
	return dfd;
}

static void close_job_exports(const struct report_state *st, const struct report_job_args *a)
{
	for (int i = 0, fd[] = { a->html_dfd, a->trace_dfd, a->db_dfd }; st->export_dir && i < 3;
	     i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

/* An MPI job directory (job.ini): its ranks merged (report_job.c). */
static int run_job(struct report_state *st)
{
	struct report_job_args a = { .input = st->a.input,
				     .dfd = st->dfd,
				     .opts = &st->a.opts,
				     .ranks = st->ranks,
				     .hosts = st->a.hosts,
				     .html_dfd = -1,
				     .trace_dfd = -1,
				     .db_dfd = -1 };
	char html_path[PATH_MAX + 64], trace_path[PATH_MAX + 64], db_path[PATH_MAX + 64];
	int ret;

	/* a job's trace is its MPI calls and messages (report_job.c); the stacks' exports
	 * are a session's */
	for (int e = 0; e < RPT_EXPORT_COUNT; e++)
		if (st->exports[e] && e != RPT_EXPORT_HTML && e != RPT_EXPORT_PERFETTO &&
		    e != RPT_EXPORT_SQLITE)
			return cli_error(EXIT_USAGE, CMD,
					 "--export %s takes one session: give a rank's, "
					 "-i %s/rank-<r> (a job exports html, perfetto and sqlite)",
					 rpt_exporter(e)->name, st->a.input);
	if (st->tools.n) { /* over a job: its ranks' MPI data (uprof_tool.h 1.3) */
		ret = cli_tools_for_job(&st->tools, &st->a.opts, st->a.input, CMD);
		if (ret >= 0)
			return ret;
		a.tools = &st->tools;
	}
	if (st->a.opts.annotate)
		return cli_error(EXIT_USAGE, CMD,
				 "--disasm and --function take one session: give "
				 "a rank's, -i %s/rank-<r>",
				 st->a.input);
	if (st->a.opts.nonly_pids)
		return cli_error(EXIT_USAGE, CMD,
				 "-p takes one session: give a rank's, "
				 "-i %s/rank-<r>, or select ranks with --rank",
				 st->a.input);
	if (!st->to_stdout) {
		ret = output_path(st);
		if (ret >= 0)
			return ret;
		a.out_path = st->out_path;
		a.out_dfd = st->out_dfd;
		a.out_name = st->out_name;
	}
	/* the job's page is its report.csv's tables, its trace the ranks' MPI calls: the
	 * ranks keep nothing for exports, no samples nor stacks */
	st->a.opts.exports = false;
	st->a.opts.no_timeline = true;
	st->a.opts.annotate_export = false;
	if ((st->exports[RPT_EXPORT_HTML] &&
	     (a.html_dfd = job_export(st, RPT_EXPORT_HTML, html_path, &a.html_path, &a.html_name)) <
		     0) ||
	    (st->exports[RPT_EXPORT_PERFETTO] &&
	     (a.trace_dfd = job_export(st, RPT_EXPORT_PERFETTO, trace_path, &a.trace_path,
				       &a.trace_name)) < 0) ||
	    (st->exports[RPT_EXPORT_SQLITE] && /* the job's MPI tables (job_sqlite.c) */
	     (a.db_dfd = job_export(st, RPT_EXPORT_SQLITE, db_path, &a.db_path, &a.db_name)) < 0)) {
		close_job_exports(st, &a);
		return cli_error(1, CMD, "%s", st->export_error);
	}
	ret = report_job(&a);
	close_job_exports(st, &a);
	return ret;
}

/* What a perf pipe file cannot do: tools and translated.bin are a session's. -1 to go
 * on, or an exit code. */
static int check_foreign(const struct report_state *st)
{
	if (!st->foreign)
		return -1;
	if (st->tools.n)
		return cli_error(EXIT_USAGE, CMD,
				 "--tool takes a uprof session; '%s' is not a "
				 "directory",
				 st->a.input);
	if (st->a.opts.retranslate)
		return cli_error(EXIT_USAGE, CMD,
				 "--retranslate writes a uprof session's "
				 "translated.bin; '%s' is not a directory",
				 st->a.input);
	return -1;
}

/* --function names that matched no sampled function: said, the report goes on */
static void warn_unmatched(const struct rpt *r)
{
	const char *const *names;
	int n = rpt_annot_unmatched(r, &names);

	for (int i = 0; i < n; i++)
		cli_warn(CMD, "--function '%s': no function with samples has that name", names[i]);
}

static int run(struct report_state *st, int argc, char **argv);

static int given_session_fd = -1;

void cli_report_give_session_fd(int dfd)
{
	if (given_session_fd >= 0)
		close(given_session_fd);
	given_session_fd = dfd;
}

int cmd_report(int argc, char **argv)
{
	struct report_state st = { .dfd = -1, .out_dfd = -1, .input_parent = -1 };
	int ret;

	st.dfd = given_session_fd;
	given_session_fd = -1;
	ret = parse_options(&st, argc, argv);
	if (ret >= 0) {
		if (st.dfd >= 0)
			close(st.dfd);
		return ret;
	}
	/* the session directory, opened once as the user named it (docs/DESIGN.md §4), or
	 * handed over open by profile; anything but a directory may be a perf pipe file:
	 * rpt_open_at says what it is (a FIFO or device is refused there, never read) */
	if (st.dfd < 0)
		st.dfd = util_dir_open(st.a.input);
	if (st.dfd < 0 && st.dfd != -ENOTDIR)
		return cli_error(1, CMD,
				 "'%s': %s; give a session directory or a perf pipe file "
				 "with -i",
				 st.a.input, strerror(-st.dfd));
	st.foreign = st.dfd < 0;
	ret = run(&st, argc, argv);
	if (st.out_dfd >= 0 && st.out_dfd != st.dfd && st.out_dfd != st.input_parent)
		close(st.out_dfd);
	if (st.input_parent >= 0)
		close(st.input_parent);
	if (st.dfd >= 0)
		close(st.dfd);
	return ret;
}

static int run(struct report_state *st, int argc, char **argv)
{
	struct rpt *r = NULL;
	char err[512], abs_input[PATH_MAX];
	int ret, tret;

	ret = check_foreign(st);
	if (ret >= 0)
		return ret;
	record_command(st, argc, argv);
	/* a tool that is refused or given a bad knob is said before the long part; one
	 * that crashes loading is said after the base report */
	ret = cli_tools_load(&st->tools, CMD);
	if (ret >= 0)
		return ret;
	/* the header's Data Folder is absolute, as uProf writes it: the directory opened */
	if (st->foreign ? realpath(st->a.input, abs_input) != NULL
			: !cli_fd_path(st->dfd, st->a.input, abs_input, sizeof(abs_input)))
		st->a.input = abs_input;
	if (rpt_buildid_default_dir(st->buildid_dir, sizeof(st->buildid_dir)))
		st->a.opts.buildid_dir = st->buildid_dir;
	/* only the trace reads each sample's time: folded stacks and flame graphs alone keep none */
	st->a.opts.no_timeline = !st->exports[RPT_EXPORT_PERFETTO] && !st->exports[RPT_EXPORT_HTML];
	/* a job's own tables (lib/job) have their own columns; each rank's session takes
	 * --view, and a rank without the view's events must not read as a damaged rank */
	if (!st->foreign && rpt_is_job_dir_at(st->dfd) && st->a.opts.view)
		return cli_error(EXIT_USAGE, CMD,
				 "--view %s: '%s' is an MPI job: its tables are the job's; report "
				 "a rank's own session with --view (-i <job>/<its session>)",
				 st->a.opts.view->name, st->a.input);
	if (!st->foreign && rpt_is_job_dir_at(st->dfd))
		return run_job(st);
	if (st->ranks || st->a.hosts)
		return cli_error(EXIT_USAGE, CMD,
				 "--rank and --host select ranks of an MPI job: "
				 "'%s' is a single session",
				 st->a.input);
	/* a progress line past a second of reading, never with --stdout (the report is
	 * the terminal's then) */
	cli_progress_init(&st->prog, !st->to_stdout && cli_progress_wanted(st->quiet), 1.0);
	st->a.opts.progress = cli_report_progress;
	st->a.opts.progress_arg = &st->prog;
	if (cli_tools_filtering(&st->tools)) { /* a first reading for the tools' filters */
		ret = rpt_open_at(&r, st->dfd, st->a.input, &st->a.opts, err, sizeof(err));
		if (ret) {
			cli_progress_clear(&st->prog);
			return cli_error(ret == -ENOKEY ? EXIT_USAGE : 1, CMD, "%s", err);
		}
		ret = cli_tools_filter(&st->tools, r, CMD);
		rpt_free(r);
		r = NULL;
		if (ret) {
			cli_progress_clear(&st->prog);
			return ret;
		}
		st->a.opts.drop = st->tools.drop;
		st->a.opts.ndrop = st->tools.ndrop;
	}
	ret = rpt_open_at(&r, st->dfd, st->a.input, &st->a.opts, err, sizeof(err));
	cli_progress_clear(&st->prog);
	if (ret) /* a --sort-by event the session lacks is a usage error */
		return cli_error(ret == -ENOKEY ? EXIT_USAGE : 1, CMD, "%s", err);
	cli_translated_say(r, st->a.opts.retranslate, CMD);
	warn_unmatched(r);
	ret = check_pids(st, r);
	if (ret) {
		rpt_free(r);
		return ret;
	}
	ret = write_report(st, r);
	if (ret > 0)
		goto out;
	if (ret < 0) { /* --stdout: the summary as ever, then why the CSV did not go out */
		print_terminal(st, r, NULL);
		ret = cli_error(1, CMD, "writing to stdout: %s", strerror(-ret));
		goto out;
	}
	ret = write_exports(st, r);
	print_terminal(st, r, st->to_stdout ? NULL : st->out_path);
	if (ret)
		ret = cli_error(1, CMD, "%s", st->export_error);
	/* after the base report is written whole: a tool that fails costs only its own */
	tret = cli_tools_report(&st->tools, r, st->a.input, st->to_stdout ? NULL : st->out_path,
				CMD);
	ret = ret ? ret : tret;
out:
	rpt_free(r);
	cli_tools_release(&st->tools);
	return ret;
}

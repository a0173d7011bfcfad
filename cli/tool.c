// SPDX-License-Identifier: MIT
/* --tool on report, collect and info: lib/tool's answers in words and exit codes. */
#include "cli/cli.h"
#include "report/report.h"
#include "tool/tool.h"
#include "util/util.h"
#include "uprof_tool.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <unistd.h>

/* A bad knob is a usage error (2); a tool refused, crashed or failed is a failure (1). */
static int exit_code(int ret)
{
	return ret == -EINVAL ? EXIT_USAGE : 1;
}

int cli_tools_add(struct cli_tools *t, const char *spec, const char *cmd)
{
	if (!*spec)
		return cli_error(EXIT_USAGE, cmd,
				 "--tool needs a path: --tool ./t.so[,knob=value,...]");
	if (t->n == CLI_MAX_TOOLS)
		return cli_error(EXIT_USAGE, cmd, "--tool: at most %d tools", CLI_MAX_TOOLS);
	t->specs[t->n++] = spec;
	return -1;
}

int cli_tools_timeout(struct cli_tools *t, const char *arg, const char *cmd)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v > 0 && v <= 86400))
		return cli_error(EXIT_USAGE, cmd, "--tool-timeout '%s': give seconds, more than 0",
				 arg);
	t->timeout_s = v;
	return -1;
}

int cli_tools_cpu(struct cli_tools *t, const char *arg, const char *cmd)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= 1 && v <= 86400))
		return cli_error(EXIT_USAGE, cmd,
				 "--tool-cpu '%s': give seconds of CPU time, 1 or more", arg);
	t->cpu_s = v;
	return -1;
}

int cli_tools_memory(struct cli_tools *t, const char *arg, const char *cmd)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < 16 || v > (1ull << 30))
		return cli_error(EXIT_USAGE, cmd, "--tool-memory '%s': give MiB, 16 or more", arg);
	t->memory_mib = v;
	return -1;
}

static struct tool_limits limits_of(const struct cli_tools *t)
{
	return (struct tool_limits){
		.timeout_s = t->timeout_s > 0 ? t->timeout_s : CLI_TOOL_TIMEOUT_S,
		.cpu_s = t->cpu_s > 0 ? t->cpu_s : CLI_TOOL_CPU_S,
		.memory_mib = t->memory_mib ? t->memory_mib : CLI_TOOL_MEMORY_MIB,
	};
}

int cli_tools_probe(const struct cli_tools *t, bool collect, struct tool_info *infos,
		    const char *cmd)
{
	static struct tool_info scratch;
	struct tool_limits lim = limits_of(t);
	char err[1024];

	for (int i = 0; i < t->n; i++) {
		int ret = tool_probe(t->specs[i], collect, &lim, infos ? &infos[i] : &scratch, err,
				     sizeof(err));

		if (ret)
			return cli_error(exit_code(ret), cmd, "%s", err);
	}
	return -1;
}

/* What the user gave wrong (a knob, a file that is no tool): said before the report. */
static bool refused(int ret)
{
	return ret == -EINVAL || ret == -ENOENT || ret == -ENOEXEC || ret == -EPROTO;
}

int cli_tools_load(struct cli_tools *t, const char *cmd)
{
	static struct tool_info scratch;
	struct tool_limits lim = limits_of(t);
	char err[1024];

	for (int i = 0; i < t->n; i++) {
		int ret = tool_probe(t->specs[i], false, &lim, &scratch, err, sizeof(err));

		t->filters[i] = !ret && scratch.filters;
		if (ret && refused(ret))
			return cli_error(exit_code(ret), cmd, "%s", err);
		if (ret && !(t->load_error[i] = strdup(err)))
			return cli_error(1, cmd, "out of memory");
	}
	return -1;
}

bool cli_tools_filtering(const struct cli_tools *t)
{
	for (int i = 0; i < t->n; i++)
		if (t->filters[i] && !t->load_error[i])
			return true;
	return false;
}

int cli_tools_filter(struct cli_tools *t, struct rpt *r, const char *cmd)
{
	struct tool_limits lim = limits_of(t);
	struct rpt_summary s;
	uint8_t *merged;
	size_t bytes;

	rpt_summary(r, &s);
	t->ndrop = s.kept_samples; /* every sample a walk gives */
	bytes = t->ndrop / 8 + 1;
	/* shared with the tool's child, which sets the bits; one tool's at a time, merged */
	t->drop = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	merged = calloc(1, bytes);
	if (t->drop == MAP_FAILED || !merged) {
		t->drop = t->drop == MAP_FAILED ? NULL : t->drop;
		free(merged);
		cli_tools_release(t);
		return cli_error(1, cmd, "--tool: out of memory for the samples' filter");
	}
	for (int i = 0; i < t->n; i++) {
		char err[1024];
		int ret;

		if (!t->filters[i] || t->load_error[i])
			continue;
		memset(t->drop, 0, bytes);
		ret = tool_filter(t->specs[i], r, &lim, t->drop, t->ndrop, err, sizeof(err));
		if (ret) { /* said after the base report, as a tool that failed loading is */
			t->load_error[i] = strdup(err);
			continue;
		}
		for (size_t b = 0; b < bytes; b++)
			merged[b] |= t->drop[b];
	}
	memcpy(t->drop, merged, bytes);
	free(merged);
	return 0;
}

void cli_tools_release(struct cli_tools *t)
{
	if (t->drop)
		munmap(t->drop, t->ndrop / 8 + 1);
	t->drop = NULL;
	t->ndrop = 0;
}

/* Append @from (from its start) to @to. 0 or -errno. */
static int append(FILE *from, FILE *to)
{
	char buf[65536];
	size_t n;

	if (fflush(from) || fseek(from, 0, SEEK_SET))
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return -EIO;
	return ferror(from) ? -EIO : 0;
}

/* @csv_path for appending: its directory opened once, the name resolved beneath it with no
 * symlink followed (docs/DESIGN.md §4), as report wrote it. NULL and errno. */
static FILE *open_csv(const char *csv_path)
{
	const char *slash = strrchr(csv_path, '/');
	char dir[PATH_MAX];
	int dfd, fd;
	FILE *f;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == csv_path ? 1 : (int)(slash - csv_path),
			 csv_path);
	dfd = util_dir_open(dir);
	if (dfd < 0) {
		errno = -dfd;
		return NULL;
	}
	fd = util_at_open(dfd, slash ? slash + 1 : csv_path, O_WRONLY | O_APPEND, 0);
	close(dfd);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "a");
	if (!f)
		close(fd);
	return f;
}

/* Open the CSV the sections go to (@csv_path, NULL: stdout), run @fn on it, close it.
 * 0 or -errno. */
static int to_csv(const char *csv_path, int (*fn)(FILE *, const void *), const void *arg)
{
	FILE *csv = csv_path ? open_csv(csv_path) : stdout;
	int ret = csv ? fn(csv, arg) : -errno;

	if (csv && csv != stdout && fclose(csv) && !ret)
		ret = -errno;
	else if (csv == stdout && fflush(stdout) && !ret)
		ret = -errno;
	return ret;
}

static int put_sections(FILE *csv, const void *sections)
{
	return append((FILE *)sections, csv);
}

/* The failure of a tool in report.csv, where the reader of the sections looks */
static int put_note(FILE *csv, const void *why)
{
	fputs("\nNote:,", csv);
	util_csv_quoted(csv, why);
	fputc('\n', csv);
	return ferror(csv) ? -EIO : 0;
}

/* @t's tool @i over @r: its sections appended, or its failure said and noted. The exit
 * code of a message said, or 0. */
static int run_one(struct cli_tools *t, int i, struct rpt *r, const struct rpt_job *job,
		   int job_dfd, const char *session_dir, const char *csv_path, const char *cmd)
{
	static struct tool_info info;
	struct tool_limits lim = limits_of(t);
	FILE *sections;
	char err[1024];
	int ret;

	if (t->load_error[i]) { /* its entry point crashed, hung or failed: not run again */
		snprintf(err, sizeof(err), "%s", t->load_error[i]);
		ret = -ECHILD;
		goto failed;
	}
	sections = tmpfile();
	if (!sections)
		return cli_error(1, cmd, "--tool: no temporary file: %s", strerror(errno));
	if (job)
		ret = tool_run_job(t->specs[i], job, job_dfd, session_dir, sections, &lim, t->ranp,
				   t->nran, &info, err, sizeof(err));
	else
		ret = tool_run_after(t->specs[i], r, session_dir, sections, &lim, t->ranp, t->nran,
				     &info, err, sizeof(err));
	if (info.name[0] && t->nran < CLI_MAX_TOOLS) {
		snprintf(t->ran[t->nran], sizeof(t->ran[0]), "%s", info.name);
		t->ranp[t->nran] = t->ran[t->nran];
		t->nran++;
	}
	if (!ret) {
		if (!info.landlock)
			cli_warn(cmd,
				 "tool '%s' ran without Landlock (this kernel has none): "
				 "the session was not read-only to it",
				 info.name);
		if (info.left)
			cli_warn(cmd, "tool '%s' left %d process%s running: ended", info.name,
				 info.left, info.left == 1 ? "" : "es");
		ret = to_csv(csv_path, put_sections, sections);
		fclose(sections);
		return ret ? cli_error(1, cmd, "tool '%s': appending its sections to %s: %s",
				       info.name, csv_path ? csv_path : "stdout", strerror(-ret))
			   : 0;
	}
	fclose(sections);
failed:
	/* the base report and the sections of the tools that worked stay */
	to_csv(csv_path, put_note, err);
	return cli_error(exit_code(ret), cmd, "%s", err);
}

int cli_tools_report(struct cli_tools *t, struct rpt *r, const char *session_dir,
		     const char *csv_path, const char *cmd)
{
	int code = 0;

	for (int i = 0; i < t->n; i++) {
		int ret = run_one(t, i, r, NULL, -1, session_dir, csv_path, cmd);

		code = ret ? ret : code;
		free(t->load_error[i]);
		t->load_error[i] = NULL;
	}
	return code;
}

int cli_tools_for_job(struct cli_tools *t, struct rpt_options *opts, const char *jobdir,
		      const char *cmd)
{
	int ret = cli_tools_load(t, cmd);

	if (ret >= 0)
		return ret;
	if (cli_tools_filtering(t))
		return cli_error(EXIT_USAGE, cmd,
				 "--tool: a tool's filter_sample takes one session's "
				 "samples: give a rank's, -i %s/rank-<r>",
				 jobdir);
	opts->walk = false; /* a job's tools get no samples: the ranks keep none */
	return -1;
}

int cli_tools_report_job(struct cli_tools *t, const struct rpt_job *job, int job_dfd,
			 const char *job_dir, const char *csv_path, const char *cmd)
{
	int code = 0;

	for (int i = 0; i < t->n; i++) {
		int ret = run_one(t, i, NULL, job, job_dfd, job_dir, csv_path, cmd);

		code = ret ? ret : code;
		free(t->load_error[i]);
		t->load_error[i] = NULL;
	}
	return code;
}

int cli_tool_show(const char *spec, const char *cmd)
{
	struct tool_info *in = calloc(1, sizeof(*in));
	char err[1024];
	int ret;

	if (!in)
		return cli_error(1, cmd, "out of memory");
	ret = tool_probe(
		spec, true,
		&(struct tool_limits){ CLI_TOOL_TIMEOUT_S, CLI_TOOL_CPU_S, CLI_TOOL_MEMORY_MIB },
		in, err, sizeof(err));
	if (ret) {
		free(in);
		return cli_error(exit_code(ret), cmd, "%s", err);
	}
	printf("Tool:        %s\nVersion:     %s\nDescription: %s\nTool API:    %u.%u "
	       "(this uprof: %d.%d)\n",
	       in->name, in->version[0] ? in->version : "-",
	       in->description[0] ? in->description : "-", in->api_version >> 16,
	       in->api_version & 0xffff, UPROF_TOOL_API_MAJOR, UPROF_TOOL_API_MINOR);
	printf("Collect:     %s%s", in->stacks[0] ? "call stacks (" : "no call stacks asked for",
	       in->stacks[0] ? in->stacks : "");
	printf("%s", in->stacks[0] ? ")" : "");
	for (int i = 0; i < in->nevents; i++)
		printf("%s%s", i ? ", " : "; events: ", in->events[i]);
	printf("\n");
	if (!in->nknobs)
		printf("Knobs:       none\n");
	else
		printf("Knobs (--tool %.*s,name=value,...):\n  %-20s %-7s %-12s %s\n",
		       (int)strcspn(spec, ","), spec, "NAME", "TYPE", "DEFAULT", "HELP");
	for (int i = 0; i < in->nknobs; i++)
		printf("  %-20s %-7s %-12s %s\n", in->knobs[i].name,
		       tool_knob_type_name(in->knobs[i].type),
		       in->knobs[i].def[0] ? in->knobs[i].def : "\"\"", in->knobs[i].help);
	free(in);
	return 0;
}

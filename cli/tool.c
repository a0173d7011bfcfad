// SPDX-License-Identifier: MIT
/* --tool on report, collect and info: lib/tool's answers in words and exit codes. */
#include "cli/cli.h"
#include "report/report.h"
#include "tool/tool.h"
#include "uprof_tool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static double timeout_of(const struct cli_tools *t)
{
	return t->timeout_s > 0 ? t->timeout_s : CLI_TOOL_TIMEOUT_S;
}

int cli_tools_probe(const struct cli_tools *t, bool collect, struct tool_info *infos,
		    const char *cmd)
{
	static struct tool_info scratch;
	char err[1024];

	for (int i = 0; i < t->n; i++) {
		int ret = tool_probe(t->specs[i], collect, timeout_of(t),
				     infos ? &infos[i] : &scratch, err, sizeof(err));

		if (ret)
			return cli_error(exit_code(ret), cmd, "%s", err);
	}
	return -1;
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

int cli_tools_report(const struct cli_tools *t, struct rpt *r, const char *session_dir,
		     const char *csv_path, const char *cmd)
{
	int code = 0;

	for (int i = 0; i < t->n; i++) {
		static struct tool_info info;
		FILE *sections = tmpfile(), *csv;
		char err[1024];
		int ret;

		if (!sections)
			return cli_error(1, cmd, "--tool: no temporary file: %s", strerror(errno));
		ret = tool_run(t->specs[i], r, session_dir, sections, timeout_of(t), &info, err,
			       sizeof(err));
		if (ret) {
			/* the base report and the sections of the tools that worked stay */
			code = cli_error(exit_code(ret), cmd, "%s", err);
			fclose(sections);
			continue;
		}
		csv = csv_path ? fopen(csv_path, "a") : stdout;
		ret = csv ? append(sections, csv) : -errno;
		if (csv && csv != stdout && fclose(csv) && !ret)
			ret = -errno;
		else if (csv == stdout && fflush(stdout) && !ret)
			ret = -errno;
		fclose(sections);
		if (ret)
			code = cli_error(1, cmd, "tool '%s': appending its sections to %s: %s",
					 info.name, csv_path ? csv_path : "stdout", strerror(-ret));
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
	ret = tool_probe(spec, true, CLI_TOOL_TIMEOUT_S, in, err, sizeof(err));
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

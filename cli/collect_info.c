// SPDX-License-Identifier: MIT
/*
 * uprof collect: what session.ini says about the run (program, arguments, system, events,
 * call stacks), gathered before the first write.
 */
#include "cli/collect.h"
#include "arch/arch.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An attached process's arguments and working directory, from /proc. */
static void attach_details(struct collect_state *st)
{
	struct ses_info *in = &st->info;
	char path[64], buf[SES_STR];
	ssize_t n = 0;
	int fd;
	char *arg0_end;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)st->attach_pids[0]);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n > 0) {
		char *args[256];
		int na = 0;

		buf[n] = 0;
		arg0_end = memchr(buf, 0, (size_t)n);
		for (char *p = arg0_end; p && p < buf + n - 1 && na < 255; p += strlen(p + 1) + 1)
			args[na++] = p + 1;
		args[na] = NULL;
		collect_join_args(in->target_args, sizeof(in->target_args), args);
	}
	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)st->attach_pids[0]);
	n = readlink(path, in->working_dir, sizeof(in->working_dir) - 1);
	in->working_dir[n > 0 ? n : 0] = 0;
}

void collect_fill_info(struct collect_state *st, int argc, char **argv)
{
	struct ses_info *in = &st->info;
	char cmd[SES_STR];

	memset(in, 0, sizeof(*in));
	in->format_version = SES_FORMAT_VERSION;
	snprintf(in->uprof_version, sizeof(in->uprof_version), "%s", UPROF_VERSION);
	/* -e replaces the config's events: the session is a custom one, as uProf labels it */
	snprintf(in->config, sizeof(in->config), "%s", st->custom ? "custom" : st->config.name);
	snprintf(in->label, sizeof(in->label), "%s", st->custom ? "Custom" : st->config.label);
	snprintf(in->description, sizeof(in->description), "%s",
		 st->custom ? "events given with -e" : st->config.description);
	collect_join_args(cmd, sizeof(cmd), argv);
	snprintf(in->command, sizeof(in->command), "uprof %s", cmd);
	(void)argc;
	snprintf(in->target_path, sizeof(in->target_path), "%s", st->prog_path);
	if (st->system_wide)
		snprintf(in->target_args, sizeof(in->target_args), "%s", "");
	else if (st->attach)
		attach_details(st);
	else
		collect_join_args(in->target_args, sizeof(in->target_args), st->prog_argv + 1);
	if (st->system_wide)
		snprintf(in->working_dir, sizeof(in->working_dir), "%s", "/");
	else if (st->attach)
		; /* set by attach_details */
	else if (st->workdir)
		realpath(st->workdir, in->working_dir)
			? (void)0
			: (void)snprintf(in->working_dir, sizeof(in->working_dir), "%s",
					 st->workdir);
	else if (!getcwd(in->working_dir, sizeof(in->working_dir)))
		snprintf(in->working_dir, sizeof(in->working_dir), "?");
	cli_system_facts(in->host, sizeof(in->host), in->cpu_model, sizeof(in->cpu_model),
			 in->kernel, sizeof(in->kernel), in->os, sizeof(in->os));
	snprintf(in->arch, sizeof(in->arch), "%s", arch_this.name); /* report checks it */
	in->ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(in->cpu_mask, sizeof(in->cpu_mask), "%s", st->sample_cpu_list);
	collect_events_info(st);
	in->exit_code = -1;
	in->collector_pid = (int)getpid();
	in->attached = st->attach && !st->system_wide;
	in->system_wide = st->system_wide;
	in->status = SES_STATUS_RUNNING;
	snprintf(in->callgraph_mode, sizeof(in->callgraph_mode), "%s",
		 pmc_callgraph_mode_name(st->cg.mode)); /* "none" without stacks */
	if (st->cg.mode != PMC_CG_NONE) {
		snprintf(in->callgraph_scope, sizeof(in->callgraph_scope), "%s",
			 pmc_callgraph_scope_name(st->cg.scope));
		in->callgraph_depth = st->cg.depth;
		if (st->cg.mode == PMC_CG_DWARF)
			in->callgraph_stack_bytes = st->cg.stack_bytes;
		if (st->nattrs > COLLECT_TIMER && ses_split_is_leaf_attr(&st->attrs[COLLECT_TIMER]))
			in->callgraph_leaf_bytes = st->attrs[COLLECT_TIMER].sample_stack_user;
	}
	collect_tools_info(st);
}

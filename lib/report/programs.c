// SPDX-License-Identifier: MIT
/*
 * Programs: the processes of one executable, summed (perf report --sort comm). A build
 * (make -j2) runs a hundred processes of cc1, each ~2 % of the profile; one row that
 * says cc1 77 % is what the user asks for.
 *
 * The key is (executable, name as invoked): the executable so that two different
 * binaries of one name (/usr/bin/python3 and a venv's python3) stay apart, the name so
 * that one binary run by two names (xz and xzcat, a symlink) shows as the user ran it,
 * as perf does. The name is the kernel's comm at exec (the basename of the path exec'd,
 * so a symlink's own name), not a later prctl rename; a comm cut to 15 bytes gets its
 * whole name back from the executable's file name when that name begins with it, or,
 * for the process collect launched, from the session's command line.
 * A process counts under the program it ran last: its few samples between fork and
 * exec are its parent's code, not worth splitting each process by time.
 */
#include "report/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The process collect launched: it ran the program by the path its command line names
 * (a symlink's, whose target's file name says nothing of it). */
static bool launched(const struct rpt *r, const struct rpt_process *p)
{
	return !r->info.attached && !r->info.system_wide && r->info.npids > 0 &&
	       r->info.pids[0] == p->pid;
}

/* A word of the session's command line whose last part begins with @cut (a comm of 15
 * bytes) and is longer, into @buf; false if there is none. Words are split at blanks
 * and lose their quotes: a program whose name holds a blank stays cut. */
static bool whole_from_command(const struct rpt *r, const char *cut, char *buf, size_t len)
{
	const char *s = r->info.command;

	while (*s) {
		size_t n = strcspn(s, " \t"), k;
		char word[sizeof(r->info.command)];
		const char *base;

		memcpy(word, s, n);
		word[n] = 0;
		for (k = n; k && (word[k - 1] == '\'' || word[k - 1] == '"'); k--)
			word[k - 1] = 0;
		base = strrchr(word, '/');
		base = base ? base + 1 : word + strspn(word, "'\"");
		if (strlen(base) > strlen(cut) && !strncmp(base, cut, strlen(cut))) {
			snprintf(buf, len, "%s", base);
			return true;
		}
		s += n;
		s += strspn(s, " \t");
	}
	return false;
}

/* The name the program was run by, into @buf. */
static void program_name(const struct rpt *r, const struct rpt_process *p, char *buf, size_t len)
{
	const char *name = p->exec_comm[0] ? p->exec_comm : p->comm;
	const char *path = p->exe ? r->world.modules[p->exe - 1].path : "";
	const char *base = strrchr(path, '/');
	bool cut = strlen(name) == sizeof(p->comm) - 1;

	base = base ? base + 1 : path;
	if (cut && !strncmp(base, name, strlen(name)))
		name = base; /* the kernel cut it: "x86_64-linux-gn" is x86_64-linux-gnu-gcc-12 */
	else if (cut && launched(r, p) && whole_from_command(r, name, buf, len))
		return;
	snprintf(buf, len, "%s", name);
}

static int program_for(struct rpt *r, int exe, const char *name)
{
	uint64_t *slot = util_hash_slot(&r->program_index, (uint64_t)exe, (uintptr_t)name, 0);
	struct rpt_program *pg;

	if (!slot)
		return -ENOMEM;
	if (*slot)
		return (int)(*slot - 1);
	if (r->nprograms == r->capprograms) {
		int cap = r->capprograms ? r->capprograms * 2 : 64;
		struct rpt_program *g = realloc(r->programs, sizeof(*g) * (size_t)cap);

		if (!g)
			return -ENOMEM;
		r->programs = g;
		r->capprograms = cap;
	}
	pg = &r->programs[r->nprograms];
	memset(pg, 0, sizeof(*pg));
	pg->name = name;
	pg->exe = exe;
	*slot = (uint64_t)++r->nprograms;
	return r->nprograms - 1;
}

int rpt_programs_build(struct rpt *r)
{
	for (int i = 0; i < r->world.nprocs; i++) {
		struct rpt_process *p = &r->world.procs[i];
		const char *name;
		char buf[4096];
		int pg;

		program_name(r, p, buf, sizeof(buf));
		name = rpt_strpool_intern(&r->names, buf);
		pg = name ? program_for(r, p->exe, name) : -ENOMEM;
		if (pg < 0)
			return pg;
		p->program = pg;
	}
	return 0;
}

void rpt_programs_release(struct rpt *r)
{
	free(r->programs);
	r->programs = NULL;
	r->nprograms = r->capprograms = 0;
	util_hash_release(&r->program_index);
	util_hash_release(&r->prog_func);
	util_hash_release(&r->prog_module);
}

const char *rpt_program_path(const struct rpt *r, int program)
{
	int exe = r->programs[program].exe;

	return exe ? r->world.modules[exe - 1].path : "";
}

bool rpt_programs_shown(const struct rpt *r)
{
	int programs = 0, procs = 0;

	if (r->opts.group_by == RPT_GROUP_PROGRAM)
		return true;
	for (int i = 0; i < r->nprograms; i++)
		programs += r->programs[i].samples > 0;
	for (int i = 0; i < r->world.nprocs; i++)
		procs += r->world.procs[i].samples > 0;
	return programs >= 2 && programs < procs;
}

// SPDX-License-Identifier: MIT
/*
 * Tools that go wrong, one per -DKIND, for tests/e2e/tool.sh: uprof must refuse them at
 * load, or survive them at report time with report.csv and the session intact.
 *   segv     crashes in its sample callback        hang   loops in session_end
 *   fail     its sample callback returns -EIO      major  built for API 2.0
 *   reserved a non-zero reserved slot              noreg  never registers
 *   exit     calls exit(0) in a callback           noentry  (no entry point at all)
 *   fork     leaves a process running (it must be ended with the tool; its section stays)
 */
#include <uprof_tool.h>

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#define STR2(x) #x
#define STR(x) STR2(x)

static int nsamples;

static int on_sample(void *ctx, const struct uprof_tool_sample *s)
{
	(void)ctx, (void)s;
	nsamples++;
#if KIND_segv
	if (nsamples == 10)
		*(volatile int *)(uintptr_t)s->cpu = 1; /* a NULL-ish pointer: SIGSEGV */
#elif KIND_fail
	if (nsamples == 10)
		return -EIO;
#elif KIND_exit
	if (nsamples == 10)
		exit(0);
#endif
	return 0;
}

static int on_end(void *ctx, const struct uprof_tool_session *s)
{
	const struct uprof_tool_core *core = ctx;

	(void)s;
#if KIND_hang
	for (;;)
		;
#elif KIND_fork
	if (fork() == 0) { /* holds the answer pipe and the sections file */
		sleep(1000);
		_exit(0);
	}
#endif
	return core->section(core, "BROKEN", "SAMPLES") || core->cell_int(core, nsamples) ||
	       core->row_end(core);
}

#if !KIND_noentry
int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;
	static int x;

	(void)argc, (void)argv;
	d.name = "broken-" STR(KIND);
	d.ctx = (void *)c;
	d.sample = on_sample;
	d.session_end = on_end;
#if KIND_major
	d.api_version = UPROF_TOOL_API_VERSION_OF(2, 0);
#elif KIND_reserved
	d.reserved[2] = &x;
#endif
	(void)x;
#if KIND_noreg
	return 0;
#else
	return c->register_tool(c, &d);
#endif
}
#else
int not_the_entry(void);
int not_the_entry(void)
{
	return 0;
}
#endif

// SPDX-License-Identifier: MIT
/*
 * The OMPT tool's start and its chaining to another tool (docs/DESIGN.md §9). The host
 * callbacks and their end are ompt.c's; nothing here runs per event.
 *
 * libomp uses only the first tool whose ompt_start_tool answers non-NULL, so once we
 * answer, the other tools of OMP_TOOL_LIBRARIES would get nothing. We load them
 * ourselves, start the first that answers, and hand its initialize a lookup whose
 * ompt_set_callback keeps its callbacks for the events we registered (ours call them
 * after our own work, ompt_next_cb) and passes the others to the runtime.
 */
#include "instrument/internal.h"
#include "instrument/ompt_abi.h"
#include "instrument/ompt_tool.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static ompt_set_callback_t real_set;
static ompt_function_lookup_t real_lookup;
static ompt_start_tool_result_t *next_tool;
static int our_code[ompt_callback_max]; /* what the runtime answered for our events */
uint64_t ompt_callbacks_always;

static int chained_set_callback(int ev, ompt_callback_t cb)
{
	if (ev > 0 && ev < ompt_callback_max && our_code[ev]) {
		ompt_next_cb[ev] = cb;
		if (cb)
			__atomic_store_n(&ompt_chained, 1, __ATOMIC_RELEASE);
		return our_code[ev];
	}
	return real_set(ev, cb);
}

static ompt_interface_fn_t chained_lookup(const char *name)
{
	if (name && !strcmp(name, "ompt_set_callback"))
		return (ompt_interface_fn_t)chained_set_callback;
	return real_lookup(name);
}

int ompt_reg(int ev, ompt_callback_t cb)
{
	int code = real_set(ev, cb);

	our_code[ev] = code;
	if (code == ompt_set_always)
		ompt_callbacks_always |= 1ULL << ev;
	return code;
}

static int on_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t *data)
{
	(void)data;
	real_lookup = lookup;
	real_set = (ompt_set_callback_t)lookup("ompt_set_callback");
	if (!real_set)
		return 0;
	ompt_host_init();
	if (next_tool && next_tool->initialize &&
	    !next_tool->initialize(chained_lookup, device, &next_tool->tool_data)) {
		/* it declined: its callbacks stay unused */
		memset(ompt_next_cb, 0, sizeof(ompt_callback_t) * ompt_callback_max);
		next_tool = NULL;
	}
	return 1;
}

static void on_finalize(ompt_data_t *data)
{
	(void)data;
	ompt_flush();
	if (next_tool && next_tool->finalize)
		next_tool->finalize(&next_tool->tool_data);
}

/* The first other tool of OMP_TOOL_LIBRARIES that starts, or NULL. */
static ompt_start_tool_result_t *start_next(unsigned int version, const char *runtime)
{
	const char *list = getenv("OMP_TOOL_LIBRARIES");
	char path[4096];
	Dl_info self;

	if (!list || !dladdr((void *)start_next, &self))
		return NULL;
	while (*list) {
		size_t n = strcspn(list, ":");
		void *h;

		if (n && n < sizeof(path)) {
			memcpy(path, list, n);
			path[n] = 0;
			h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
			if (h) {
				ompt_start_tool_t fn = (ompt_start_tool_t)dlsym(h,
										"ompt_start_tool");
				Dl_info where;
				ompt_start_tool_result_t *r = NULL;

				/* ourselves (by any name) are not a tool to chain to */
				if (fn && dladdr((void *)fn, &where) &&
				    where.dli_fbase != self.dli_fbase)
					r = fn(version, runtime);
				if (r)
					return r; /* stays loaded */
				dlclose(h);
			}
		}
		list += n + (list[n] == ':');
	}
	return NULL;
}

__attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
	static ompt_start_tool_result_t result = { on_initialize, on_finalize, { 0 } };
	const char *want = getenv("UPROF_OMPT");
	int saved = errno;
	ompt_start_tool_result_t *r = NULL;

	if (!want || (strcmp(want, "basic") && strcmp(want, "full")) || !ins_on())
		goto out; /* not asked: the runtime goes on to the next tool itself */
	next_tool = start_next(omp_version, runtime_version);
	ompt_host_start(!strcmp(want, "full"), runtime_version, omp_version);
	r = &result;
out:
	errno = saved;
	return r;
}

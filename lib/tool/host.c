// SPDX-License-Identifier: MIT
/*
 * The core table's set-up half (register, knobs, collect_want) and loading a tool: dlopen
 * with RTLD_LOCAL (a tool's symbols never resolve another's), the one entry point, the
 * descriptor check, the knobs of the command line. All of it runs in the child process of
 * child.c; nothing here is ever called in uprof's own process.
 */
#include "tool/internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_SETTINGS 64

static struct tool_host *host_of(const struct uprof_tool_core *c)
{
	return c ? (struct tool_host *)c->host : NULL;
}

static void fail_once(struct tool_host *h, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail_once(struct tool_host *h, int ret, const char *fmt, ...)
{
	va_list ap;

	if (h->first_error)
		return;
	h->first_error = ret;
	va_start(ap, fmt);
	vsnprintf(h->error, sizeof(h->error), fmt, ap);
	va_end(ap);
}

static int core_register(const struct uprof_tool_core *c, const struct uprof_tool_desc *d)
{
	struct tool_host *h = host_of(c);
	char why[400];
	int ret;

	if (!h)
		return -EINVAL;
	if (h->registered) {
		fail_once(h, -EPROTO, "registered twice (call core->register_tool once)");
		return -EINVAL;
	}
	ret = tool_desc_check(d, &h->desc, why, sizeof(why));
	if (ret) {
		fail_once(h, ret, "%s", why);
		return -EINVAL;
	}
	h->registered = true;
	return 0;
}

static int declare(const struct uprof_tool_core *c, const char *name, int type, void *value,
		   const void *def, const char *help)
{
	struct tool_host *h = host_of(c);
	int ret;

	if (!h)
		return -EINVAL;
	ret = tool_knobs_declare(&h->knobs, name, type, value, def, help);
	/* the command line's value at once: the entry point may use it (collect_want) */
	for (int i = 0, given = 0; !ret && i < h->nsettings; i++) {
		size_t len = strcspn(h->settings[i], "=");
		char why[768];

		if (len != strlen(name) || strncmp(h->settings[i], name, len))
			continue;
		if (given++) { /* "top=3,top=5": which one was meant is not ours to guess */
			fail_once(h, -EINVAL, "knob '%s' is given twice: give it once", name);
			break;
		}
		if (tool_knobs_set(&h->knobs, h->settings[i], why, sizeof(why)))
			fail_once(h, -EINVAL, "%s", why);
	}
	if (ret == -EEXIST)
		fail_once(h, -EPROTO, "declares knob '%s' twice", name);
	else if (ret == -E2BIG)
		fail_once(h, -EPROTO, "declares more than %d knobs", TOOL_MAX_KNOBS);
	else if (ret)
		fail_once(h, -EPROTO,
			  "declares a bad knob '%.64s' (a name of letters, digits, "
			  "'-', '_', starting with a letter; a place for its value)",
			  name ? name : "(null)");
	return ret;
}

static int knob_int(const struct uprof_tool_core *c, const char *name, int64_t *value, int64_t def,
		    const char *help)
{
	return declare(c, name, UPROF_TOOL_KNOB_INT, value, &def, help);
}

static int knob_bool(const struct uprof_tool_core *c, const char *name, bool *value, bool def,
		     const char *help)
{
	return declare(c, name, UPROF_TOOL_KNOB_BOOL, value, &def, help);
}

static int knob_double(const struct uprof_tool_core *c, const char *name, double *value, double def,
		       const char *help)
{
	return declare(c, name, UPROF_TOOL_KNOB_DOUBLE, value, &def, help);
}

static int knob_string(const struct uprof_tool_core *c, const char *name, const char **value,
		       const char *def, const char *help)
{
	return declare(c, name, UPROF_TOOL_KNOB_STRING, value, def, help);
}

static int collect_want(const struct uprof_tool_core *c, int what, const char *arg)
{
	struct tool_host *h = host_of(c);
	struct tool_info *in = h ? h->info : NULL;

	if (!h)
		return -EINVAL;
	switch (what) {
	case UPROF_TOOL_WANT_STACKS:
		if (arg && strcmp(arg, "fp") && strcmp(arg, "dwarf"))
			return -EINVAL;
		/* dwarf says more than fp: the stronger wish wins */
		if (h->collect && strcmp(in->stacks, "dwarf"))
			snprintf(in->stacks, sizeof(in->stacks), "%s", arg ? arg : "fp");
		return 0;
	case UPROF_TOOL_WANT_EVENT:
		if (!arg || !*arg || strlen(arg) >= sizeof(in->events[0]) || strchr(arg, '\n'))
			return -EINVAL;
		if (!h->collect)
			return 0;
		if (in->nevents == TOOL_MAX_EVENTS)
			return -E2BIG;
		snprintf(in->events[in->nevents++], sizeof(in->events[0]), "%s", arg);
		return 0;
	case UPROF_TOOL_WANT_OPENMP:
	case UPROF_TOOL_WANT_MPI:
		return -ENOTSUP; /* reserved: no such trace in this API version */
	}
	return -EINVAL;
}

void tool_host_init(struct tool_host *h, const char *path, bool collect, struct tool_info *info)
{
	memset(h, 0, sizeof(*h));
	h->files_dfd = -1;
	h->path = path;
	h->collect = collect;
	h->info = info;
	h->core = (struct uprof_tool_core){
		.size = sizeof(h->core),
		.api_version = UPROF_TOOL_API_VERSION,
		.uprof_version = UPROF_VERSION,
		.host = h,
		.register_tool = core_register,
		.knob_int = knob_int,
		.knob_bool = knob_bool,
		.knob_double = knob_double,
		.knob_string = knob_string,
		.collect_want = collect_want,
	};
	tool_driver_core(&h->core);
}

static void fill_info(struct tool_host *h)
{
	struct tool_info *in = h->info;

	snprintf(in->name, sizeof(in->name), "%s", h->desc.name);
	snprintf(in->version, sizeof(in->version), "%s", h->desc.version ? h->desc.version : "");
	snprintf(in->description, sizeof(in->description), "%s",
		 h->desc.description ? h->desc.description : "");
	in->api_version = h->desc.api_version;
	in->filters = h->desc.filter_sample != NULL;
	in->nknobs = h->knobs.n;
	for (int i = 0; i < h->knobs.n; i++) {
		const struct tool_knob *k = &h->knobs.k[i];

		snprintf(in->knobs[i].name, sizeof(in->knobs[i].name), "%s", k->name);
		snprintf(in->knobs[i].help, sizeof(in->knobs[i].help), "%s", k->help);
		in->knobs[i].type = k->type;
		tool_knob_default(k, in->knobs[i].def, sizeof(in->knobs[i].def));
	}
}

/* dlopen takes a name without a '/' from the library path: a tool is a file, said as such */
static void *open_tool(const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", strchr(path, '/') ? "" : "./", path);
	return dlopen(buf, RTLD_NOW | RTLD_LOCAL);
}

int tool_host_load(struct tool_host *h, const char *spec, char *err, size_t errlen)
{
	char buf[PATH_MAX + 4096], file[PATH_MAX + 4];
	const char *path, *settings[MAX_SETTINGS];
	char *argv[MAX_SETTINGS + 2];
	int (*entry)(const struct uprof_tool_core *, int, char **);
	struct stat sb;
	void *so;
	int n, ret;

	n = tool_spec_split(spec, buf, sizeof(buf), &path, settings, MAX_SETTINGS);
	if (n < 0) {
		snprintf(err, errlen, "tool '%.256s': give path.so[,knob=value,...]%s", spec,
			 n == -E2BIG ? " (too long, or more than 64 knob settings)" : "");
		return -EINVAL;
	}
	if (stat(path, &sb) || !S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "tool %s: %s", path,
			 errno == ENOENT || !S_ISREG(sb.st_mode) ? "no such file"
								 : strerror(errno));
		return -ENOENT;
	}
	so = open_tool(path, file, sizeof(file));
	if (!so) {
		snprintf(err, errlen, "tool %s: cannot load it: %s", path, dlerror());
		return -ENOEXEC;
	}
	*(void **)&entry = dlsym(so, "uprof_tool_entry");
	if (!entry) {
		snprintf(err, errlen, "tool %s: has no uprof_tool_entry (not a uprof tool?)", path);
		return -ENOEXEC;
	}
	argv[0] = (char *)path;
	for (int i = 0; i < n; i++)
		argv[i + 1] = (char *)settings[i];
	argv[n + 1] = NULL;
	h->settings = settings;
	h->nsettings = n;
	ret = entry(&h->core, n + 1, argv);
	h->nsettings = 0;
	if (h->first_error == -EINVAL) { /* a knob's value: the user's error */
		if (h->registered)
			snprintf(err, errlen, "tool '%s' (%s): %s", h->desc.name, path, h->error);
		else
			snprintf(err, errlen, "tool %s: %s", path, h->error);
		return -EINVAL;
	}
	if (h->first_error) {
		snprintf(err, errlen, "tool %s: refused: %s", path, h->error);
		return h->first_error;
	}
	if (ret < 0) {
		snprintf(err, errlen, "tool %s: its entry point failed (%d: %s)", path, ret,
			 strerror(-ret));
		return -ECANCELED;
	}
	if (!h->registered) {
		snprintf(err, errlen,
			 "tool %s: refused: its entry point registered no descriptor "
			 "(core->register_tool)",
			 path);
		return -EPROTO;
	}
	fill_info(h);
	for (int i = 0; i < n; i++) {
		char why[768];

		/* every setting names a knob (those that do were applied when declared) */
		if (!tool_knobs_known(&h->knobs, settings[i]) &&
		    tool_knobs_set(&h->knobs, settings[i], why, sizeof(why))) {
			snprintf(err, errlen, "tool '%s' (%s): %s", h->desc.name, path, why);
			return -EINVAL;
		}
	}
	ret = h->desc.knobs_checked ? h->desc.knobs_checked(h->desc.ctx) : 0;
	if (ret) {
		snprintf(err, errlen, "tool '%s' (%s): %s (its knobs_checked returned %d)",
			 h->desc.name, path,
			 ret == -EINVAL ? "refuses these knob values; see 'uprof info --tool'"
					: "failed",
			 ret);
		return ret == -EINVAL ? -EINVAL : -ECANCELED;
	}
	return 0;
}

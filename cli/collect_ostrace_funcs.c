// SPDX-License-Identifier: MIT
/*
 * uprof collect --func MOD:PAT[,..] and --exclude-func MOD:PAT[,..] (uProf's OS-trace
 * settings; docs/DESIGN.md §12): the calls of user functions counted by uprobes. Each
 * pattern is a glob over the ELF symbols of module MOD (the program's file name, a
 * library's, or a path), read by lib/symbols as report reads them; every function that
 * matches and no exclusion names gets a probe at its entry's file offset, all in one
 * uprobe event (lib/pmc/uprobe.c) sampled as one more tracepoint attr. The functions go
 * into the session's formats file ("func:" lines) so that report names each record's
 * address; the probes are removed at the end, and a uprof killed before its end has its
 * leftovers removed by the next one.
 */
#include "cli/collect.h"
#include "ostrace/ostrace.h"
#include "symbols/symbols.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "collect";

/* The one uprobe event of a collect: every probed function is a probe of it. */
#define FUNCS_EVENT "funcs"

/* Where a library named without its path is looked for (after the program's own
 * mappings when attached). */
static const char *const LIB_DIRS[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
	"/usr/local/lib",	 "/lib",			"/usr/lib",
};

int collect_ostrace_func_parse(struct collect_state *st, bool exclude, const char *arg)
{
	if (st->os.nfunc_specs >= COLLECT_MAX_FUNC_SPECS)
		return cli_error(EXIT_USAGE, CMD,
				 "at most %d --func and --exclude-func options: give several "
				 "MOD:PAT in one, comma-separated",
				 COLLECT_MAX_FUNC_SPECS);
	st->os.func_specs[st->os.nfunc_specs] = arg;
	st->os.func_exclude[st->os.nfunc_specs++] = exclude;
	return -1;
}

/* Is @base a file name module @mod names: the name itself, or @mod (or lib@mod)
 * followed by ".so"? */
static bool names_module(const char *base, const char *mod)
{
	size_t n = strlen(mod);

	if (!strcmp(base, mod))
		return true;
	if (!strncmp(base, "lib", 3) && !strncmp(base + 3, mod, n) && !strncmp(base + 3 + n, ".so", 3))
		return true;
	return !strncmp(base, mod, n) && !strncmp(base + n, ".so", 3);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* A file of an attached process's mappings that @mod names, into @out. */
static bool find_in_maps(pid_t pid, const char *mod, char *out, size_t len)
{
	char path[64], line[PATH_MAX + 128];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *file = strchr(line, '/');

		if (!file)
			continue;
		file[strcspn(file, "\n")] = 0;
		if (names_module(base_name(file), mod)) {
			snprintf(out, len, "%s", file);
			found = true;
		}
	}
	fclose(f);
	return found;
}

static bool find_in_dir(const char *dir, const char *mod, char *out, size_t len)
{
	struct dirent *e;
	bool found = false;
	DIR *d = opendir(dir);

	if (!d)
		return false;
	while (!found && (e = readdir(d)))
		if (names_module(e->d_name, mod)) {
			snprintf(out, len, "%s/%s", dir, e->d_name);
			found = !access(out, R_OK);
		}
	closedir(d);
	return found;
}

/* The file module @mod (@len bytes) names, symlinks resolved, into @out (PATH_MAX). */
static bool find_module(const struct collect_state *st, const char *mod, size_t len, char *out)
{
	char name[PATH_MAX], found[PATH_MAX];
	bool ok = false;

	if (len >= sizeof(name))
		return false;
	memcpy(name, mod, len);
	name[len] = 0;
	if (strchr(name, '/'))
		return realpath(name, out) != NULL;
	if (st->prog_path[0] == '/' && !strcmp(base_name(st->prog_path), name))
		return realpath(st->prog_path, out) != NULL;
	for (int i = 0; !ok && i < st->nattach; i++)
		ok = find_in_maps(st->attach_pids[i], name, found, sizeof(found));
	for (size_t i = 0; !ok && i < sizeof(LIB_DIRS) / sizeof(LIB_DIRS[0]); i++)
		ok = find_in_dir(LIB_DIRS[i], name, found, sizeof(found));
	return ok && realpath(found, out) != NULL;
}

/* One MOD:PAT of an option. */
struct item {
	const char *text; /* as given, for messages */
	size_t len;
	bool exclude;
	char module[PATH_MAX]; /* its file */
	char pattern[256];
	uint64_t matched;
};

struct picked {
	struct ost_func *funcs; /* OST_MAX_FUNCS of them */
	int n;
	uint64_t over; /* matches past OST_MAX_FUNCS */
	struct item *items;
	int nitems;
	const char *module; /* the file being read */
};

static bool excluded(const struct picked *p, const char *name)
{
	for (int i = 0; i < p->nitems; i++)
		if (p->items[i].exclude && !strcmp(p->items[i].module, p->module) &&
		    !fnmatch(p->items[i].pattern, name, 0))
			return true;
	return false;
}

static int pick(void *arg, const char *raw, uint64_t offset)
{
	struct picked *p = arg;
	bool wanted = false;
	char name[sizeof(p->funcs[0].name)];
	size_t len = strcspn(raw, "@");

	/* a shared library's symbol version ("pthread_join@@GLIBC_2.34") is not its name */
	if (len >= sizeof(name)) {
		p->over++;
		return 0;
	}
	memcpy(name, raw, len);
	name[len] = 0;

	for (int i = 0; i < p->nitems; i++) {
		struct item *it = &p->items[i];

		if (strcmp(it->module, p->module) || fnmatch(it->pattern, name, 0))
			continue;
		it->matched++;
		wanted |= !it->exclude;
	}
	if (!wanted || excluded(p, name))
		return 0;
	for (int i = 0; i < p->n; i++) /* two patterns naming one function: one probe */
		if (p->funcs[i].offset == offset && !strcmp(p->funcs[i].module, p->module))
			return 0;
	if (p->n >= OST_MAX_FUNCS || strlen(p->module) >= sizeof(p->funcs[0].module)) {
		p->over++;
		return 0;
	}
	p->funcs[p->n].offset = offset;
	snprintf(p->funcs[p->n].module, sizeof(p->funcs[0].module), "%s", p->module);
	snprintf(p->funcs[p->n].name, sizeof(p->funcs[0].name), "%s", name);
	p->n++;
	return 0;
}

/* The options' MOD:PAT items into @p->items (each module found). -1 or an exit code. */
static int read_items(struct collect_state *st, struct picked *p, int cap)
{
	for (int s = 0; s < st->os.nfunc_specs; s++) {
		const char *spec = st->os.func_specs[s];
		const char *opt = st->os.func_exclude[s] ? "--exclude-func" : "--func";

		for (const char *q = spec; *q;) {
			size_t len = strcspn(q, ","), mlen = strcspn(q, ":");
			struct item *it;

			if (p->nitems >= cap)
				return cli_error(EXIT_USAGE, CMD, "%s: more than %d MOD:PAT items",
						 opt, cap);
			it = &p->items[p->nitems];
			memset(it, 0, sizeof(*it));
			it->text = q;
			it->len = len;
			it->exclude = st->os.func_exclude[s];
			if (!len || mlen >= len || !mlen || mlen + 1 == len ||
			    len - mlen - 1 >= sizeof(it->pattern))
				return cli_error(EXIT_USAGE, CMD,
						 "%s '%.*s': give MODULE:PATTERN (the program's "
						 "or a library's name, or a path; a glob such as "
						 "main:work_*), comma-separated",
						 opt, (int)len, q);
			memcpy(it->pattern, q + mlen + 1, len - mlen - 1);
			if (mlen == 6 && !strncmp(q, "kernel", 6)) {
				char kp[PATH_MAX + 16];

				snprintf(kp, sizeof(kp), "%s/kprobe_events", st->os.tracefs);
				return cli_error(EXIT_USAGE, CMD,
						 access(kp, F_OK)
							 ? "%s '%.*s': this kernel has no "
							   "kprobe_events in tracefs "
							   "(CONFIG_KPROBE_EVENTS): its functions "
							   "cannot be counted; user modules' can"
							 : "%s '%.*s': counting kernel functions "
							   "(kprobes) is not built; user modules' "
							   "functions are",
						 opt, (int)len, q);
			}
			if (!find_module(st, q, mlen, it->module))
				return cli_error(EXIT_USAGE, CMD,
						 "%s '%.*s': no module '%.*s': give the program's "
						 "file name, a library's (libc, libm.so.6), or a "
						 "path to the ELF file",
						 opt, (int)len, q, (int)mlen, q);
			p->nitems++;
			q += len + (q[len] == ',');
		}
	}
	return -1;
}

/* Every module's functions matched against the items into @p->funcs. -1 or an exit code. */
static int resolve(struct picked *p)
{
	struct rpt_symtab *syms = rpt_symtab_new(NULL, NULL);
	int ret = -1;

	if (!syms)
		return cli_error(1, CMD, "--func: out of memory");
	for (int i = 0; ret < 0 && i < p->nitems; i++) {
		bool done = false;
		int r;

		for (int j = 0; j < i; j++)
			done |= !strcmp(p->items[j].module, p->items[i].module);
		if (done)
			continue;
		p->module = p->items[i].module;
		r = rpt_symtab_each_function(syms, p->module, pick, p);
		if (r)
			ret = cli_error(r == -ENOMEM ? 1 : EXIT_USAGE, CMD,
					"--func: cannot read the functions of %s: %s", p->module,
					r == -ENOEXEC ? "not an ELF file with symbols" : strerror(-r));
	}
	rpt_symtab_free(syms);
	for (int i = 0; ret < 0 && i < p->nitems; i++)
		if (!p->items[i].exclude && !p->items[i].matched)
			ret = cli_error(EXIT_USAGE, CMD,
					"--func '%.*s': no function of %s matches '%s' (a glob "
					"over its ELF symbols: nm %s lists them)",
					(int)p->items[i].len, p->items[i].text, p->items[i].module,
					p->items[i].pattern, p->items[i].module);
	if (ret < 0 && p->over)
		ret = cli_error(EXIT_USAGE, CMD,
				"--func: the patterns name more than %d functions (%llu more): "
				"narrow them, or leave some out with --exclude-func",
				OST_MAX_FUNCS, (unsigned long long)p->over);
	if (ret < 0 && !p->n)
		ret = cli_error(EXIT_USAGE, CMD,
				"--func: every function the patterns name is left out by "
				"--exclude-func: nothing to count");
	return ret;
}

/* Append @fmt... to the session's formats text. */
static int formats_add(struct collect_state *st, const char *text)
{
	size_t n = strlen(text), room = sizeof(st->os.formats) - st->os.formats_len;

	if (n >= room)
		return -EFBIG;
	memcpy(st->os.formats + st->os.formats_len, text, n + 1);
	st->os.formats_len += n;
	return 0;
}

static const char *probe_error(int err)
{
	switch (err) {
	case -ENOENT:
		return "this kernel has no uprobe_events in tracefs (CONFIG_UPROBE_EVENTS)";
	case -EEXIST:
		return "this kernel cannot add a probe to an existing event (Linux 5.7 on can)";
	case -EINVAL:
		return "the kernel refused it (a path with a space or a colon, or an offset "
		       "that is no instruction)";
	default:
		return strerror(-err);
	}
}

/* The probes made, their event's format and the functions into the formats text, its
 * attr added. -1 or an exit code. */
static int make_probes(struct collect_state *st, const struct picked *p)
{
	char line[640];
	uint64_t id;
	int ret;

	pmc_uprobe_group(st->os.probe_group, sizeof(st->os.probe_group), getpid());
	for (int i = 0; i < p->n; i++) {
		ret = pmc_uprobe_add(st->os.tracefs, st->os.probe_group, FUNCS_EVENT,
				     p->funcs[i].module, p->funcs[i].offset);
		if (ret) {
			if (!i)
				st->os.probe_group[0] = 0; /* nothing made: nothing to remove */
			return cli_error(1, CMD, "--func: a probe of %s in %s: %s",
					 p->funcs[i].name, p->funcs[i].module, probe_error(ret));
		}
	}
	ret = pmc_tracepoint_id(st->os.tracefs, st->os.probe_group, FUNCS_EVENT, &id);
	if (ret)
		return cli_error(1, CMD, "--func: the probes' event %s/%s: %s", st->os.probe_group,
				 FUNCS_EVENT, strerror(-ret));
	/* its format (system uprof_<pid>) and attr as any tracepoint's */
	ret = collect_ostrace_add_tracepoint(st, st->os.probe_group, FUNCS_EVENT, id, "--func");
	if (ret >= 0)
		return ret;
	/* a count needs no stack: sampled bare, as sys_exit is */
	st->os.is_exit[st->nattrs - 1] = true;
	ret = 0;
	for (int i = 0; !ret && i < p->n; i++) {
		snprintf(line, sizeof(line), "func: 0x%llx\t%s\t%s\n",
			 (unsigned long long)p->funcs[i].offset, p->funcs[i].module,
			 p->funcs[i].name);
		ret = formats_add(st, line);
	}
	if (ret)
		return cli_error(1, CMD, "--func: %d functions are too many to record", p->n);
	return -1;
}

int collect_ostrace_funcs_prepare(struct collect_state *st)
{
	struct picked p = { 0 };
	int removed = 0, ret;

	if (!st->os.nfunc_specs) {
		if (st->os.events & OST_EV_FUNCCOUNT)
			return cli_error(EXIT_USAGE, CMD,
					 "--trace os=funccount counts the functions --func "
					 "names: give --func MODULE:PATTERN (e.g. --func "
					 "myprog:work_*)");
		return -1;
	}
	if (!st->os.on)
		return cli_error(EXIT_USAGE, CMD,
				 "--func counts functions in the OS trace: give --trace "
				 "os=funccount (or --trace os) too");
	st->os.events |= OST_EV_FUNCCOUNT;
	/* probes a killed uprof left: a probe costs every process that runs its code */
	if (!pmc_uprobe_sweep(st->os.tracefs, &removed) && removed)
		cli_warn(CMD, "--func: removed %d uprobe events a uprof that was killed left",
			 removed);
	p.funcs = calloc(OST_MAX_FUNCS, sizeof(*p.funcs));
	p.items = calloc(64, sizeof(*p.items));
	if (!p.funcs || !p.items)
		ret = cli_error(1, CMD, "--func: out of memory");
	else
		ret = read_items(st, &p, 64);
	if (ret < 0)
		ret = resolve(&p);
	if (ret < 0)
		ret = make_probes(st, &p);
	free(p.funcs);
	free(p.items);
	return ret;
}

void collect_ostrace_funcs_remove(struct collect_state *st)
{
	int ret;

	if (!st->os.probe_group[0])
		return;
	ret = pmc_uprobe_remove(st->os.tracefs, st->os.probe_group, FUNCS_EVENT);
	if (ret && ret != -ENOENT)
		cli_warn(CMD,
			 "--func: cannot remove uprobe event %s/%s: %s (the next collect "
			 "with --func removes it)",
			 st->os.probe_group, FUNCS_EVENT, strerror(-ret));
	st->os.probe_group[0] = 0;
}

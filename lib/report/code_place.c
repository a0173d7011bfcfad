// SPDX-License-Identifier: MIT
/*
 * Code addresses a process of the session had, named (report.h): the mapping that held
 * the address while the session ran (the world rebuilt from MMAP2 records), its symbol,
 * and the DWARF line table's file:line with the function the source has it in (an
 * inlined function's own). For addresses a session's own side files recorded, such as
 * the MPI interposer's call sites (lib/job/job_sites.c).
 */
#include "report/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

static void place(struct rpt *r, struct rpt_inlines *il, int pid, uint64_t addr,
		  struct rpt_code_place *out)
{
	const struct rpt_map *m = rpt_world_find_map(&r->world, pid, addr);
	const char *file = NULL, *fn = NULL;
	struct rpt_module *mod;
	struct rpt_sym sym;
	int line = 0;

	memset(out, 0, sizeof(*out));
	snprintf(out->func, sizeof(out->func), "unknown");
	if (!m || m->module == RPT_MODULE_UNKNOWN)
		return;
	mod = &r->world.modules[m->module];
	out->mapped = true;
	out->offset = addr - m->start + m->pgoff;
	snprintf(out->module, sizeof(out->module), "%s", base_name(mod->path));
	rpt_symtab_lookup(r->symtab, mod->path, &mod->id, out->offset, &sym);
	snprintf(out->func, sizeof(out->func), "%s", sym.name);
	if (rpt_inlines_line(il, mod->path, out->offset, &file, &line) || !file || line <= 0)
		return;
	snprintf(out->file, sizeof(out->file), "%s", base_name(file));
	out->line = line;
	if (!rpt_inlines_function(il, mod->path, out->offset, file, line, &fn) && fn)
		snprintf(out->func, sizeof(out->func), "%s", fn);
}

int rpt_code_key(struct rpt *r, int pid, uint64_t addr, char *key, size_t len)
{
	const struct rpt_map *m = rpt_world_find_map(&r->world, pid, addr);
	const struct rpt_module *mod;
	char id[48] = "";

	if (!m || m->module == RPT_MODULE_UNKNOWN)
		return -ENOENT;
	mod = &r->world.modules[m->module];
	for (int i = 0; i < mod->id.build_id_len && i < 20; i++)
		snprintf(id + 2 * i, sizeof(id) - 2 * (size_t)i, "%02x", mod->id.build_id[i]);
	if (!id[0])
		snprintf(id, sizeof(id), "%u:%u:%" PRIu64, mod->id.maj, mod->id.min, mod->id.ino);
	snprintf(key, len, "%s\n%s\n%" PRIx64, mod->path, id, addr - m->start + m->pgoff);
	return 0;
}

int rpt_code_places(struct rpt *r, int pid, const uint64_t *addrs, size_t n,
		    struct rpt_code_place *out)
{
	struct rpt_inlines *il = rpt_inlines_new(r->locator);

	if (!il)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		place(r, il, pid, addrs[i], &out[i]);
	rpt_inlines_free(il);
	return 0;
}

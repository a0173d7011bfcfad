// SPDX-License-Identifier: MIT
/*
 * Unwinding user stacks copied with the samples (--call-graph dwarf), with libdwfl's
 * unwinder and the CFI (.eh_frame, .debug_frame) of each module.
 *
 * One Dwfl per process address space, kept across samples so that every module's CFI is
 * read once: its modules are the process's file mappings at the sample's time, placed at
 * their load bias (from the ELF program headers and the mapping's start and offset). It
 * is rebuilt when the mappings change (dlopen, exec) and at most MAX_DWFLS stay open.
 * Each unwind is one "thread" whose registers and memory are the sample's: memory reads
 * outside the copied stack fail, so a corrupt stack ends the unwind, never reads
 * elsewhere, and the frame count is bounded by the caller's limit.
 *
 * Fast path (x86-64): most CFI rows say "CFA = rsp or rbp + N, return address and rbp
 * saved at CFA + M". Such rows are read once per PC and cached, and a sample whose every
 * frame has one is unwound here without libdwfl's per-frame allocations (6x faster);
 * any other row (expressions, signal frames, no CFI) sends the whole sample to libdwfl,
 * so results are the same either way.
 *
 * The innermost frame's row is the one at its pc, a caller's the one at its return
 * address - 1 (the call); libdwfl does the same (dwfl_frame_pc's isactivation is set for
 * the initial frame, which frame_cb marks exact too). Two rules go beyond libdwfl's:
 * a save slot below the stack pointer (an epilogue's popped %rbp) leaves the register as
 * it is, where libdwfl's failed read leaves it unknown and a caller whose CFA is its
 * frame pointer cannot be unwound; and a stack whose outermost frame is its module's
 * entry point code without CFI (ld.so's _start) has ended, not failed (at_entry()).
 */
#include "arch/arch.h"
#include "symbols/symbols.h"
#include "util/util.h"
#include "unwind/internal.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DWFLS 32
#define BEYOND_LIMIT (64ULL << 20) /* a read this far above the copy: the stack went on */

/* The registers of this architecture (lib/arch): DWARF register n is perf register
 * arch_this.dwarf_to_perf[n]; the fast CFA path needs DWARF's SP and frame pointer. */
#define NDWARF (arch_this.ndwarf)
#define PERF_SP (arch_this.perf_sp)
#define PERF_PC (arch_this.perf_pc)
#define REGS_ABI (arch_this.regs_abi)
#define FAST_PATH (arch_this.dw_sp >= 0 && arch_this.dw_bp >= 0)
#define DW_SP (arch_this.dw_sp)
#define DW_BP (arch_this.dw_bp)

struct uproc {
	int pid;
	uint64_t sig; /* of the mappings it was built from */
	Dwfl *dwfl;   /* NULL: nothing usable in that address space */
	uint64_t used;
	uint64_t build; /* which build of the unwinder's made dwfl: keys the rule cache */
	/* per mapping of the process it was built from: the module reported for it (NULL:
	 * none), what a pc's rows are read from (rpt_unwind_map_index, never libdwfl's
	 * dwfl_addrmodule: see internal.h) */
	Dwfl_Module **mods;
	int nmods;
};

struct rpt_unwinder {
	char *vdso;			/* the session's copy of the vDSO, or NULL */
	const struct rpt_locator *loc;	/* borrowed, may be NULL */
	struct rpt_unwind_share *share; /* leaf rows read once for a job (borrowed), or NULL */
	char *host;			/* the session's, the share's key */
	struct rpt_unwind_modinfo *mods;
	int nmods;
	struct uproc procs[MAX_DWFLS];
	int nprocs;
	uint64_t clock, builds;
	/* the sample being unwound */
	const unsigned char *stack;
	uint64_t sp, stack_len;
	Dwarf_Word regs[ARCH_MAX_DWARF_REGS];
	Dwarf_Word pc;
	bool beyond;
	uint64_t *pcs;
	bool *act;
	int n, max;
	struct rpt_unwind_rules rules; /* the fast path's, by (build, pc) */
	uint64_t fast, slow;
};

/* ---- the sample as a thread ---- */

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)arg;
	(void)thread_argp;
	return 0; /* threads are asked for by tid only */
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct rpt_unwinder *u = arg;

	(void)dwfl;
	if (addr >= u->sp && u->stack_len >= 8 && addr - u->sp <= u->stack_len - 8) {
		memcpy(result, u->stack + (addr - u->sp), sizeof(*result));
		return true;
	}
	if (addr >= u->sp && addr - u->sp < u->stack_len + BEYOND_LIMIT)
		u->beyond = true;
	return false;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct rpt_unwinder *u = arg;

	if (!dwfl_thread_state_registers(thread, 0, NDWARF, u->regs))
		return false;
	dwfl_thread_state_register_pc(thread, u->pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* ---- modules ---- */

/* Unwind with @file's CFI only when it is still the file profiled (@id): a rebuilt
 * file's tables describe other code, and its stacks would be garbage. */
void rpt_unwind_read_modinfo(struct rpt_unwind_modinfo *mi, const char *file,
			     const struct rpt_file_id *id)
{
	GElf_Ehdr eh;
	GElf_Phdr ph;
	struct stat sb;
	size_t phnum = 0;
	Elf *elf = NULL;
	int fd;

	mi->state = -1;
	if (stat(file, &sb) || !S_ISREG(sb.st_mode))
		return;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) || elf_getphdrnum(elf, &phnum) ||
	    rpt_file_id_differs(elf, &sb, id))
		goto out;
	mi->exec = eh.e_type == ET_EXEC;
	for (size_t i = 0; i < phnum && mi->nsegs < RPT_UNWIND_MAX_SEGS; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		mi->segs[mi->nsegs].off = ph.p_offset;
		mi->segs[mi->nsegs].vaddr = ph.p_vaddr;
		mi->segs[mi->nsegs].filesz = ph.p_filesz;
		mi->nsegs++;
	}
	mi->state = mi->nsegs ? 1 : -1;
out:
	if (elf)
		elf_end(elf);
	close(fd);
}

static struct rpt_unwind_modinfo *modinfo(struct rpt_unwinder *u, int module, const char *file,
					  const struct rpt_file_id *id)
{
	if (module >= u->nmods) {
		int n = module + 64;
		struct rpt_unwind_modinfo *g = realloc(u->mods, sizeof(*g) * n);

		if (!g)
			return NULL;
		memset(g + u->nmods, 0, sizeof(*g) * (n - u->nmods));
		u->mods = g;
		u->nmods = n;
	}
	if (!u->mods[module].state)
		rpt_unwind_read_modinfo(&u->mods[module], file, id);
	return u->mods[module].state > 0 ? &u->mods[module] : NULL;
}

bool rpt_unwind_load_bias(const struct rpt_unwind_modinfo *mi, uint64_t start, uint64_t pgoff,
			  uint64_t *bias)
{
	if (mi->exec) {
		*bias = 0;
		return true;
	}
	for (int i = 0; i < mi->nsegs; i++) {
		uint64_t off = mi->segs[i].off & ~4095ULL;

		if (pgoff >= off && pgoff < mi->segs[i].off + mi->segs[i].filesz) {
			*bias = start - (pgoff - mi->segs[i].off + mi->segs[i].vaddr);
			return true;
		}
	}
	return false;
}

static uint64_t maps_sig(const struct rpt_unwind_proc *p)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)p->nmaps;

	for (int i = 0; i < p->nmaps; i++) {
		h = (h ^ p->maps[i].start) * 0x100000001b3ULL;
		h = (h ^ p->maps[i].pgoff ^ ((uint64_t)p->maps[i].module << 40)) * 0x100000001b3ULL;
	}
	return h;
}

int rpt_unwind_map_index(const struct rpt_unwind_proc *p, uint64_t pc)
{
	for (int i = 0; i < p->nmaps; i++)
		if (pc >= p->maps[i].start && pc < p->maps[i].end)
			return i;
	return -1;
}

static void uproc_end(struct uproc *up)
{
	if (up->dwfl)
		dwfl_end(up->dwfl);
	free(up->mods);
	up->dwfl = NULL;
	up->mods = NULL;
	up->nmods = 0;
}

/* @up's Dwfl for the address space of @p now, and the module of each of its mappings;
 * up->dwfl NULL when nothing in it can be unwound. */
static void build(struct rpt_unwinder *u, const struct rpt_unwind_proc *p, struct uproc *up)
{
	uint64_t stamp = ++u->builds;
	Dwfl *dwfl = dwfl_begin(&rpt_dwfl_file_callbacks);
	int reported = 0;

	up->build = stamp;
	up->mods = p->nmaps ? calloc((size_t)p->nmaps, sizeof(*up->mods)) : NULL;
	up->nmods = up->mods ? p->nmaps : 0;
	if (!dwfl || (p->nmaps && !up->mods)) {
		if (dwfl)
			dwfl_end(dwfl);
		uproc_end(up);
		return;
	}
	dwfl_report_begin(dwfl);
	for (int i = 0; i < p->nmaps; i++) {
		const struct rpt_unwind_map *m = &p->maps[i];
		const char *path = m->path, *file = path;
		const struct rpt_file_id *id;
		struct rpt_unwind_modinfo *mi;
		uint64_t bias;

		if (!strcmp(path, "[vdso]"))
			file = u->vdso;
		else if (path[0] != '/')
			continue;
		/* the vDSO copy is the session's own: nothing to check */
		id = file == path ? m->id : NULL;
		if (id && u->loc) {
			struct rpt_located at;

			/* where the file is now, checked there against @id */
			rpt_locate((struct rpt_locator *)u->loc, path, id, &at);
			file = at.file;
			id = NULL;
		}
		if (!file || !(mi = modinfo(u, m->module, file, id)) ||
		    !rpt_unwind_load_bias(mi, m->start, m->pgoff, &bias))
			continue;
		if (mi->stamp != stamp || mi->bias != bias) {
			mi->stamp = stamp;
			mi->bias = bias;
			mi->reported = rpt_dwfl_report_elf(dwfl, u->loc, path, file, bias);
			reported += mi->reported != NULL;
		}
		up->mods[i] = mi->reported;
	}
	up->dwfl = dwfl;
	if (dwfl_report_end(dwfl, NULL, NULL) || !reported ||
	    !dwfl_attach_state(dwfl, NULL, p->pid, &thread_callbacks, u))
		uproc_end(up);
}

/* The module @up's Dwfl reported for the mapping of @p that holds @pc, NULL: none. */
static Dwfl_Module *module_at(const struct uproc *up, const struct rpt_unwind_proc *p,
			      uint64_t pc)
{
	int i = rpt_unwind_map_index(p, pc);

	return i >= 0 && i < up->nmods ? up->mods[i] : NULL;
}

/* The process's Dwfl of its mappings now (built when they changed); NULL when nothing in
 * that address space can be unwound. */
static const struct uproc *dwfl_for(struct rpt_unwinder *u, const struct rpt_unwind_proc *p)
{
	uint64_t sig = maps_sig(p);
	struct uproc *slot = NULL;

	for (int i = 0; i < u->nprocs; i++) {
		if (u->procs[i].pid != p->pid)
			continue;
		slot = &u->procs[i];
		if (slot->sig == sig) {
			slot->used = ++u->clock;
			return slot->dwfl ? slot : NULL;
		}
		uproc_end(slot);
		break;
	}
	if (!slot && u->nprocs < MAX_DWFLS) {
		slot = &u->procs[u->nprocs++];
		*slot = (struct uproc){ 0 };
	} else if (!slot) { /* the least recently used goes */
		slot = &u->procs[0];
		for (int i = 1; i < u->nprocs; i++)
			if (u->procs[i].used < slot->used)
				slot = &u->procs[i];
		uproc_end(slot);
	}
	slot->pid = p->pid;
	slot->sig = sig;
	slot->used = ++u->clock;
	build(u, p, slot);
	return slot->dwfl ? slot : NULL;
}

/* ---- unwinding ---- */

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct rpt_unwinder *u = arg;
	Dwarf_Addr pc;
	bool act = false;

	if (!dwfl_frame_pc(state, &pc, &act) || !pc)
		return DWARF_CB_ABORT + 1; /* no pc: an unusable frame */
	if (u->n >= u->max)
		return DWARF_CB_ABORT; /* the depth limit */
	u->pcs[u->n] = pc;
	u->act[u->n] = act || !u->n;
	u->n++;
	return DWARF_CB_OK;
}

/* ---- the fast path ---- */

/* *@off from the single op "DW_OP_call_frame_cfa [DW_OP_plus_uconst N]". */
static bool cfa_offset(const Dwarf_Op *ops, size_t nops, int64_t *off)
{
	if (nops < 1 || nops > 2 || ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	*off = nops == 2 && ops[1].atom == DW_OP_plus_uconst ? (int64_t)ops[1].number : 0;
	return nops == 1 || ops[1].atom == DW_OP_plus_uconst;
}

/*
 * The module's .debug_frame CFI, for a module whose file has no .eh_frame, else NULL.
 * A file built with unwind tables (every distro binary on x86-64) has its CFI in
 * .eh_frame, and .debug_frame adds nothing to it; asking libdwfl for .debug_frame opens
 * the module's whole DWARF, decompressing every debug section of its debug file, in each
 * process's Dwfl: for the make -j2 session of 8 compilers that was 37 MB of report's peak
 * (ld.so's _start, which no CFI covers, asks at every stack that reaches it).
 */
static Dwarf_CFI *debug_frame_cfi(Dwfl_Module *mod, Dwarf_Addr *bias)
{
	Dwarf_Addr b;
	Elf *elf = dwfl_module_getelf(mod, &b);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return dwfl_module_dwarf_cfi(mod, bias);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(name, ".debug_frame"))
			break;
		if (!strcmp(name, ".eh_frame") && sh.sh_type != SHT_NOBITS)
			return NULL;
	}
	return dwfl_module_dwarf_cfi(mod, bias);
}

void rpt_unwind_rule_of(Dwarf_Frame *frame, struct rpt_unwind_rule *ru)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	bool signal = false;
	int ra;

	ra = dwarf_frame_info(frame, NULL, NULL, &signal);
	if (ra < 0 || signal || dwarf_frame_cfa(frame, &ops, &nops) || nops != 1 ||
	    ops[0].atom != DW_OP_bregx || (ops[0].number != DW_SP && ops[0].number != DW_BP))
		return;
	ru->cfa_reg = (int8_t)ops[0].number;
	ru->cfa_off = (int64_t)ops[0].number2;
	if (dwarf_frame_register(frame, ra, mem, &ops, &nops))
		return;
	if (!nops && ops == mem)
		ru->outermost = true;
	else if (!cfa_offset(ops, nops, &ru->ra_off))
		return;
	if (dwarf_frame_register(frame, DW_BP, mem, &ops, &nops))
		return;
	if (!nops)
		ru->bp_rule = ops ? 2 : 0;
	else if (cfa_offset(ops, nops, &ru->bp_off))
		ru->bp_rule = 1;
	else
		return;
	ru->usable = true;
}

static void read_rule(Dwfl_Module *mod, uint64_t pc, struct rpt_unwind_rule *ru)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;

	memset(ru, 0, sizeof(*ru));
	if (!mod)
		return;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame)) {
		cfi = debug_frame_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame)) {
			ru->nocfi = true;
			return;
		}
	}
	rpt_unwind_rule_of(frame, ru);
	free(frame);
}

static const struct rpt_unwind_rule *rule_for(struct rpt_unwinder *u, const struct uproc *up,
					      const struct rpt_unwind_proc *p, uint64_t pc)
{
	bool fresh;
	struct rpt_unwind_rule *ru = rpt_unwind_rules_get(&u->rules, up->build, pc, &fresh);

	if (ru && fresh)
		read_rule(module_at(up, p, pc), pc, ru);
	return ru;
}

static bool stack_word(struct rpt_unwinder *u, uint64_t addr, uint64_t *v)
{
	return memory_read(NULL, addr, v, u);
}

static bool at_entry(const struct uproc *up, const struct rpt_unwind_proc *p, uint64_t pc,
		     bool exact);

/* 1: unwound (*end set), 0: needs libdwfl. */
static int fast_unwind(struct rpt_unwinder *u, const struct uproc *up,
		       const struct rpt_unwind_proc *p, enum rpt_unwind_end *end)
{
	uint64_t pc = u->pc, sp, bp, cfa, ra;
	bool bp_known = true;

	if (!FAST_PATH)
		return 0;
	sp = u->regs[DW_SP];
	bp = u->regs[DW_BP];
	for (u->n = 0;;) {
		const struct rpt_unwind_rule *ru;

		if (u->n >= u->max) {
			*end = RPT_UNWIND_TRUNCATED;
			return 1;
		}
		u->pcs[u->n] = pc;
		u->act[u->n] = !u->n;
		ru = rule_for(u, up, p, u->n ? pc - 1 : pc);
		u->n++;
		if (ru && ru->nocfi && at_entry(up, p, pc, u->n == 1)) {
			/* libdwfl would guess on from the frame pointer, which an entry point
			 * has none of (nor a caller), and would redo the frames above
			 * without what the fast path knows of registers popped already */
			*end = RPT_UNWIND_DONE;
			return 1;
		}
		if (!ru || !ru->usable || (ru->cfa_reg == DW_BP && !bp_known))
			return 0;
		if (ru->outermost) {
			*end = RPT_UNWIND_DONE;
			return 1;
		}
		cfa = (ru->cfa_reg == DW_SP ? sp : bp) + (uint64_t)ru->cfa_off;
		if (!stack_word(u, cfa + (uint64_t)ru->ra_off, &ra))
			break;
		/* a save slot below the stack pointer was popped already (an epilogue after
		 * "pop %rbp"): the register holds the caller's value again, and the slot is
		 * outside the copy, which starts at the stack pointer */
		if (ru->bp_rule == 1 && cfa + (uint64_t)ru->bp_off >= sp &&
		    !stack_word(u, cfa + (uint64_t)ru->bp_off, &bp))
			break;
		bp_known = ru->bp_rule != 2 && bp_known;
		if (!ra) { /* a zero return address ends a stack too */
			*end = RPT_UNWIND_DONE;
			return 1;
		}
		if (cfa <= sp) /* the stack grows down: a frame above must be higher */
			break;
		sp = cfa;
		pc = ra;
	}
	*end = u->beyond ? RPT_UNWIND_TRUNCATED : RPT_UNWIND_FAILED;
	return 1;
}

/* Has @mod call frame information for @addr (an address of the Dwfl)? */
static bool has_cfi(Dwfl_Module *mod, Dwarf_Addr addr)
{
	Dwarf_CFI *cfi[2];
	Dwarf_Addr bias[2] = { 0, 0 };
	Dwarf_Frame *frame = NULL;

	cfi[0] = dwfl_module_eh_cfi(mod, &bias[0]);
	cfi[1] = debug_frame_cfi(mod, &bias[1]);
	for (int i = 0; i < 2; i++) {
		if (cfi[i] && !dwarf_cfi_addrframe(cfi[i], addr - bias[i], &frame)) {
			free(frame);
			return true;
		}
	}
	return false;
}

/*
 * Is @pc (the outermost frame unwound; @exact: the interrupted pc, else a return address)
 * in the entry point's code of its module, where no CFI says how to go on? Nothing calls
 * an ELF entry point: the stack has ended, and cleanly. ld.so's _start (RTLD_START) is
 * such code: "call _dl_start" with no CFI around it, where the executable's _start marks
 * its return address undefined instead. The entry code is taken to be the CFI-less bytes
 * from e_entry on, at most ENTRY_SPAN of them.
 */
#define ENTRY_SPAN 64
static bool at_entry(const struct uproc *up, const struct rpt_unwind_proc *p, uint64_t pc,
		     bool exact)
{
	Dwarf_Addr look = exact ? pc : pc - 1, bias = 0, entry;
	Dwfl_Module *mod = module_at(up, p, look);
	Elf *elf = mod ? dwfl_module_getelf(mod, &bias) : NULL;
	GElf_Ehdr eh;

	if (!elf || !gelf_getehdr(elf, &eh) || !eh.e_entry)
		return false;
	entry = eh.e_entry + bias;
	return look >= entry && look - entry < ENTRY_SPAN && !has_cfi(mod, entry) &&
	       !has_cfi(mod, look);
}

/*
 * libdwfl ends a stack without an error also where it could not get the caller's return
 * address (a register or a stack word it lacked: it takes the pc as undefined, "maybe the
 * end of the call stack"): _dl_fixup under _dl_runtime_resolve_xsavec, whose CFA is %rbx,
 * ended so with 8 frames to go. The stack has ended only where the outermost frame's CFI
 * says its return address is undefined (_start, a thread's start); the entry code without
 * CFI is at_entry()'s, which rpt_unwind asks after this.
 */
static bool ends_here(const struct uproc *up, const struct rpt_unwind_proc *p, uint64_t pc,
		      bool exact)
{
	Dwarf_Addr look = exact ? pc : pc - 1, bias = 0;
	Dwfl_Module *mod = module_at(up, p, look);
	Dwarf_CFI *cfi[2] = { mod ? dwfl_module_eh_cfi(mod, &bias) : NULL, NULL };
	Dwarf_Addr biases[2] = { bias, 0 };
	bool ended = false;

	if (mod)
		cfi[1] = debug_frame_cfi(mod, &biases[1]);
	for (int i = 0; i < 2 && !ended; i++) {
		Dwarf_Frame *frame = NULL;
		Dwarf_Op mem[3], *ops;
		size_t nops;
		int ra;

		if (!cfi[i] || dwarf_cfi_addrframe(cfi[i], look - biases[i], &frame))
			continue;
		ra = dwarf_frame_info(frame, NULL, NULL, NULL);
		ended = ra >= 0 && !dwarf_frame_register(frame, ra, mem, &ops, &nops) && !nops &&
			ops == mem;
		free(frame);
		break; /* the first table with a row for the pc is the one unwinding uses */
	}
	return ended;
}

/* perf register @r of the sample, or 0 when it was not recorded. */
static uint64_t perf_reg(const struct ses_sample *s, int r)
{
	if (r < 0 || r > 63 || !(s->regs_mask & (1ULL << r)))
		return 0;
	return ses_sample_u64(s->regs,
			      (size_t)__builtin_popcountll(s->regs_mask & ((1ULL << r) - 1)));
}

int rpt_unwind(struct rpt_unwinder *u, const struct rpt_unwind_proc *p, const struct ses_sample *s,
	       uint64_t *pcs, bool *activation, int max, enum rpt_unwind_end *end)
{
	const struct uproc *up;
	int ret;

	*end = RPT_UNWIND_FAILED;
	if (!u || !s->regs || (int64_t)s->regs_abi != REGS_ABI || max <= 0 ||
	    (uint64_t)__builtin_popcountll(s->regs_mask) != s->nregs)
		return 0;
	up = dwfl_for(u, p);
	if (!up)
		return 0;
	for (int i = 0; i < NDWARF; i++)
		u->regs[i] = perf_reg(s, arch_this.dwarf_to_perf[i]);
	u->pc = perf_reg(s, PERF_PC);
	u->sp = perf_reg(s, PERF_SP);
	u->stack = s->stack;
	u->stack_len = s->stack ? s->stack_dyn_size : 0;
	u->beyond = false;
	u->pcs = pcs;
	u->act = activation;
	u->n = 0;
	u->max = max;
	if (fast_unwind(u, up, p, end)) {
		u->fast++;
	} else {
		u->slow++;
		u->n = 0;
		u->beyond = false;
		ret = dwfl_getthread_frames(up->dwfl, (pid_t)s->tid, frame_cb, u);
		if (ret == 0 && u->n && ends_here(up, p, pcs[u->n - 1], activation[u->n - 1]))
			*end = RPT_UNWIND_DONE;
		else if (ret == DWARF_CB_ABORT || u->beyond)
			*end = RPT_UNWIND_TRUNCATED;
	}
	if (*end == RPT_UNWIND_FAILED && u->n &&
	    at_entry(up, p, pcs[u->n - 1], activation[u->n - 1]))
		*end = RPT_UNWIND_DONE;
	return u->n;
}

int rpt_unwind_leaf(struct rpt_unwinder *u, const struct rpt_unwind_proc *p,
		    const struct ses_sample *s, uint64_t *pc, uint64_t *ra)
{
	struct rpt_unwind_rule shared;
	const struct rpt_unwind_rule *ru;
	const struct uproc *up;
	uint64_t cfa;

	if (!u || !FAST_PATH || !s->regs || (int64_t)s->regs_abi != REGS_ABI ||
	    (uint64_t)__builtin_popcountll(s->regs_mask) != s->nregs ||
	    !(s->regs_mask & (1ULL << PERF_PC)) || !(s->regs_mask & (1ULL << PERF_SP)))
		return -EINVAL;
	*pc = perf_reg(s, PERF_PC);
	u->sp = perf_reg(s, PERF_SP);
	u->stack = s->stack;
	u->stack_len = s->stack ? s->stack_dyn_size : 0;
	u->beyond = false;
	/* the job's row for the pc's file and address, else the rank's Dwfl's (no Dwfl is
	 * built for a rank whose every leaf the share has) */
	if (u->share &&
	    rpt_unwind_share_rule(u->share, u->host, u->vdso, u->loc, p, *pc, &shared)) {
		ru = &shared;
	} else {
		up = dwfl_for(u, p);
		if (!up)
			return -ENOENT;
		ru = rule_for(u, up, p, *pc); /* the interrupted pc: its own row, exact */
	}
	if (!ru || !ru->usable)
		return -ENOENT;
	if (ru->outermost || ru->cfa_reg == DW_BP)
		return 0; /* nothing above it, or a frame the kernel's walk follows */
	cfa = u->sp + (uint64_t)ru->cfa_off;
	if (cfa <= u->sp || !stack_word(u, cfa + (uint64_t)ru->ra_off, ra))
		return -ENOENT;
	return *ra ? 1 : 0;
}

int rpt_unwinder_share(struct rpt_unwinder *u, struct rpt_unwind_share *sh, const char *host)
{
	char *copy = strdup(host ? host : "");

	if (!copy)
		return -ENOMEM;
	free(u->host);
	u->host = copy;
	u->share = sh;
	return 0;
}

struct rpt_unwinder *rpt_unwinder_new(const char *vdso_file, const struct rpt_locator *loc)
{
	struct rpt_unwinder *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->loc = loc;
	elf_version(EV_CURRENT);
	if (vdso_file && !(u->vdso = strdup(vdso_file))) {
		free(u);
		return NULL;
	}
	if (u->vdso && access(u->vdso, R_OK)) {
		free(u->vdso);
		u->vdso = NULL;
	}
	return u;
}

void rpt_unwinder_forget(struct rpt_unwinder *u, int pid)
{
	if (!u)
		return;
	for (int i = 0; i < u->nprocs; i++) {
		if (u->procs[i].pid != pid)
			continue;
		uproc_end(&u->procs[i]);
		/* the last slot takes its place: slots are searched, never indexed */
		u->procs[i] = u->procs[--u->nprocs];
		return;
	}
}

void rpt_unwinder_free(struct rpt_unwinder *u)
{
	if (!u)
		return;
	for (int i = 0; i < u->nprocs; i++)
		uproc_end(&u->procs[i]);
	free(u->mods);
	free(u->vdso);
	free(u->host);
	rpt_unwind_rules_release(&u->rules);
	free(u);
}

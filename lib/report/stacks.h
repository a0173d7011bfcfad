/* SPDX-License-Identifier: MIT */
/*
 * lib/report internal: call stacks, from samples to call graphs and exports.
 *
 *   stacks.c      per sample: the frames (kernel callchain, frame-pointer chain, or the
 *                 user stack lib/unwind unwound: --call-graph dwarf), resolved against
 *                 the mappings of the sample's time to (module, file offset); unique
 *                 stacks with counts, and (time, tid, stack) of every kept sample
 *   callgraph_inline.c  the DWARF inline chains of frames (lib/symbols looks them up)
 *   callgraph.c   stacks symbolized to functions; self/total per function and process,
 *                 caller/callee edges, hottest functions of each task; CSV sections
 *   stacks_view.c what lib/export (folded stacks, flame graph SVG, Perfetto trace) and
 *                 the terminal read of them, through report.h's accessors
 *
 * A sample without a stack has a stack of one frame (its IP), so exports and task views
 * work for every session; the CSV only grows call-graph sections when stacks were
 * collected.
 */
#ifndef UPROF_REPORT_STACKS_H
#define UPROF_REPORT_STACKS_H

#include "report/internal.h"
#include "unwind/unwind.h"

/* ---- frames and unique stacks (stacks.c) ---- */

#define RPT_FRAME_MARK UINT32_MAX /* the module of a marker frame; addr says which */
enum rpt_mark {
	RPT_MARK_TRUNCATED = 1,	    /* depth limit, or the end of the copied stack */
	RPT_MARK_UNWIND_FAILED = 2, /* no way further: no CFI, a bad frame, garbage */
	RPT_MARK_ENDS_EARLY = 3,    /* an fp chain that stopped before an entry point */
};

/* One frame: module index (RPT_MODULE_KERNEL: a kernel address) and the address to look
 * up: the file offset in the module, already minus one for return addresses so the call
 * site's function is found. */
struct rpt_frame {
	uint64_t addr;
	uint32_t module;
	uint32_t pad;
};

struct rpt_stack {
	uint64_t hash;
	size_t first;	  /* in frames[] */
	uint32_t nframes; /* leaf first */
	uint32_t thread;  /* index in world.threads */
	uint64_t count;
	uint32_t sym; /* its symbolized stack, once built */
};

/* A kept sample, in time order within each thread after rpt_stacks_finish(). */
struct rpt_ssample {
	uint64_t time;
	uint32_t tid;
	uint32_t stack;
};

/* A matched task or event instance, as tasks.c found it. */
struct rpt_task_span {
	uint64_t begin, end;
	uint32_t pid, tid;
	int item; /* index in rpt.items */
};

/* ---- symbolized (callgraph.c) ---- */

enum rpt_cfunc_kind { RPT_CF_FUNCTION, RPT_CF_INLINED, RPT_CF_MARK };

struct rpt_cfunc {
	const char *name; /* display name ("b (inlined)", "[truncated]"), interned */
	const char *base; /* the function's own name (the same without the suffix) */
	int module;	  /* -1 for markers */
	enum rpt_cfunc_kind kind;
	uint64_t self, total; /* over every process */
	uint64_t stamp;	      /* last symbolized stack that counted it */
};

/* Equal symbolized stacks of one process, merged. */
struct rpt_symstack {
	uint32_t proc;
	uint32_t n;
	size_t first; /* in fids[], leaf first */
	uint64_t count;
	uint64_t hash;
};

struct rpt_edge {
	uint64_t count;
	uint64_t stamp;
};

struct rpt_unwinder;
struct rpt_inlines;

struct rpt_stacks {
	bool collected; /* the session has call stacks (session.ini or the samples say so) */
	bool dwarf;	/* user stacks to unwind */
	int depth;	/* frames kept per stack */
	struct rpt_frame *frames;
	size_t nframes, capframes;
	struct rpt_stack *stacks;
	size_t nstacks, capstacks;
	struct util_hash index; /* (hash, thread, chain) -> stack + 1 */
	struct rpt_ssample *samples;
	size_t nsamples, capsamples;
	bool keep; /* samples[] kept: for tasks or exports */
	/* samples[] holds every @stride-th of @seen samples, at most RPT_TIMELINE_MAX (no
	 * tasks: only the trace reads them); else every sample (tasks count them) */
	bool bounded;
	uint64_t stride, seen;
	bool sorted; /* samples by (tid, time): rpt_stacks_finish() */
	struct rpt_unwinder *unwinder;
	struct rpt_unwind_map
		*umaps; /* the sampled process's mappings, as the unwinder reads them */
	int capumaps;
	uint64_t truncated, unwind_failed, unwound; /* samples */
	/* fp samples with a leaf copy (leafstack.data): a caller put back, the frame was
	 * frame-pointer based already, no answer from the CFI; and the file's state */
	uint64_t leaf_fixed, leaf_fp, leaf_unknown;
	bool leaf_expected;  /* session.ini says collect wrote leafstack.data */
	char leaf_note[256]; /* "" or why leafstack.data could not be used (fully) */
	/* fp stacks that end before an entry point (rpt_fpstack_early) */
	uint64_t user_stacks, early_stacks;
	int early_module;    /* the module most early stacks end in, -1 none */
	uint32_t last_stack; /* the stack rpt_stacks_sample() gave its sample (rpt_walk) */
	struct rpt_task_span *spans;
	size_t nspans, capspans;

	/* callgraph.c */
	bool built;
	bool inlined; /* built with inline chains (DWARF, costly: only for output showing them) */
	struct rpt_cfunc *funcs;
	uint32_t nfuncs, capfuncs;
	struct util_hash func_index;  /* (module, name, kind) -> func + 1 */
	struct util_hash frame_index; /* (module, addr) -> first fid + 1 in fpool, n in val>>32 */
	uint32_t *fpool;	      /* frame -> functions (inline chains) */
	size_t nfpool, capfpool;
	uint32_t *fids; /* symbolized stacks */
	size_t nfids, capfids;
	struct rpt_symstack *syms;
	size_t nsyms, capsyms;
	struct util_hash sym_index;		/* (hash, proc, chain) -> sym + 1 */
	struct util_hash proc_total, proc_self; /* (proc, func) -> samples */
	struct util_hash edge_index;		/* (proc, caller, callee) -> edge + 1 */
	struct rpt_edge *edges;
	size_t nedges, capedges;
	struct util_hash task_func; /* (item, func) -> samples */
	struct rpt_strpool names;   /* interned display names */
	struct rpt_inlines *inlines;
	/* callgraph_inline.c: (module, addr) -> first + 1 in inline_names, n in val>>40 */
	struct util_hash inline_index;
	const char **inline_names; /* inline chains, innermost first (inline.c's names) */
	size_t ninline_names, capinline_names;
};

/* The most inlined functions a frame's chain lists. */
#define RPT_MAX_INLINE 16

/* callgraph_inline.c: the inline chain of frame @fr into @names[RPT_MAX_INLINE] (kept by
 * (module, addr)): its count, or -ENOMEM. */
int rpt_callgraph_inlines(struct rpt *r, const struct rpt_frame *fr, const char **names);
/* Look up the chain of every frame, one module file at a time, each closed after. */
int rpt_callgraph_fetch_inlines(struct rpt *r);

/* stacks.c */
struct rpt_stacks *rpt_stacks_new(const struct rpt *r);
void rpt_stacks_free(struct rpt_stacks *st);
/* The stack of sample @s of @thread, whose IP resolved to (@module, @addr); it counts
 * @units (ses_sample_units: 1 but in foreign files). 0 or -ENOMEM. */
int rpt_stacks_sample(struct rpt *r, const struct ses_reader *rd, const struct ses_sample *s,
		      uint32_t thread, int module, uint64_t addr, uint64_t units);
/* --trace os: the user frames of tracepoint sample @s of @thread, interned uncounted, into
 * *@stack (UINT32_MAX: none). 0 or -ENOMEM. */
int rpt_stacks_user_only(struct rpt *r, const struct ses_reader *rd, const struct ses_sample *s,
			 uint32_t thread, uint32_t *stack);
/* Room for @nsamples kept samples (growing a big array by doubling copies it). -ENOMEM. */
int rpt_stacks_reserve(struct rpt_stacks *st, size_t nsamples);
/* Process @pid ended: what the unwinder holds for it (its module files) can go. */
void rpt_stacks_process_gone(struct rpt_stacks *st, int pid);
/* Every sample is read: the unwinder (module files, decompressed CFI, rules) can go;
 * a later unwind would open a new one. */
void rpt_stacks_unwound(struct rpt_stacks *st);
/* Sort the kept samples by (tid, time), once: for the task view and exports only. */
void rpt_stacks_finish(struct rpt_stacks *st);
/* rpt_stacks_span() is in internal.h: tasks.c calls it. */
/* Kept samples of @tid in [from, to]: *@first and the count. */
size_t rpt_stacks_between(const struct rpt_stacks *st, uint32_t tid, uint64_t from, uint64_t to,
			  size_t *first);

/* translated_cache.c: translated.bin (lib/unwind's format) as the report uses it.
 * Before samples.data is read: the key of samples.data, translated.bin loaded when it
 * matches (else the note says why), or kept for writing with opts.retranslate. 0 or
 * -ENOMEM. Undo with rpt_tr_close. */
int rpt_tr_open(struct rpt *r);
void rpt_tr_close(struct rpt *r);
/* The stored unwind of the sample being counted (r->tr_seq) at limit @max, as
 * rpt_unwind would give it: the frame count, or -1 (unwind it). */
int rpt_tr_unwound(struct rpt *r, int max, uint64_t *pcs, bool *act, int *end);
/* Keep an unwind for rpt_translated_write (with opts.retranslate; else nothing). */
void rpt_tr_keep(struct rpt *r, int max, int n, const uint64_t *pcs, const bool *act, int end);

/* leafstack_join.c: leafstack.data joined to fp samples; fpstack_notes.c: fp stacks
 * that end early, and the note on both. */
#define RPT_EARLY_PCT 20 /* the share of early fp stacks that makes report say "dwarf" */
/* Open the session's leafstack.data: NULL when there is none (a note when session.ini
 * says collect wrote one) or it is unusable (a note). */
struct ses_leaf_reader *rpt_leafstack_open(struct rpt *r);
/* Give fp sample number @seq (@s, of @attr) its leaf copy, when @lr has it. */
void rpt_leafstack_attach(struct ses_leaf_reader *lr, uint64_t seq,
			  const struct perf_event_attr *attr, struct ses_sample *s);
/* After the last sample: a note for damage or records that matched no sample. */
void rpt_leafstack_close(struct rpt *r, struct ses_leaf_reader *lr);
/* Does the symbolized fp stack @fids (@n functions, leaf first) of a user process
 * (@user_process: one with mappings, not a kernel thread) end before an entry point
 * (_start, main, start_thread...) with nothing saying why (no [truncated] or [unwind
 * failed] at its end)? Such a stack gets an [ends early] mark (callgraph.c). */
bool rpt_fpstack_ends_early(const struct rpt_stacks *st, const uint32_t *fids, uint32_t n,
			    bool user_process);
/* Count the fp stacks that end before an entry point (after rpt_callgraph_build). */
int rpt_fpstack_early(struct rpt *r);
/* At RPT_EARLY_PCT % or more early stacks: true with the share and the module most of
 * them end in (its file name, borrowed). */
bool rpt_fpstack_hint(const struct rpt *r, double *pct, const char **module);
void rpt_fpstack_write_details(const struct rpt *r, FILE *f);

/*
 * callgraph.c. Symbolize the stacks and count; with @inlines, frames get the functions
 * DWARF says were inlined there. Building again with @inlines after a build without
 * them starts afresh; otherwise a second call does nothing.
 */
int rpt_callgraph_build(struct rpt *r, bool inlines);
/* Free what rpt_callgraph_build made and mark the graph unbuilt (the raw stacks stay). */
void rpt_callgraph_reset(struct rpt_stacks *st);
/* The symbolized stack of raw stack @stack. */
const struct rpt_symstack *rpt_callgraph_sym(const struct rpt *r, uint32_t stack);
const uint32_t *rpt_callgraph_fids(const struct rpt *r, const struct rpt_symstack *sym);
/* The function that gets @s's self time: its leaf's own function, past the functions
 * inlined there (@s has at least one frame). */
uint32_t rpt_callgraph_self(const struct rpt_stacks *st, const struct rpt_symstack *s);
const char *rpt_callgraph_module(const struct rpt *r, const struct rpt_cfunc *f);
/* "Call Stack Sampling" and, with stacks, how they were collected and how many ended
 * early: key lines of the CSV header. */
void rpt_callgraph_write_details(const struct rpt *r, FILE *f);
int rpt_callgraph_write_top(const struct rpt *r, FILE *f);
int rpt_callgraph_write_process(const struct rpt *r, FILE *f, int proc);
/* callgraph_thread.c: the same for one thread (--group-by thread). */
int rpt_callgraph_write_thread(const struct rpt *r, FILE *f, int thread);
/* One CALLGRAPH row: function @fn with @rel ("function", "caller", "callee"), @deep
 * samples, and @self samples (NULL: empty cells). */
void rpt_callgraph_row(const struct rpt *r, FILE *f, uint32_t fn, const char *rel, uint64_t deep,
		       const uint64_t *self);

#endif

/* SPDX-License-Identifier: MIT */
/* lib/pmc internals: file helpers, libpfm4, the AMD core layout (the kernel seam is
 * public: pmc.h). */
#ifndef UPROF_PMC_INTERNAL_H
#define UPROF_PMC_INTERNAL_H

#include "pmc/pmc.h"

#include <stdio.h>

/* ---- files (root.c) ---- */

/* Read <root>/<rel> (at most @len - 1 bytes) into @buf, NUL-terminated, trailing
 * whitespace removed. Returns the length or -errno. */
int pmc_read_file(const char *root, const char *rel, char *buf, size_t len);
/* The same for an absolute path. */
int pmc_read_path(const char *path, char *buf, size_t len);
/* Parse an unsigned number of @len bytes: decimal, or hex with 0x. 0 or -EINVAL/-ERANGE. */
int pmc_parse_u64(const char *s, size_t len, uint64_t *out);

/* ---- sysfs format fields (pmu.c) ---- */

/* One format field: which config word (0, 1, 2) and which bits, in order. A field may
 * span several ranges ("config:0-7,32-35"). */
#define PMC_FMT_MAX_RANGES 4
struct pmc_format {
	char name[32];
	int nranges;
	struct {
		uint8_t word; /* 0 config, 1 config1, 2 config2 */
		uint8_t lo, hi;
	} r[PMC_FMT_MAX_RANGES];
};

/* Parse a format file's text ("config:0-7,32-35", "config1:3", "config2:56-63").
 * 0 or -EINVAL. */
int pmc_format_parse(const char *s, size_t len, struct pmc_format *f);
/* Place @value into attr config words through @f. -ERANGE when @value has more bits
 * than the field holds. */
int pmc_format_apply(const struct pmc_format *f, uint64_t value, struct perf_event_attr *attr);
/* A format field of @u by name, or NULL. */
const struct pmc_format *pmc_pmu_format(const struct pmc_pmu *u, const char *name);
/* The AMD core PMC layout used when sysfs has no cpu/format (event, umask, edge, inv,
 * cmask). */
const struct pmc_format *pmc_amd_core_format(const char *name);

/* ---- event spec parsing (spec.c, encode.c) ---- */

struct pmc_term {
	char key[32];
	char val[96];
	bool has_val;
	int col; /* 1-based column of the key in the spec */
};

#define PMC_MAX_TERMS 16

/* Split "k=v,k2,k3=v3" into terms. 0 or -EINVAL/-E2BIG with @err. @col0 is the column
 * of s[0]. */
int pmc_terms_split(const char *s, size_t len, int col0, struct pmc_term *t, int max, int *n,
		    char *err, size_t errlen);

/* Encode core event @code/@umask with the layout of @pmus' cpu PMU (or AMD's). */
int pmc_encode_core(const struct pmc_pmus *pmus, uint16_t code, uint8_t umask, bool inv, bool edge,
		    uint8_t cmask, struct perf_event_attr *attr);

/* Modifiers collected from a spec, applied by pmc_encode_finish(). user/os: -1 = not
 * given (keep the encoding's), else 0/1. */
struct pmc_mods {
	bool have_umask;
	uint8_t umask;
	int user, os;
	bool inv, edge;
	uint8_t cmask;
	bool l3miss, cnt_ctl;
	bool predefined; /* the name was a uProf predefined event */
};

/* Finish @ev after its name was resolved (@encoded: libpfm4 already filled attr). */
int pmc_encode_finish(const struct pmc_pmus *pmus, struct pmc_event *ev, bool encoded,
		      const struct pmc_mods *m, char *err, size_t errlen);
/* "pmu/term=v,alias,.../" (@len bytes). */
int pmc_encode_uncore_slash(const struct pmc_pmus *pmus, struct pmc_event *ev, const char *s,
			    size_t len, char *err, size_t errlen);
/* key=value terms with pmu=NAME. */
int pmc_encode_uncore_kv(const struct pmc_pmus *pmus, struct pmc_event *ev,
			 const struct pmc_term *t, int n, char *err, size_t errlen);
/* "PMU 'x' is not available ...; check with 'uprof info --system'" into @buf. */
void pmc_missing_pmu_msg(const char *pmu, char *buf, size_t len);

/* Software events by perf name. 0 or -ENOENT. */
int pmc_software_find(const char *name, size_t len, uint64_t *config, const char **canon);

/* ---- libpfm4 (pfm.c) ---- */

/* Encode libpfm4 event string @name for perf into @attr (all of it, as libpfm returns
 * it, size set; no sampling period). Its period=/freq= modifiers go to *@period and
 * *@freq (0: not given). 0, -ENOENT (not a libpfm4 event), -EINVAL (bad attribute: @err
 * has libpfm's words). */
int pmc_pfm_encode(const char *name, struct perf_event_attr *attr, uint64_t *period, uint64_t *freq,
		   char *err, size_t errlen);
/* libpfm4 reads LIBPFM_FORCE_PMU / LIBPFM_ENCODE_INACTIVE once, at its first use in a
 * process (re-initializing it with another PMU leaves stale per-event state behind). */

#endif

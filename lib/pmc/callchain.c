// SPDX-License-Identifier: MIT
/*
 * Call stacks with the samples: the --call-graph spec (perf's and uProf's spellings) and
 * the perf_event_attr bits that collect them.
 *
 *   fp      the kernel walks the frame-pointer chain: PERF_SAMPLE_CALLCHAIN
 *   dwarf   the kernel copies the user registers and the top of the user stack with each
 *           sample (REGS_USER + STACK_USER); report unwinds them with the CFI
 *           (.eh_frame/.debug_frame) of each module. Kernel frames still come from the
 *           callchain, and the user part of it is turned off (exclude_callchain_user),
 *           as perf does.
 *   fp + leaf copy  (the default for fp where lib/arch has a leaf mask) the kernel also
 *           copies the pc, stack and frame pointer registers and the top
 *           PMC_CG_DEFAULT_LEAF bytes of the user stack: with them report takes one CFI
 *           step from the leaf and gives a frameless leaf (gcc -O2 makes leaves frameless
 *           even with -fno-omit-frame-pointer) its caller back, which the kernel's walk
 *           from the leaf's frame pointer (its caller's frame) skips. collect moves the
 *           copy to leafstack.data, so samples.data stays a plain fp file for perf.
 */
#include "pmc/pmc.h"
#include "arch/arch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* which user registers a dwarf-mode sample copies: lib/arch */
#define USER_REGS_MASK (arch_this.user_regs_mask)

static const char *const mode_names[] = { "none", "fp", "dwarf" };
static const char *const scope_names[] = { "all", "user", "kernel" };

const char *pmc_callgraph_mode_name(enum pmc_cg_mode m)
{
	return (unsigned)m < 3 ? mode_names[m] : "?";
}

const char *pmc_callgraph_scope_name(enum pmc_cg_scope s)
{
	return (unsigned)s < 3 ? scope_names[s] : "?";
}

void pmc_callgraph_init(struct pmc_callgraph *cg)
{
	memset(cg, 0, sizeof(*cg));
	cg->mode = PMC_CG_NONE;
	cg->stack_bytes = PMC_CG_DEFAULT_STACK;
	cg->leaf_bytes = arch_this.leaf_regs_mask ? PMC_CG_DEFAULT_LEAF : 0;
	cg->depth = PMC_CG_DEFAULT_DEPTH;
	cg->scope = PMC_CG_ALL;
}

static void errf(char *err, size_t len, const char *what, const char *s, size_t n)
{
	if (err && len)
		snprintf(err, len, "%s: '%.*s'", what, (int)n, s);
}

/* A field of @s: [*pos, next ':' or ','), advancing *pos past the separator. */
static size_t field(const char *s, size_t *pos, const char **start)
{
	size_t n = 0;

	*start = s + *pos;
	while (s[*pos + n] && s[*pos + n] != ':' && s[*pos + n] != ',')
		n++;
	*pos += n + (s[*pos + n] ? 1 : 0);
	return n;
}

static bool eq(const char *p, size_t n, const char *word)
{
	return strlen(word) == n && !strncmp(p, word, n);
}

static int parse_uint(const char *p, size_t n, unsigned long lo, unsigned long hi,
		      unsigned long *out)
{
	char buf[24], *end;
	unsigned long v;

	if (!n || n >= sizeof(buf) || p[0] == '-' || p[0] == '+')
		return -EINVAL;
	memcpy(buf, p, n);
	buf[n] = 0;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || *end)
		return -EINVAL;
	if (v < lo || v > hi)
		return -ERANGE;
	*out = v;
	return 0;
}

static int parse_mode(const char *p, size_t n, struct pmc_callgraph *cg)
{
	if (eq(p, n, "fp"))
		cg->mode = PMC_CG_FP;
	else if (eq(p, n, "dwarf") || eq(p, n, "fpo")) /* fpo: recover what fp omission hides */
		cg->mode = PMC_CG_DWARF;
	else
		return -EINVAL;
	return 0;
}

int pmc_callgraph_set_mode(struct pmc_callgraph *cg, const char *s, char *err, size_t errlen)
{
	if (parse_mode(s, strlen(s), cg)) {
		errf(err, errlen, "unknown call-graph mode (use fp, fpo or dwarf)", s, strlen(s));
		return -EINVAL;
	}
	if (cg->mode == PMC_CG_DWARF && !USER_REGS_MASK) {
		errf(err, errlen, "dwarf unwinding is not supported on this architecture", s,
		     strlen(s));
		return -EOPNOTSUPP;
	}
	return 0;
}

int pmc_callgraph_set_depth(struct pmc_callgraph *cg, const char *s, char *err, size_t errlen)
{
	unsigned long v;
	int ret = parse_uint(s, strlen(s), PMC_CG_MIN_DEPTH, PMC_CG_MAX_DEPTH, &v);

	if (ret) {
		if (err && errlen)
			snprintf(err, errlen, "call-graph depth '%s' is not a number from %d to %d",
				 s, PMC_CG_MIN_DEPTH, PMC_CG_MAX_DEPTH);
		return ret;
	}
	cg->depth = (int)v;
	return 0;
}

int pmc_callgraph_set_scope(struct pmc_callgraph *cg, const char *s, char *err, size_t errlen)
{
	size_t n = strlen(s);

	if (eq(s, n, "user"))
		cg->scope = PMC_CG_USER;
	else if (eq(s, n, "kernel"))
		cg->scope = PMC_CG_KERNEL;
	else if (eq(s, n, "all"))
		cg->scope = PMC_CG_ALL;
	else {
		errf(err, errlen, "unknown call-graph scope (use user, kernel or all)", s, n);
		return -EINVAL;
	}
	return 0;
}

/* fp:BYTES: the leaf copy's size, 0 for none. */
static int set_leaf(struct pmc_callgraph *cg, const char *p, size_t n, char *err, size_t errlen)
{
	unsigned long v;

	if (parse_uint(p, n, 0, PMC_CG_MAX_LEAF, &v) || v % 8 || (v && v < PMC_CG_MIN_LEAF)) {
		if (err && errlen)
			snprintf(err, errlen,
				 "leaf copy size '%.*s' must be 0 or a multiple of 8 from %d to %d "
				 "bytes",
				 (int)n, p, PMC_CG_MIN_LEAF, PMC_CG_MAX_LEAF);
		return -ERANGE;
	}
	if (v && !arch_this.leaf_regs_mask) {
		if (err && errlen)
			snprintf(err, errlen,
				 "a leaf copy with fp stacks is not supported on "
				 "this architecture (use fp:0)");
		return -EOPNOTSUPP;
	}
	cg->leaf_bytes = (uint32_t)v;
	return 0;
}

static int set_stack(struct pmc_callgraph *cg, const char *p, size_t n, char *err, size_t errlen)
{
	unsigned long v;

	if (parse_uint(p, n, PMC_CG_MIN_STACK, PMC_CG_MAX_STACK, &v) || v % 8) {
		if (err && errlen)
			snprintf(err, errlen,
				 "stack size '%.*s' must be a multiple of 8 from %d to %d bytes",
				 (int)n, p, PMC_CG_MIN_STACK, PMC_CG_MAX_STACK);
		return -ERANGE;
	}
	cg->stack_bytes = (uint32_t)v;
	return 0;
}

/* uProf 5.x: interval:depth:scope:mode (e.g. 1:64:user:fpo). */
static int parse_5x(struct pmc_callgraph *cg, const char *s, char *err, size_t errlen)
{
	const char *f[4];
	size_t n[4], pos = 0;
	char *end, buf[32];
	double ms;
	int ret;

	for (int i = 0; i < 4; i++)
		n[i] = field(s, &pos, &f[i]);
	if (n[0] >= sizeof(buf))
		goto bad_interval;
	memcpy(buf, f[0], n[0]);
	buf[n[0]] = 0;
	errno = 0;
	ms = strtod(buf, &end);
	if (errno || *end || end == buf || !(ms >= 0) || ms > 1e6)
		goto bad_interval;
	cg->interval_ms = ms;
	memcpy(buf, f[1], n[1] < sizeof(buf) ? n[1] : 0);
	buf[n[1] < sizeof(buf) ? n[1] : 0] = 0;
	ret = pmc_callgraph_set_depth(cg, buf, err, errlen);
	if (ret)
		return ret;
	memcpy(buf, f[2], n[2] < sizeof(buf) ? n[2] : 0);
	buf[n[2] < sizeof(buf) ? n[2] : 0] = 0;
	ret = pmc_callgraph_set_scope(cg, buf, err, errlen);
	if (ret)
		return ret;
	memcpy(buf, f[3], n[3] < sizeof(buf) ? n[3] : 0);
	buf[n[3] < sizeof(buf) ? n[3] : 0] = 0;
	return pmc_callgraph_set_mode(cg, buf, err, errlen);
bad_interval:
	errf(err, errlen, "call-graph interval is not a number of milliseconds", f[0], n[0]);
	return -EINVAL;
}

int pmc_callgraph_parse(const char *s, struct pmc_callgraph *cg, char *err, size_t errlen)
{
	const char *f;
	size_t n, pos = 0, nfields = 1;
	char mode[16];
	int ret;

	for (const char *p = s; *p; p++)
		nfields += *p == ':' || *p == ',';
	if (!*s) {
		errf(err, errlen, "empty call-graph spec", s, 0);
		return -EINVAL;
	}
	if (nfields == 4)
		return parse_5x(cg, s, err, errlen);
	if (nfields > 2) {
		errf(err, errlen, "call-graph spec is not MODE[:BYTES] or I:D:S:F", s, strlen(s));
		return -EINVAL;
	}
	n = field(s, &pos, &f);
	if (n >= sizeof(mode)) {
		errf(err, errlen, "unknown call-graph mode (use fp, fpo or dwarf)", f, n);
		return -EINVAL;
	}
	memcpy(mode, f, n);
	mode[n] = 0;
	ret = pmc_callgraph_set_mode(cg, mode, err, errlen);
	if (ret)
		return ret;
	if (nfields == 2) {
		n = field(s, &pos, &f);
		if (cg->mode == PMC_CG_FP)
			return set_leaf(cg, f, n, err, errlen);
		return set_stack(cg, f, n, err, errlen);
	}
	return 0;
}

int pmc_callgraph_kernel_max_stack(void)
{
	char buf[32];
	ssize_t n;
	int fd = open("/proc/sys/kernel/perf_event_max_stack", O_RDONLY | O_CLOEXEC);
	int v = 127; /* the kernel's default */

	if (fd < 0)
		return v;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0) {
		buf[n] = 0;
		v = atoi(buf);
	}
	return v > 0 ? v : 127;
}

int pmc_callgraph_attr(const struct pmc_callgraph *cg, int kernel_max_stack,
		       struct perf_event_attr *attr)
{
	int depth = cg->depth > 0 ? cg->depth : PMC_CG_DEFAULT_DEPTH;

	if (cg->mode == PMC_CG_NONE)
		return 0;
	/* the kernel refuses more than perf_event_max_stack frames (EOVERFLOW) */
	if (kernel_max_stack > 0 && depth > kernel_max_stack)
		depth = kernel_max_stack;
	attr->sample_type |= PERF_SAMPLE_CALLCHAIN;
	attr->sample_max_stack = (uint16_t)depth;
	attr->exclude_callchain_kernel = cg->scope == PMC_CG_USER;
	attr->exclude_callchain_user = cg->scope == PMC_CG_KERNEL;
	if (cg->mode == PMC_CG_DWARF && cg->scope != PMC_CG_KERNEL) {
		if (!USER_REGS_MASK)
			return -EOPNOTSUPP;
		attr->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		attr->sample_regs_user = USER_REGS_MASK;
		attr->sample_stack_user = cg->stack_bytes;
		attr->exclude_callchain_user = 1; /* report unwinds the user part */
	} else if (cg->mode == PMC_CG_FP && cg->scope != PMC_CG_KERNEL && cg->leaf_bytes &&
		   arch_this.leaf_regs_mask) {
		attr->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		attr->sample_regs_user = arch_this.leaf_regs_mask;
		attr->sample_stack_user = cg->leaf_bytes;
	}
	return 0;
}

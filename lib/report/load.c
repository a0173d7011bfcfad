// SPDX-License-Identifier: MIT
/*
 * Loading a session: session.ini (checked: status, architecture), then samples.data in
 * time order (replay.c), pauses, tasks, vdso.so, translated.bin and the OpenMP records,
 * all beneath the session directory's fd (docs/DESIGN.md §4). Samples are only counted
 * per (thread, module, address) there; symbols come after, once per distinct address.
 */
#include "report/internal.h"
#include "annotate/annotate.h"
#include "arch/arch.h"
#include "report/stacks.h"
#include "symbols/symbols.h"
#include "openmp/openmp.h"
#include "report/openmp_state.h"
#include "report/ostrace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* vdso.so can be an ELF image of a few pages; a larger one is not the kernel's */
#define VDSO_MAX_BYTES (16u << 20)

/*
 * The session's vdso.so, read beneath its fd (a regular file, no symlink followed), into
 * a memfd of ours that the symbol table and the unwinder read (r->vdso_file). None there,
 * or refused: they use this process's own vDSO, as when collect saved none. -ENOMEM only.
 */
static int copy_vdso(struct rpt *r)
{
	struct stat sb;
	char *buf = NULL;
	size_t len = 0, done = 0;
	int fd, ret;

	if (!fstat(r->dfd, &sb))
		ret = rpt_symtab_set_vdso(r->symtab, NULL, sb.st_uid);
	else
		ret = rpt_symtab_set_vdso(r->symtab, NULL, geteuid());
	if (ret)
		return ret;
	ret = util_at_read_all(r->dfd, "vdso.so", VDSO_MAX_BYTES, &buf, &len);
	if (ret)
		return ret == -ENOMEM ? ret : 0;
	fd = memfd_create("vdso.so", MFD_CLOEXEC);
	while (fd >= 0 && done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			fd = -1;
			break;
		}
		done += (size_t)n;
	}
	free(buf);
	if (fd < 0)
		return 0;
	r->vdso_fd = fd;
	snprintf(r->vdso_file, sizeof(r->vdso_file), "/proc/self/fd/%d", fd);
	return rpt_symtab_set_vdso(r->symtab, r->vdso_file, sb.st_uid);
}

/* kill(pid, 0) answers for a zombie too: a collect SIGKILLed (an MPI launcher's kill of
 * the rank's process group) whose parent has not reaped it yet is gone all the same. */
static bool collector_alive(int pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	if (pid <= 0 || kill(pid, 0) != 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = 0;
	p = strrchr(buf, ')'); /* the command name may hold anything but its last ')' */
	return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

/* A session whose collector is gone but whose status still says running was killed. */
static void settle_status(struct ses_info *in)
{
	if (in->status != SES_STATUS_RUNNING)
		return;
	if (!collector_alive(in->collector_pid))
		in->status = SES_STATUS_INTERRUPTED;
}

/*
 * A collect killed (SIGKILL: MPICH's launcher kills each rank's process group, Open MPI's
 * follows its SIGTERM with SIGKILL) left session.ini as it was at the start, with no end
 * time: the profile is taken to end at the last sample samples.data holds, so that its
 * duration and elapsed time are those of the data there is, not 0.
 */
static void settle_killed_end(struct rpt *r)
{
	struct ses_info *in = &r->info;

	if (r->counts_final || in->status != SES_STATUS_INTERRUPTED)
		return;
	r->collect_killed = true;
	if (in->end_mono_ns > in->start_mono_ns || r->last_sample_ns <= (uint64_t)in->start_mono_ns)
		return;
	in->end_mono_ns = (int64_t)r->last_sample_ns;
	if (in->start_epoch_ns)
		in->end_epoch_ns = in->start_epoch_ns + (in->end_mono_ns - in->start_mono_ns);
}

/* Registers, unwinding rules and address layout are this architecture's (lib/arch): a
 * session of another one is refused, not misread. No arch key: an x86_64 session. */
static int check_arch(const struct rpt *r, char *err, size_t errlen)
{
	const char *arch = r->info.arch[0] ? r->info.arch : ARCH_DEFAULT_NAME;

	if (!strcmp(arch, arch_this.name))
		return 0;
	rpt_errf(err, errlen, "%s is a session of %s; this uprof reports %s sessions only", r->dir,
		 arch, arch_this.name);
	return -EPROTO;
}

/*
 * No session.ini. collect makes the session directory first and writes session.ini once
 * the target and its events are set up (tens of ms later): a collect killed in between
 * leaves a directory of its own name holding nothing, or only files written before
 * session.ini (vdso.so). That is said as such, not as "not a session".
 */
static void explain_no_info(int dfd, const char *dir, char *err, size_t errlen)
{
	const char *base = strrchr(dir, '/');
	bool collects = true;
	struct dirent *e;
	DIR *d = NULL;
	int fd;

	base = base ? base + 1 : dir;
	/* a new fd of the directory held: the listing is of what was opened */
	fd = dfd < 0 || strncmp(base, "uprof-", 6) ? -1 : util_at_dir(dfd, ".");
	if (fd >= 0 && !(d = fdopendir(fd)))
		close(fd);
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, "vdso.so") && strcmp(e->d_name, SES_DATA_FILE) &&
		    strcmp(e->d_name, "." SES_INFO_FILE ".tmp")) /* killed inside its write */
			collects = false;
	if (d)
		closedir(d);
	if (d && collects)
		rpt_errf(err, errlen,
			 "%s holds no profile: collect was interrupted before it wrote "
			 "session.ini (killed right after it started?); nothing to report",
			 dir);
	else
		rpt_errf(err, errlen, "%s is not a uprof session (no session.ini)", dir);
}

int rpt_open(struct rpt **out, const char *dir, const struct rpt_options *opts, char *err,
	     size_t errlen)
{
	/* the user's path, followed as named, once; anything but a directory may be a perf
	 * pipe file (O_DIRECTORY fails on a FIFO before it could block) */
	int dfd = util_dir_open(dir);
	int ret;

	*out = NULL;
	if (dfd < 0 && dfd != -ENOTDIR) {
		if (dfd == -ENOENT)
			explain_no_info(-1, dir, err, errlen);
		else
			rpt_errf(err, errlen, "%s: %s", dir, strerror(-dfd));
		return dfd;
	}
	ret = rpt_open_at(out, dfd < 0 ? -1 : dfd, dir, opts, err, errlen);
	if (dfd >= 0)
		close(dfd);
	return ret;
}

int rpt_dir_fd(const struct rpt *r)
{
	return r->dfd;
}

int rpt_open_at(struct rpt **out, int dfd, const char *dir, const struct rpt_options *opts,
		char *err, size_t errlen)
{
	bool foreign = dfd < 0;
	struct rpt *r;
	char why[256];
	int ret;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->opts = *opts;
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	/* our own fd of the directory, held until rpt_free (the caller's is borrowed) */
	r->dfd = foreign ? -1 : fcntl(dfd, F_DUPFD_CLOEXEC, 3);
	r->vdso_fd = -1;
	if (!foreign && r->dfd < 0) {
		ret = -errno;
		rpt_errf(err, errlen, "%s: %s", dir, strerror(-ret));
		goto fail;
	}
	if (foreign)
		ret = rpt_foreign_open(r, dir, err, errlen);
	else
		ret = ses_info_read_at(r->dfd, &r->info, why, sizeof(why));
	if (ret && foreign) {
		goto fail;
	} else if (ret) {
		if (ret == -ENOENT)
			explain_no_info(r->dfd, dir, err, errlen);
		else if (ret == -SES_ENOTREG)
			rpt_errf(err, errlen, RPT_NOT_REGULAR, dir, "/", SES_INFO_FILE, why);
		else if (ret == -ELOOP || ret == -EXDEV) /* another user's link: not followed */
			rpt_errf(err, errlen, "%s/" SES_INFO_FILE " %s", dir, why);
		else
			rpt_errf(err, errlen, "%s/session.ini: %s", dir, why);
		goto fail;
	}
	/* collect rewrites session.ini with its final counts at the end; one left running
	 * holds the counts of the start */
	r->counts_final = r->info.status != SES_STATUS_RUNNING || r->info.foreign;
	settle_status(&r->info);
	ret = check_arch(r, err, errlen);
	if (!ret)
		ret = rpt_sort_event_apply(r, err, errlen);
	if (!ret)
		ret = rpt_view_apply(r, err, errlen);
	if (!ret && !r->info.foreign)
		rpt_events_weigh(r);
	if (!ret)
		ret = rpt_events_init(r, err, errlen);
	if (ret)
		goto fail;
	/* a foreign file has none of a session's other files (pauses, tasks, vdso.so) */
	ret = r->info.foreign ? 0 : rpt_pauses_load(r, err, errlen);
	if (ret)
		goto fail;
	r->has_tasks = !r->info.foreign && rpt_tasks_present(r);
	ret = rpt_world_init(&r->world);
	if (ret)
		goto fail;
	r->symtab = rpt_symtab_new(NULL, opts->kallsyms);
	if (r->symtab && opts->symshare &&
	    rpt_symtab_share(r->symtab, opts->symshare, r->info.host)) {
		ret = -ENOMEM;
		goto fail;
	}
	if (r->symtab && !r->info.foreign && copy_vdso(r)) {
		ret = -ENOMEM;
		goto fail;
	}
	r->stacks = rpt_stacks_new(r);
	r->locator = rpt_locator_new(
		&(struct rpt_locate_opts){ opts->bin_paths, opts->nbin_paths, opts->symbol_paths,
					   opts->nsymbol_paths, opts->buildid_dir });
	if (!r->symtab || !r->stacks || !r->locator) {
		ret = -ENOMEM;
		goto fail;
	}
	rpt_symtab_set_locator(r->symtab, r->locator);
	ret = r->info.foreign ? 0 : rpt_tr_open(r); /* translated.bin: a session's */
	if (!ret)
		ret = rpt_omp_samples_begin(r);
	if (!ret)
		ret = rpt_os_load(r);
	if (!ret)
		ret = rpt_read_samples(r, err, errlen);
	rpt_os_finish(r);
	if (ret)
		goto fail;
	settle_killed_end(r);
	if (opts->translate_only)
		goto done;
	rpt_rates_settle(r);
	ret = rpt_intervals_finish(r);
	if (!ret)
		ret = rpt_aggregate(r);
	if (ret)
		goto fail;
	ret = rpt_tasks_load(r);
	if (!ret && !r->info.foreign)
		ret = rpt_omp_load(r);
	if (!ret)
		/* inline chains only show in call stack and task sections; exports ask later */
		ret = rpt_callgraph_build(r, r->stacks->collected || r->has_tasks);
	if (!ret)
		ret = rpt_fpstack_early(r);
	if (!ret && (opts->annotate || opts->annotate_export))
		ret = rpt_annot_build(r);
	if (ret)
		goto fail;
done:
	*out = r;
	return 0;
fail:
	if (ret == -ENOMEM)
		rpt_errf(err, errlen, "out of memory");
	rpt_free(r);
	return ret;
}

void rpt_free(struct rpt *r)
{
	if (!r)
		return;
	rpt_events_release(r);
	rpt_view_release(r);
	rpt_world_release(&r->world);
	rpt_symtab_free(r->symtab);
	rpt_stacks_free(r->stacks);
	rpt_locator_free(r->locator); /* after its users, the symtab and the unwinder */
	free(r->funcs);
	rpt_intervals_release(r);
	rpt_inlines_free(r->inline_funcs);
	util_hash_release(&r->addr_counts);
	util_hash_release(&r->func_index);
	util_hash_release(&r->proc_func);
	util_hash_release(&r->proc_module);
	util_hash_release(&r->thread_func);
	util_hash_release(&r->thread_module);
	util_hash_release(&r->module_func);
	rpt_programs_release(r);
	rpt_tasks_release(r);
	rpt_omp_free(r->omp);
	rpt_omp_samples_free(r);
	rpt_omp_trace_free(r->omp_trace);
	rpt_os_free(r);
	util_hash_release(&r->extra_addr);
	util_hash_release(&r->extra);
	free(r->pauses);
	rpt_walk_release(r);
	rpt_annot_free(r);
	rpt_tr_close(r);
	free(r->unknown);
	if (r->vdso_fd >= 0) /* after the symtab and the unwinder, which read it */
		close(r->vdso_fd);
	if (r->dfd >= 0)
		close(r->dfd);
	free(r);
}

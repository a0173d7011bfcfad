// SPDX-License-Identifier: MIT
/*
 * uprof collect --trace openmp (uProf's --omp), --openmp-impl and --openmp-scope, and what
 * they need in the launched program's environment: the OMPT tool in
 * libAMDProfileController (lib/instrument/ompt.c) is put first in OMP_TOOL_LIBRARIES (the
 * user's own tools stay behind it: the tool chains to them) and told to answer with UPROF_OMPT=<scope>. --openmp-impl omplib is
 * the path for GCC programs: libgomp has no OMPT, but LLVM's libomp implements the
 * GOMP_* ABI, so a libgomp.so.1 that is libomp, first on LD_LIBRARY_PATH, gives the
 * program a runtime that has. A program that offloads (libomptarget) needs the
 * unversioned libomp.so on the search path: libomptarget dlopens it, and without it
 * OMPT is silently off for target regions.
 */
#include "cli/collect.h"
#include "util/util.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const CMD = "collect";

int collect_omp_trace_parse(struct collect_state *st)
{
	st->omp.on = true;
	return -1;
}

int collect_omp_parse_option(struct collect_state *st, bool impl, const char *arg)
{
	if (impl && (!strcmp(arg, "ompt") || !strcmp(arg, "omplib"))) {
		st->omp.omplib = !strcmp(arg, "omplib");
		st->omp.impl_given = true;
		return -1;
	}
	if (!impl && (!strcmp(arg, "basic") || !strcmp(arg, "full"))) {
		st->omp.full = !strcmp(arg, "full");
		st->omp.scope_given = true;
		return -1;
	}
	if (impl)
		return cli_error(EXIT_USAGE, CMD, "--openmp-impl '%s': one of ompt, omplib", arg);
	return cli_error(EXIT_USAGE, CMD, "--openmp-scope '%s': one of basic, full", arg);
}

int collect_omp_check(const struct collect_state *st)
{
	if ((st->omp.impl_given || st->omp.scope_given) && !st->omp.on)
		return cli_usage_error(CMD,
				       "--openmp-impl and --openmp-scope go with --trace openmp "
				       "(or --omp)");
	if (st->omp.on && st->attach)
		return cli_usage_error(CMD, "--trace openmp traces a program uprof launches: an "
					    "OpenMP runtime picks its tool when it starts, so a "
					    "running process cannot be traced (leave out -p/-a)");
	return -1;
}

/* Prepend @dir to the path list @var. */
static void prepend(const char *var, const char *dir)
{
	const char *old = getenv(var);
	size_t n = strlen(dir) + (old ? strlen(old) + 1 : 0) + 1;
	char *v = malloc(n);

	if (!v)
		return;
	snprintf(v, n, "%s%s%s", dir, old && *old ? ":" : "", old ? old : "");
	setenv(var, v, 1);
	free(v);
}

/* LLVM's libomp (the newest of the installed LLVMs, or $UPROF_LIBOMP): 0 or -ENOENT. */
static int find_libomp(char *out, size_t len)
{
	const char *env = getenv("UPROF_LIBOMP");
	glob_t g;
	int ret = -ENOENT;

	if (env && *env && !access(env, R_OK)) {
		snprintf(out, len, "%s", env);
		return 0;
	}
	if (!glob("/usr/lib/llvm-*/lib/libomp.so.5", 0, NULL, &g)) {
		/* glob sorts by name: llvm-19 after llvm-14 (two digits from 10 on) */
		snprintf(out, len, "%s", g.gl_pathv[g.gl_pathc - 1]);
		ret = 0;
		globfree(&g);
	} else if (!access("/usr/lib/x86_64-linux-gnu/libomp.so.5", R_OK)) {
		snprintf(out, len, "/usr/lib/x86_64-linux-gnu/libomp.so.5");
		ret = 0;
	}
	return ret;
}

/* Does the file @path name @needle among its bytes (a DT_NEEDED entry in .dynstr)? A
 * bounded scan of the start of the file: the dynamic string table comes early. */
static bool mentions(const char *path, const char *needle)
{
	static char buf[1 << 20];
	size_t n, k = strlen(needle);
	FILE *f = fopen(path, "rb");
	bool found = false;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	for (size_t i = 0; i + k <= n && !found; i++)
		found = buf[i] == needle[0] && !memcmp(buf + i, needle, k);
	return found;
}

/* The directory of @file's target, symlinks resolved, into @dir. */
static void dir_of(const char *file, char *dir, size_t len)
{
	char real[PATH_MAX], *slash;

	if (!realpath(file, real))
		snprintf(real, sizeof(real), "%s", file);
	slash = strrchr(real, '/');
	if (slash)
		*slash = 0;
	snprintf(dir, len, "%s", real);
}

/* The directory of the libomptarget @prog loads, as the dynamic loader resolves it with
 * the environment it will have (its RUNPATH first: a runtime unpacked anywhere): ld.so
 * --list maps the libraries and runs none of the program's code. 0 or -ENOENT. */
static int omptarget_dir(const char *prog, char *dir, size_t len)
{
	static const char ldso[] = "/lib64/ld-linux-x86-64.so.2";
	char buf[16384], *p, *end;
	size_t n = 0;
	ssize_t k;
	int fd[2], st, ret = -ENOENT;
	pid_t pid;

	if (access(ldso, X_OK) || pipe(fd))
		return -ENOENT;
	pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_WRONLY);

		dup2(fd[1], 1);
		if (nul >= 0)
			dup2(nul, 2);
		close(fd[0]);
		execl(ldso, ldso, "--list", prog, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (pid > 0 && n < sizeof(buf) - 1 &&
	       (k = read(fd[0], buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)k;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	buf[n] = 0;
	/* "\tlibomptarget.so.19.1 => /dir/libomptarget.so.19.1 (0x...)" */
	if ((p = strstr(buf, "libomptarget.so")) && (p = strstr(p, "=> /")) &&
	    (end = strstr(p, " (")) && (size_t)(end - p - 3) < len) {
		memcpy(dir, p + 3, (size_t)(end - p - 3));
		dir[end - p - 3] = 0;
		if ((p = strrchr(dir, '/')))
			*p = 0;
		ret = 0;
	}
	return ret;
}

int collect_omp_env(struct collect_state *st)
{
	char lib[PATH_MAX], real[PATH_MAX], libomp[PATH_MAX], dir[PATH_MAX + 32];
	int fd, ret;

	if (!st->omp.on)
		return -1;
	if (!cli_beside_exe("../lib/libAMDProfileController.so", lib, sizeof(lib)) ||
	    !realpath(lib, real))
		return cli_error(1, CMD,
				 "--trace openmp: libAMDProfileController.so is not beside "
				 "uprof (../lib/): it holds the OMPT tool");
	setenv("UPROF_OMPT", st->omp.full ? "full" : "basic", 1);
	prepend("OMP_TOOL_LIBRARIES", real);
	snprintf(dir, sizeof(dir), "%s/" SES_OMPT_DIR, st->session_dir);
	fd = util_at_mkdir(st->session_fd, SES_OMPT_DIR, SES_DIR_MODE, true);
	if (fd < 0) /* its presence says: traced */
		return cli_error(1, CMD, "cannot create %s: %s", dir, strerror(-fd));
	close(fd);
	if (st->omp.omplib) {
		if (find_libomp(libomp, sizeof(libomp)))
			return cli_error(1, CMD,
					 "--openmp-impl omplib needs LLVM's OpenMP runtime "
					 "(libomp.so.5, package libomp-dev; or set UPROF_LIBOMP)");
		fd = util_at_mkdir(st->session_fd, SES_OMPT_DIR "/omplib", SES_DIR_MODE, true);
		if (fd < 0 || (symlinkat(libomp, fd, "libgomp.so.1") && errno != EEXIST)) {
			ret = fd < 0 ? -fd : errno;
			if (fd >= 0)
				close(fd);
			return cli_error(
				1, CMD, "cannot set up %s/" SES_OMPT_DIR "/omplib/libgomp.so.1: %s",
				st->session_dir, strerror(ret));
		}
		/* the loader of the program finds it by a name: not the session's path, which
		 * another user could swap before the program starts (a library of theirs
		 * loaded as root), but this process's fd of the directory it made */
		st->omp.omplib_fd = fd;
		snprintf(dir, sizeof(dir), "/proc/%d/fd/%d", (int)getpid(), fd);
		prepend("LD_LIBRARY_PATH", dir);
		snprintf(st->omp.runtime, sizeof(st->omp.runtime), "%s", libomp);
		/* the times measured are another runtime's: said before they are read as
		 * the program's own (LAMMPS: 1.2-1.6 s on libomp, 1.9-3.8 s on libgomp) */
		cli_warn(CMD,
			 "--openmp-impl omplib: the program runs on LLVM's libomp (%s) in place "
			 "of GCC's libgomp, so its OpenMP timings are libomp's",
			 libomp);
	} else if (mentions(st->prog_path, "libomptarget.so")) {
		/* libomptarget dlopens "libomp.so": the directory of the libomptarget the
		 * program loads has the libomp that goes with it ($UPROF_LIBOMP wins) */
		char lib_omp[PATH_MAX + 48];

		if (!getenv("UPROF_LIBOMP") && !omptarget_dir(st->prog_path, dir, sizeof(dir)) &&
		    snprintf(lib_omp, sizeof(lib_omp), "%s/libomp.so", dir) > 0 &&
		    !access(lib_omp, R_OK)) {
			prepend("LD_LIBRARY_PATH", dir);
		} else if (!find_libomp(libomp, sizeof(libomp))) {
			dir_of(libomp, dir, sizeof(dir));
			prepend("LD_LIBRARY_PATH", dir);
		}
	}
	return -1;
}

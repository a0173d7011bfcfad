// SPDX-License-Identifier: MIT
/* Messages, clocks and system facts shared by the subcommands. */
#include "cli/cli.h"
#include "report/report.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static bool error_said;

char *cli_beside_exe(const char *rel, char *out, size_t len)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int w;

	if (n <= 0)
		return NULL;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	w = snprintf(out, len, "%s/%s", exe, rel);
	return w >= 0 && (size_t)w < len ? out : NULL;
}

const char *cli_config_dir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("UPROF_CONFIG_DIR");

	if (env && *env)
		return env;
	if (dir[0])
		return dir;
	if (!cli_beside_exe("../share/uprof/configs", dir, sizeof(dir))) {
		dir[0] = 0;
		return "/usr/local/share/uprof/configs";
	}
	return dir;
}

bool cli_error_said(void)
{
	return error_said;
}

int cli_error(int code, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	error_said = true;
	fprintf(stderr, "uprof %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "uprof %s: warning: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *what)
{
	return cli_error(EXIT_USAGE, cmd, "%s; see 'uprof %s --help'", what, cmd);
}

int64_t cli_now_ns(int clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* First line of /proc/cpuinfo's "model name", or the machine name. */
static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			colon += 1 + (colon[1] == ' ');
			colon[strcspn(colon, "\n")] = 0;
			snprintf(buf, len, "%s", colon);
			break;
		}
	}
	fclose(f);
}

/* PRETTY_NAME from /etc/os-release. */
static void os_name(char *buf, size_t len)
{
	FILE *f = fopen("/etc/os-release", "re");
	char line[512];

	snprintf(buf, len, "Linux");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "PRETTY_NAME=", 12)) {
			char *v = line + 12;

			v[strcspn(v, "\n")] = 0;
			if (*v == '"')
				v++;
			if (*v && v[strlen(v) - 1] == '"')
				v[strlen(v) - 1] = 0;
			snprintf(buf, len, "%s", v);
			break;
		}
	}
	fclose(f);
}

void cli_system_facts(char *host, size_t hl, char *cpu, size_t cl, char *kernel, size_t kl,
		      char *os, size_t ol)
{
	struct utsname u;

	if (uname(&u)) {
		snprintf(host, hl, "unknown");
		snprintf(kernel, kl, "unknown");
	} else {
		snprintf(host, hl, "%s", u.nodename);
		snprintf(kernel, kl, "%s", u.release);
	}
	cpu_model(cpu, cl);
	os_name(os, ol);
}

int cli_resolve_program(const char *name, char *out, size_t len, char *err, size_t errlen)
{
	const char *path = getenv("PATH");
	struct stat sb;

	if (!*name) {
		snprintf(err, errlen, "the program name is empty");
		return -ENOENT;
	}
	if (strchr(name, '/')) {
		if (stat(name, &sb) || S_ISDIR(sb.st_mode) || access(name, X_OK)) {
			int e = S_ISDIR(sb.st_mode) ? EISDIR : errno;

			snprintf(err, errlen, "cannot run '%s': %s", name, strerror(e));
			return -e;
		}
		if (!realpath(name, out) || strlen(out) >= len)
			snprintf(out, len, "%s", name);
		return 0;
	}
	for (const char *p = path ? path : "/usr/local/bin:/usr/bin:/bin"; p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char cand[PATH_MAX];

		snprintf(cand, sizeof(cand), "%.*s/%s", (int)n, n ? p : ".", name);
		if (!stat(cand, &sb) && S_ISREG(sb.st_mode) && !access(cand, X_OK)) {
			if (!realpath(cand, out))
				snprintf(out, len, "%s", cand);
			return 0;
		}
		p = colon ? colon + 1 : NULL;
	}
	snprintf(err, errlen, "program '%s' not found in PATH", name);
	return -ENOENT;
}

/* One side of --time-filter: "" is open (-1), else seconds >= 0. */
static int parse_bound(const char *s, size_t len, double *out)
{
	char buf[64], *end;

	if (!len) {
		*out = -1;
		return 0;
	}
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	*out = strtod(buf, &end);
	return errno || *end || end == buf || !(*out >= 0 && *out < 1e9) ? -EINVAL : 0;
}

int cli_parse_time_filter(struct rpt_options *o, const char *arg, const char *cmd)
{
	const char *colon = strchr(arg, ':');

	if (!colon || (colon == arg && !colon[1]) ||
	    parse_bound(arg, (size_t)(colon - arg), &o->time_from_s) ||
	    parse_bound(colon + 1, strlen(colon + 1), &o->time_to_s))
		return cli_error(EXIT_USAGE, cmd,
				 "--time-filter '%s': use T1:T2, seconds after the profile "
				 "start (e.g. 1.5:3, or 2: for from 2 s on)",
				 arg);
	if (o->time_from_s >= 0 && o->time_to_s >= 0 && o->time_to_s <= o->time_from_s)
		return cli_error(EXIT_USAGE, cmd,
				 "--time-filter '%s': the end must come after the start", arg);
	o->time_filter = true;
	return -1;
}

int cli_fd_path(int fd, const char *fallback, char *out, size_t len)
{
	char link[64];
	ssize_t n;

	/* the directory that was opened, whatever its name became since: what realpath
	 * would say, without walking the name again */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, out, len - 1);
	if (n <= 0 || (size_t)n >= len - 1 || out[0] != '/') {
		snprintf(out, len, "%s", fallback);
		return -1;
	}
	out[n] = 0;
	return 0;
}

int cli_open_parent(const char *path, char *base, size_t baselen)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	if (snprintf(base, baselen, "%s", slash ? slash + 1 : path) >= (int)baselen || !*base)
		return -EINVAL;
	if (!slash)
		return util_dir_open(".");
	if (slash == path)
		return util_dir_open("/");
	if ((size_t)(slash - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = 0;
	return util_dir_open(dir);
}

int cli_output_dir(const char *dir)
{
	char path[PATH_MAX], base[NAME_MAX + 1];
	size_t n = strlen(dir);
	struct stat sb;
	int fd, pfd;

	/* "out/" names "out": the trailing slashes are no part of its name */
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, n);
	path[n] = 0;
	/* the parent as named; the directory itself beneath it, never through a link (in a
	 * shared /tmp another user may have put one there) and only when it is ours */
	pfd = cli_open_parent(path, base, sizeof(base));
	if (pfd < 0)
		return pfd;
	fd = util_at_dir(pfd, base);
	if (fd == -ENOENT)
		fd = util_at_mkdir(pfd, base, 0755, true);
	close(pfd);
	if (fd >= 0 && (fstat(fd, &sb) || (sb.st_uid != geteuid() && sb.st_uid != 0))) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

FILE *cli_output_fopen_at(int dfd, const char *name)
{
	struct stat sb;
	int fd;

	/* a character device (/dev/null, /dev/full) is written as it is: only root makes
	 * one, and it has no bytes or mode of its own to lose */
	if (!fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) && S_ISCHR(sb.st_mode))
		fd = util_at_open(dfd, name, O_WRONLY | O_NOCTTY | O_CLOEXEC, 0);
	else
		fd = util_at_create(dfd, name, O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
	return util_fdopen(fd, "w");
}

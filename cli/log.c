// SPDX-License-Identifier: MIT
/*
 * uProf's log options, taken by collect, report and translate: --enable-log (uProf's
 * $USER-AMDuProfCLI.log in $AMDUPROF_LOGDIR or $TEMP; ours is $USER-uprof.log in
 * $UPROF_LOGDIR, $AMDUPROF_LOGDIR, $TMPDIR or /tmp), --log-path DIR (the log in DIR) and
 * --enable-logts (each line with its time).
 *
 * The log is a copy of what uprof itself writes to standard error: the process's stderr
 * stream is replaced by one that writes each byte to fd 2 as before and appends it to the
 * log. The profiled program's fd 2 is untouched (the log's fd is close-on-exec), so its
 * own messages stay its own. The progress line goes to the terminal only
 * (cli_log_terminal()).
 *
 * The log usually sits in a directory other users can write (/tmp) and uprof often runs
 * as root: the file is opened beneath the directory's fd, never through a symbolic link,
 * created 0600, and refused unless it is a regular file of this user's with one link (a
 * file another user planted, or a hard link to something else, is never written).
 */
#include "cli/cli.h"
#include "cli/options.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct {
	bool on, stamps;
	const char *dir; /* --log-path */
} want;

static struct {
	FILE *terminal; /* the process's stderr before the log */
	int fd;
	bool line_start;
} log_ = { .fd = -1, .line_start = true };

static int log_option(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	(void)state, (void)cmd;
	want.on = true;
	if (o->data == 'p')
		want.dir = arg;
	else if (o->data == 't')
		want.stamps = true;
	return -1;
}

const struct cli_option cli_log_options[] = {
	OPT_CALLBACK(0, "log-path", "<dir>",
		     "also write uprof's messages to <dir>/$USER-uprof.log\n"
		     "(appended; the program's own stay its own)",
		     log_option, 'p'),
	OPT_CALLBACK_NOARG(0, "enable-log",
			   "the same log in $UPROF_LOGDIR, $AMDUPROF_LOGDIR,\n"
			   "$TMPDIR or /tmp",
			   log_option, 'e'),
	OPT_CALLBACK_NOARG(0, "enable-logts", "the log, each line with its date and time",
			   log_option, 't'),
	OPT_END(),
};

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w, n -= (size_t)w;
	}
	return 0;
}

/* "[2026-12-04 18:55:01.123] " */
static void put_stamp(void)
{
	struct timespec ts;
	struct tm tm;
	char b[48];
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	n = strftime(b, sizeof(b), "[%Y-%m-%d %H:%M:%S", &tm);
	n += (size_t)snprintf(b + n, sizeof(b) - n, ".%03ld] ", ts.tv_nsec / 1000000);
	write_all(log_.fd, b, n);
}

/* the stream's write: the terminal (fd 2) first, as without the log; then the log,
 * stamped at each line's start with --enable-logts. A log that fails is dropped
 * (said once on fd 2); the messages still reach fd 2. */
static ssize_t tee_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	if (write_all(STDERR_FILENO, buf, size))
		return -1;
	for (size_t i = 0; log_.fd >= 0 && i < size;) {
		const char *nl = memchr(buf + i, '\n', size - i);
		size_t n = nl ? (size_t)(nl - (buf + i)) + 1 : size - i;

		if (log_.line_start && want.stamps)
			put_stamp();
		if (write_all(log_.fd, buf + i, n)) {
			static const char msg[] = "uprof: writing the log failed; it stops here\n";

			write_all(STDERR_FILENO, msg, sizeof(msg) - 1);
			close(log_.fd);
			log_.fd = -1;
			break;
		}
		log_.line_start = nl != NULL;
		i += n;
	}
	return (ssize_t)size;
}

static const char *user_name(char *buf, size_t len)
{
	struct passwd *pw = getpwuid(geteuid());

	if (pw && pw->pw_name && *pw->pw_name && !strchr(pw->pw_name, '/'))
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "%u", (unsigned)geteuid());
	return buf;
}

static const char *log_dir(void)
{
	const char *env[] = { "UPROF_LOGDIR", "AMDUPROF_LOGDIR", "TMPDIR" };

	if (want.dir)
		return want.dir;
	for (size_t i = 0; i < sizeof(env) / sizeof(env[0]); i++)
		if (getenv(env[i]) && *getenv(env[i]))
			return getenv(env[i]);
	return "/tmp";
}

/* The log file beneath @dir: fd, or -errno; -EPERM when it is not ours to write. */
static int open_log(const char *dir, const char *name)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int fd, err;
	struct stat st;

	if (dfd < 0)
		return -errno;
	fd = openat(dfd, name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
		    0600);
	err = errno;
	close(dfd);
	if (fd < 0)
		return err == ELOOP ? -EPERM : -err;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_nlink != 1) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

FILE *cli_log_terminal(void)
{
	return log_.terminal ? log_.terminal : stderr;
}

int cli_log_start(const char *cmd, int argc, char **argv)
{
	static cookie_io_functions_t io = { .write = tee_write };
	char user[64], name[96];
	const char *dir;
	FILE *tee;
	int fd;

	if (!want.on || log_.terminal)
		return -1;
	dir = log_dir();
	snprintf(name, sizeof(name), "%s-uprof.log", user_name(user, sizeof(user)));
	fd = open_log(dir, name);
	if (fd == -EPERM)
		return cli_error(EXIT_USAGE, cmd,
				 "the log %s/%s is not a regular file of this user's with one link "
				 "(a link, or another user's file): not written; give another "
				 "--log-path",
				 dir, name);
	if (fd < 0)
		return cli_error(EXIT_USAGE, cmd, "cannot open the log %s/%s: %s (--log-path <dir>)",
				 dir, name, strerror(-fd));
	fflush(stderr);
	tee = fopencookie(NULL, "w", io);
	if (!tee) {
		close(fd);
		return cli_error(1, cmd, "cannot start the log: %s", strerror(errno));
	}
	setvbuf(tee, NULL, _IOLBF, 0);
	log_.fd = fd;
	log_.terminal = stderr;
	stderr = tee;
	/* the run's command line, into the log only: the terminal has seen it typed */
	if (want.stamps)
		put_stamp();
	write_all(fd, "uprof ", 6);
	write_all(fd, cmd, strlen(cmd));
	for (int i = 1; i < argc; i++) {
		write_all(fd, " ", 1);
		write_all(fd, argv[i], strlen(argv[i]));
	}
	write_all(fd, "\n", 1);
	return -1;
}

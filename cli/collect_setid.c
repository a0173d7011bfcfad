// SPDX-License-Identifier: MIT
/*
 * uprof collect: a program the kernel will not let this user profile, said before it runs
 * and recorded in the session ([target] not_profiled), so that report says it too.
 *
 * At an exec that leaves the process not dumpable the kernel closes the perf events it
 * inherited (begin_new_exec: perf_event_exit_task when get_dumpable() != SUID_DUMP_USER).
 * That is an exec whose credentials change (a set-user-ID or set-group-ID file owned by
 * someone else: euid != uid afterwards; file capabilities that raise the permitted set,
 * commit_creds) or of a file the user may not read (would_dump). The program runs, and
 * the profile is empty: without this, "0 samples" and no reason.
 */
#include "cli/collect.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

static const char *const CMD = "collect";

static const char *user_name(uid_t uid, char *buf, size_t len)
{
	const struct passwd *pw = getpwuid(uid);

	snprintf(buf, len, "uid %u%s%s%s", (unsigned)uid, pw ? " (" : "", pw ? pw->pw_name : "",
		 pw ? ")" : "");
	return buf;
}

static const char *group_name(gid_t gid, char *buf, size_t len)
{
	const struct group *gr = getgrgid(gid);

	snprintf(buf, len, "gid %u%s%s%s", (unsigned)gid, gr ? " (" : "", gr ? gr->gr_name : "",
		 gr ? ")" : "");
	return buf;
}

/* Set-ID bits take effect: not on a nosuid mount, not under no_new_privs (both make the
 * kernel run the file with the caller's credentials). */
static bool setid_applies(const char *path)
{
	struct statvfs vfs;

	if (!statvfs(path, &vfs) && (vfs.f_flag & ST_NOSUID))
		return false;
	return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1;
}

/* collect.h */
bool collect_setid_reason(const char *path, char *why, size_t len)
{
	char owner[96], me[96];
	struct stat sb;

	if (stat(path, &sb) || !S_ISREG(sb.st_mode))
		return false;
	if ((sb.st_mode & S_ISUID) && sb.st_uid != getuid() && setid_applies(path)) {
		snprintf(why, len,
			 "%s is set-user-ID %s and you are %s: at its exec the kernel stops the "
			 "events of a process whose credentials change; run uprof as %s",
			 path, user_name(sb.st_uid, owner, sizeof(owner)),
			 user_name(getuid(), me, sizeof(me)),
			 sb.st_uid ? "the program's owner" : "root");
		return true;
	}
	if ((sb.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) && sb.st_gid != getgid() &&
	    setid_applies(path)) {
		snprintf(why, len,
			 "%s is set-group-ID %s, not your group: at its exec the kernel stops "
			 "the events of a process whose credentials change; run uprof with that "
			 "group as your real group (sg) or as root",
			 path, group_name(sb.st_gid, owner, sizeof(owner)));
		return true;
	}
	if (faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) && errno == EACCES) {
		snprintf(why, len,
			 "%s is not readable by %s (execute-only): the kernel makes such a "
			 "process undumpable and stops its events at the exec; make it readable "
			 "or run uprof as root",
			 path, user_name(geteuid(), me, sizeof(me)));
		return true;
	}
	if (geteuid() && getxattr(path, "security.capability", NULL, 0) > 0) {
		snprintf(why, len,
			 "%s has file capabilities and you are not root: at its exec the "
			 "kernel stops the events of a process that gains privileges; run uprof "
			 "as root",
			 path);
		return true;
	}
	return false;
}

/* The real and effective ids of @pid's "Uid:" or "Gid:" line; false when unread. */
static bool proc_ids(pid_t pid, const char *key, unsigned *real, unsigned *eff)
{
	char path[64], line[256];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, key, strlen(key)) &&
			sscanf(line + strlen(key), "%u %u", real, eff) == 2;
	fclose(f);
	return found;
}

/* The target's CPU time in the modes the timer samples: user time alone for a user-only
 * timer (a program that spends its time in system calls gets no user-mode samples), 0
 * where that split was not measured. */
static int64_t sampled_cpu_ns(const struct ses_info *in, const struct ses_event *ev)
{
	if (ev->exclude_kernel)
		return in->target_user_ns;
	return ev->exclude_user ? in->target_sys_ns : in->target_cpu_ns;
}

void collect_setid_at_start(struct collect_state *st)
{
	struct ses_info *in = &st->info;

	if (st->attach ||
	    !collect_setid_reason(st->exec_path, in->not_profiled, sizeof(in->not_profiled)))
		return;
	cli_warn(CMD, "the program will not be profiled: %s", in->not_profiled);
}

/*
 * After the run, where the start saw nothing (a wrapper that execs such a program, a
 * file changed in between): the target, still running, has an effective id other than
 * its real one; or it ran at least two timer intervals of CPU time in the sampled modes,
 * never paused or delayed, and not one sample came.
 */
void collect_setid_at_end(struct collect_state *st)
{
	struct ses_info *in = &st->info;
	const struct ses_event *ev = in->nevents ? &in->events[0] : NULL;
	unsigned ur = 0, ue = 0, gr = 0, ge = 0;

	if (st->attach)
		return;
	if (in->not_profiled[0]) { /* said before the run; again by the counts, where it shows */
		cli_warn(CMD, "the program was not profiled (%llu samples): %s",
			 (unsigned long long)in->samples, in->not_profiled);
		return;
	}
	if (!st->child_exited && ((proc_ids(st->child.pid, "Uid:", &ur, &ue) && ur != ue) ||
				  (proc_ids(st->child.pid, "Gid:", &gr, &ge) && gr != ge)))
		snprintf(in->not_profiled, sizeof(in->not_profiled),
			 "the program runs with other ids than yours (uid %u, effective %u; gid "
			 "%u, effective %u): it exec'd a set-ID program, and at that exec the "
			 "kernel stopped its events; run uprof as root or as the program's owner",
			 ur, ue, gr, ge);
	else if (!in->samples && ev && ses_event_is_timer(ev) && !st->start_paused &&
		 !(st->start_delay_s > 0) && !in->pause_total_ns &&
		 sampled_cpu_ns(in, ev) >= 2 * (int64_t)ev->period)
		snprintf(in->not_profiled, sizeof(in->not_profiled),
			 "the program used %.3f s of CPU time and not one sample came: it (or a "
			 "program it exec'd) is likely set-user-ID, set-group-ID, with file "
			 "capabilities or unreadable to you, and the kernel stopped its events "
			 "at that exec; run uprof as root or as the program's owner",
			 (double)sampled_cpu_ns(in, ev) / 1e9);
	else
		return;
	cli_warn(CMD, "the program was not profiled: %s", in->not_profiled);
}

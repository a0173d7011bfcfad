// SPDX-License-Identifier: MIT
/*
 * lib/mpi: the PMPI interposer's life: MPI_Init (is a uprof collect asking? where does the
 * data go?), MPI_Pcontrol, and the flush of mpi/<pid>.mpi (format: lib/session/mpi.h) at
 * MPI_Finalize, when the rank is signalled (SIGTERM/SIGINT: what a launcher or timeout
 * sends a job it ends) and at an exit without MPI_Finalize: exit() (atexit), and _exit(),
 * which is how Open MPI ends a rank whose launcher is gone (below). The flush is
 * async-signal-safe: the file is assembled in a buffer allocated at MPI_Init, written with
 * write() into a temporary file, and renamed, so the reader sees a whole file or none.
 * While the rank runs, the same file is written as a snapshot at most once a second
 * (umpi_snapshot), so that a rank killed with no chance to flush (SIGKILL) keeps its data
 * up to its last snapshot.
 */
#include "mpi/events.h" /* --trace mpi=full */
#include "mpi/internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef UPROF_MPI_FAMILY
#error "build with -DUPROF_MPI_FAMILY=SES_MPI_OPENMPI or SES_MPI_MPICH (lib/mpi/module.mk)"
#endif

struct umpi_state umpi;
__thread int umpi_in_fortran __attribute__((tls_model("initial-exec")));

static const struct {
	const char *name;
	uint32_t kind;
} funcs[UMPI_NFUNCS] = {
#define X(n, k) [UMPI_##n] = { "MPI_" #n, SES_MPI_K_##k },
	UPROF_MPI_FUNCS(X) UPROF_MPI_FUNCS_MORE(X)
#undef X
};

/* The output directory, opened once at MPI_Init (docs/DESIGN.md §4): the file is made and
 * renamed beneath it, never by a path another user could swap in between. */
static int out_dfd = -1;
static char name[32], tmp_name[40];
static char *buf; /* the file, assembled at the flush */
static size_t buf_cap;
static int flushed; /* 0, 1 being written, 2 written: flush() */
static pid_t owner; /* the rank's pid: a forked child's exit is not the rank's */
static int64_t init_ns, start_ns;
static uint64_t init_tsc; /* with init_ns: the TSC's rate over the rank's life */
static int thread_level;
static struct sigaction old_act[2];
/* Snapshots' period: what a SIGKILLed rank can lose at most (of its calls' counts), for a
 * write of a few KiB a second */
#define SNAPSHOT_EVERY_NS 1000000000LL
static const int sigs[2] = { SIGTERM, SIGINT };
static void (*pause_fn)(void), (*resume_fn)(void); /* AMDProfileController's, if linked */

uint64_t umpi_type_bytes(int count, MPI_Datatype dt)
{
	int size = 0;

	if (count <= 0 || PMPI_Type_size(dt, &size) != MPI_SUCCESS || size < 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
}

/* Another communicator's rank @r (>= 0) in the world (a slow path by design). */
int umpi_comm_world_rank(MPI_Comm comm, int r)
{
	MPI_Group g, world;
	int out = -1;

	if (r < 0)
		return -1;
	if (comm == MPI_COMM_WORLD)
		return r < umpi.size ? r : -1;
	if (PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
		return -1;
	if (PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
		if (PMPI_Group_translate_ranks(g, 1, &r, world, &out) != MPI_SUCCESS ||
		    out == MPI_UNDEFINED)
			out = -1;
		PMPI_Group_free(&world);
	}
	PMPI_Group_free(&g);
	return out >= 0 && out < umpi.size ? out : -1;
}

void umpi_rma_peer(int world, uint64_t put, uint64_t got)
{
	if (world < 0 || !umpi.peers)
		return;
	umpi_add(&umpi.peers[world].rma_ops, 1);
	if (put)
		umpi_add(&umpi.peers[world].rma_put, put);
	if (got)
		umpi_add(&umpi.peers[world].rma_get, got);
}

/* ---- the flush ---- */

/* A record in the buffer (the side-file container's encoder): the new offset, or @off
 * unchanged when it does not fit. */
static size_t put(size_t off, uint32_t code, const void *p, uint32_t len, const void *tail,
		  uint32_t tail_len)
{
	return off + ses_ct_put_record(buf + off, buf_cap - off, code, p, len, tail, tail_len);
}

static uint64_t rd(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* Ticks to ns, at the rate the TSC kept from MPI_Init to now (@now_ns). */
static uint64_t to_ns(uint64_t ticks, int64_t now_ns, uint64_t now_tsc)
{
	if (!umpi.tsc || now_tsc <= init_tsc || now_ns <= init_ns)
		return umpi.tsc ? 0 : ticks;
	return (uint64_t)((double)ticks * (double)(now_ns - init_ns) /
			  (double)(now_tsc - init_tsc));
}

uint64_t umpi_ticks_ns(uint64_t ticks, int64_t now_ns, uint64_t now_tsc)
{
	return to_ns(ticks, now_ns, now_tsc);
}

/* Only what is async-signal-safe: memcpy, clock_gettime, openat, write, renameat. */
static void write_file(uint32_t how, int sig)
{
	uint64_t now_tsc;
	static char version[MPI_MAX_LIBRARY_VERSION_STRING];
	struct ses_mpi_file_header h;
	struct ses_mpi_rec_env env = { (uint32_t)thread_level, MPI_VERSION, MPI_SUBVERSION, 0 };
	struct ses_mpi_rec_end end = { 0 };
	size_t off = sizeof(h);
	int fd;

	memset(&h, 0, sizeof(h));
	/* magic, major, minor and header_size: ses_ct_put_header() below */
	h.rank = umpi.rank;
	h.size = umpi.size;
	h.family = UPROF_MPI_FAMILY;
	h.end_how = how;
	h.signal = sig;
	h.pid = (int32_t)getpid();
	h.init_mono_ns = start_ns;
	h.end_mono_ns = umpi_now();
	now_tsc = umpi.tsc ? uprof_ctl_tsc() : 0;
	memcpy(version, buf + buf_cap - sizeof(version), sizeof(version)); /* kept at init */
	off = put(off, SES_MPI_REC_ENV, &env, sizeof(env), version,
		  (uint32_t)strnlen(version, 255));
	end.nrecords = 1;
	for (int i = 0; i < UMPI_NFUNCS; i++) {
		struct ses_mpi_rec_func f = { .kind = funcs[i].kind };

		f.calls = rd(&umpi.f[i].calls);
		if (!f.calls)
			continue;
		f.time_ns = to_ns(rd(&umpi.f[i].ticks), h.end_mono_ns, now_tsc) +
			    rd(&umpi.f[i].direct_ns);
		f.bytes_sent = rd(&umpi.f[i].sent);
		f.bytes_recv = rd(&umpi.f[i].recv);
		memcpy(f.name, funcs[i].name, strnlen(funcs[i].name, sizeof(f.name)));
		off = put(off, SES_MPI_REC_FUNC, &f, sizeof(f), NULL, 0);
		end.nrecords++;
		{
			struct ses_mpi_rec_hist hi;
			uint64_t any = 0;

			memcpy(hi.name, f.name, sizeof(hi.name));
			for (int b = 0; b < SES_MPI_HIST_BUCKETS; b++)
				any |= hi.count[b] = rd(&umpi.hist[i][b]);
			if (any) {
				off = put(off, SES_MPI_REC_HIST, &hi, sizeof(hi), NULL, 0);
				end.nrecords++;
			}
		}
		end.calls += f.calls;
		end.mpi_time_ns += f.time_ns;
		if (f.kind == SES_MPI_K_WAIT || i == UMPI_Barrier)
			end.wait_ns += f.time_ns;
	}
	/* a signal or an exit inside a call: where it hung (a snapshot is taken between calls) */
	if (how != SES_MPI_END_FINALIZE && how != SES_MPI_END_SNAPSHOT) {
		int cur = __atomic_load_n(&umpi.cur, __ATOMIC_RELAXED);

		__atomic_signal_fence(__ATOMIC_ACQUIRE);
		if (cur > 0 && cur <= UMPI_NFUNCS) {
			struct ses_mpi_rec_inflight in = { .kind = funcs[cur - 1].kind };
			int64_t t = umpi_ticks() - umpi.cur_t0;

			in.elapsed_ns = to_ns((uint64_t)(t > 0 ? t : 0), h.end_mono_ns, now_tsc);
			memcpy(in.name, funcs[cur - 1].name,
			       strnlen(funcs[cur - 1].name, sizeof(in.name)));
			off = put(off, SES_MPI_REC_INFLIGHT, &in, sizeof(in), NULL, 0);
			end.nrecords++;
		}
	}
	for (int r = 0; r < umpi.size && umpi.peers; r++) {
		const struct umpi_peer *p = &umpi.peers[r];
		struct ses_mpi_rec_peer o = { .peer = r };

		o.send_calls = rd(&p->send_calls);
		o.recv_calls = rd(&p->recv_calls);
		if (!o.send_calls && !o.recv_calls)
			continue;
		o.send_bytes = rd(&p->send_bytes);
		o.send_time_ns = to_ns(rd(&p->send_ticks), h.end_mono_ns, now_tsc);
		o.recv_bytes = rd(&p->recv_bytes);
		off = put(off, SES_MPI_REC_PEER, &o, sizeof(o), NULL, 0);
		end.nrecords++;
	}
	for (int r = 0; r < umpi.size && umpi.peers; r++) {
		const struct umpi_peer *p = &umpi.peers[r];
		struct ses_mpi_rec_rma o = { .peer = r, .ops = rd(&p->rma_ops) };

		if (!o.ops)
			continue;
		o.put_bytes = rd(&p->rma_put);
		o.get_bytes = rd(&p->rma_get);
		off = put(off, SES_MPI_REC_RMA, &o, sizeof(o), NULL, 0);
		end.nrecords++;
	}
	off = umpi_sites_put(buf, buf_cap, off, h.end_mono_ns, now_tsc, &end.nrecords);
	off = put(off, SES_MPI_REC_END, &end, sizeof(end), NULL, 0);
	ses_ct_put_header(buf, buf_cap, SES_MPI_MAGIC, SES_MPI_MAJOR, SES_MPI_MINOR,
			  (const char *)&h + SES_CT_PREFIX, sizeof(h) - SES_CT_PREFIX);
	fd = openat(out_dfd, tmp_name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return;
	for (size_t done = 0; done < off;) {
		ssize_t w = write(fd, buf + done, off - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			unlinkat(out_dfd, tmp_name, 0);
			return;
		}
		done += (size_t)w;
	}
	close(fd);
	renameat(out_dfd, tmp_name, out_dfd, name);
}

/* flushed: 0 not yet, 1 being written (by one thread: the first to come), 2 written, 3 a
 * snapshot being written (umpi_snapshot: the final flush waits for it, bounded, as the
 * buffer and the temporary file are shared). Only the rank itself writes: a child it
 * forked (MPI runtimes and programs fork helpers) shares the path and the counters as
 * they were at the fork. Outside a signal handler, SIGTERM and SIGINT wait while this
 * thread writes: their handler would wait on the flush it interrupted. */
static void flush(uint32_t how, int sig)
{
	struct timespec ms = { 0, 1000000 };
	sigset_t set, old;
	int state = 0;

	if (!buf || getpid() != owner)
		return;
	for (int n = 0; !__atomic_compare_exchange_n(&flushed, &state, 1, false, __ATOMIC_ACQ_REL,
						     __ATOMIC_ACQUIRE);
	     n++, state = 0) {
		if (state != 3 || n >= 2000)
			return;
		nanosleep(&ms, NULL);
	}
	if (how != SES_MPI_END_SIGNAL) {
		sigemptyset(&set);
		sigaddset(&set, SIGTERM);
		sigaddset(&set, SIGINT);
		pthread_sigmask(SIG_BLOCK, &set, &old);
	}
	write_file(how, sig);
	umpi_ev_flush(out_dfd, how);
	__atomic_store_n(&flushed, 2, __ATOMIC_RELEASE);
	if (how != SES_MPI_END_SIGNAL)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The tick from which umpi_snapshot looks at the time again, @wait_ns from @now_ticks: by
 * the TSC's rate since MPI_Init (umpi_now() read here, off the hot path), 7/8 of the way
 * while the wait is long, so that an early rate's error makes a look early, not a
 * snapshot late; a millisecond's ticks at least. Ticks are ns without the TSC. */
static void snapshot_recheck(int64_t now_ticks, int64_t wait_ns)
{
	int64_t ns = umpi_now(), ahead;
	double per_ns = 1.0;

	if (wait_ns < 1000000)
		wait_ns = 1000000;
	else
		wait_ns -= wait_ns / 8;
	if (umpi.tsc) {
		/* a rate from less than 100 us of a life is a guess: look again in 2^18 ticks
		 * (under 0.3 ms at any TSC rate above 1 GHz) */
		if (ns - init_ns < 100000 || now_ticks <= (int64_t)init_tsc) {
			__atomic_store_n(&umpi.snap_check, now_ticks + (1 << 18), __ATOMIC_RELAXED);
			return;
		}
		per_ns = (double)(now_ticks - (int64_t)init_tsc) / (double)(ns - init_ns);
	}
	ahead = (int64_t)((double)wait_ns * per_ns);
	__atomic_store_n(&umpi.snap_check, now_ticks + (ahead > 0 ? ahead : 1), __ATOMIC_RELAXED);
}

/* umpi_leave_at (internal.h) reached snap_check at @now_ticks: when the snapshot is due
 * (CLOCK_MONOTONIC_COARSE, a second after the last), the whole file, as the flush writes
 * it, marked a snapshot, unless a flush or another thread's snapshot is under way. The
 * next is due a second later whatever happens to this one: a rank never pays for more. */
void umpi_snapshot(int64_t now_ticks)
{
	struct timespec now;
	sigset_t set, old;
	int64_t ns, due = __atomic_load_n(&umpi.snap_due, __ATOMIC_RELAXED);
	int state = 0;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	if (ns < due) { /* not yet: the rate's guess was early */
		snapshot_recheck(now_ticks, due - ns);
		return;
	}
	__atomic_store_n(&umpi.snap_due, ns + SNAPSHOT_EVERY_NS, __ATOMIC_RELAXED);
	snapshot_recheck(now_ticks, SNAPSHOT_EVERY_NS);
	if (!buf || !umpi.on || getpid() != owner)
		return;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	if (__atomic_compare_exchange_n(&flushed, &state, 3, false, __ATOMIC_ACQ_REL,
					__ATOMIC_RELAXED)) {
		write_file(SES_MPI_END_SNAPSHOT, 0);
		__atomic_store_n(&flushed, 0, __ATOMIC_RELEASE);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Another thread's flush in progress: dying now would leave the file half written, so
 * wait for it (bounded: a write that hangs must not keep the rank alive). */
static void flush_wait(void)
{
	struct timespec ms = { 0, 1000000 };

	for (int n = 0; n < 2000 && __atomic_load_n(&flushed, __ATOMIC_ACQUIRE) == 1; n++)
		nanosleep(&ms, NULL);
}

static void on_signal(int sig)
{
	int saved = errno;
	int i = sig == SIGINT;

	flush(SES_MPI_END_SIGNAL, sig);
	/* a second signal (the launcher's own SIGTERM beside the one collect passes on) is
	 * taken by another thread while the first writes, or comes during an exit's flush */
	flush_wait();
	/* then what the signal would have done without us: the old handler, or death */
	sigaction(sig, &old_act[i], NULL);
	errno = saved;
	raise(sig);
}

/*
 * _exit and _Exit, interposed (the library is preloaded): a rank that ends through them
 * runs no atexit handler and gets no signal. Open MPI's does when its launcher is gone:
 * mpirun, SIGTERMed twice within 5 s (as GNU timeout does: to mpirun, then to its
 * process group), exits at once without signalling its ranks, and each rank's PMIx
 * client, its server lost, aborts the rank from its progress thread with _exit(-61)
 * (ess_pmi's abort). What the rank recorded is flushed first; then the process ends as
 * glibc's _exit ends it (exit_group, no dependence on the loader in a dying process).
 */
static __attribute__((noreturn)) void exit_now(int status)
{
	flush(SES_MPI_END_EXIT, 0);
	flush_wait();
	for (;;)
		syscall(SYS_exit_group, status);
}

void _exit(int status)
{
	exit_now(status);
}

void _Exit(int status)
{
	exit_now(status);
}

static void at_exit(void)
{
	flush(SES_MPI_END_EXIT, 0);
}

/* A TSC that ticks at one rate on every CPU, also in idle states (the kernel's
 * constant_tsc and nonstop_tsc): its deltas are durations whatever the clocksource. */
static int steady_tsc(void)
{
	char buf[8192];
	ssize_t n;
	int fd;

	if (!uprof_ctl_tsc())
		return 0;
	fd = open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	return strstr(buf, " constant_tsc") && strstr(buf, " nonstop_tsc");
}

/* After MPI_Init/MPI_Init_thread returned: is a collect asking, and where to? */
void umpi_start(int provided, int64_t t0)
{
	const char *dir = getenv(SES_MPI_ENV_DIR);
	struct sigaction sa;
	struct stat sb;
	int len;

	if (!dir || !*dir || umpi.on || out_dfd >= 0)
		return;
	/* collect names its own fd of the directory (/proc/<collect>/fd/<n>, a link the
	 * kernel resolves to the directory it holds, whatever was renamed since): followed
	 * there only; any other name's last component is never a symlink */
	out_dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
				    (strncmp(dir, "/proc/", 6) ? O_NOFOLLOW : 0));
	if (out_dfd < 0)
		return;
	/* a directory of ours (collect made it 0700), not one another user put there */
	if (fstat(out_dfd, &sb) || sb.st_uid != geteuid()) {
		close(out_dfd);
		out_dfd = -1;
		return;
	}
	snprintf(name, sizeof(name), "%d.mpi", (int)getpid());
	snprintf(tmp_name, sizeof(tmp_name), "%s.tmp", name);
	PMPI_Comm_rank(MPI_COMM_WORLD, &umpi.rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &umpi.size);
	if (umpi.size < 1 || umpi.size > SES_MPI_MAX_WORLD)
		return;
	umpi.peers = calloc((size_t)umpi.size, sizeof(*umpi.peers));
	buf_cap = sizeof(struct ses_mpi_file_header) +
		  (sizeof(struct ses_mpi_rec_header) + sizeof(struct ses_mpi_rec_env) + 256) +
		  UMPI_NFUNCS *
			  (16 + sizeof(struct ses_mpi_rec_func) + sizeof(struct ses_mpi_rec_hist)) +
		  (size_t)umpi.size * (8 + sizeof(struct ses_mpi_rec_peer)) + 8 +
		  sizeof(struct ses_mpi_rec_inflight) + 8 + sizeof(struct ses_mpi_rec_end) +
		  MPI_MAX_LIBRARY_VERSION_STRING + umpi_sites_bytes();
	buf = calloc(1, buf_cap);
	if (!umpi.peers || !buf) {
		free(umpi.peers);
		free(buf);
		umpi.peers = NULL, buf = NULL;
		return;
	}
	/* the library's version, kept at the end of the buffer for the flush */
	PMPI_Get_library_version(buf + buf_cap - MPI_MAX_LIBRARY_VERSION_STRING, &len);
	thread_level = provided;
	umpi.mt = provided == MPI_THREAD_MULTIPLE;
	umpi.tsc = steady_tsc();
	/* with init_tsc: the TSC's rate, for the flush and for snapshot_recheck, whose early
	 * guesses a preempted pair would make too fast (a snapshot late): read tightly */
	init_tsc = 0;
	init_ns = umpi_now();
	if (umpi.tsc)
		uprof_ctl_clock_pair(umpi_now, &init_tsc, &init_ns);
	start_ns = t0; /* the rank's MPI life starts with its MPI_Init */
	owner = getpid();
	{
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
		umpi.snap_due = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec + SNAPSHOT_EVERY_NS;
		/* the TSC's rate is not known yet: umpi_snapshot's first look learns it */
		umpi.snap_check = umpi.tsc ? (int64_t)init_tsc + (1 << 18)
					   : init_ns + SNAPSHOT_EVERY_NS;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 2; i++) {
		struct sigaction cur;

		/* a signal the program ignores stays ignored */
		if (sigaction(sigs[i], NULL, &cur) || cur.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, &old_act[i]);
	}
	atexit(at_exit);
	umpi_ev_start(out_dfd); /* after the clock's and thread level's choice */
	*(void **)&pause_fn = dlsym(RTLD_DEFAULT, "amdProfilePause");
	*(void **)&resume_fn = dlsym(RTLD_DEFAULT, "amdProfileResume");
	umpi_sites_start(); /* sites.h: callers too, with collect -g */
	umpi.on = 1;
}

int64_t umpi_init_ticks(int64_t t0, uint64_t tsc0)
{
	return umpi.tsc ? (int64_t)tsc0 : t0;
}

int MPI_Init(int *argc, char ***argv)
{
	int64_t t0 = umpi_now();
	uint64_t tsc0 = uprof_ctl_tsc();
	int ret = PMPI_Init(argc, argv);

	if (ret == MPI_SUCCESS)
		umpi_start(MPI_THREAD_SINGLE, t0);
	if (umpi.on && !umpi_in_fortran) { /* MPICH's Fortran MPI_INIT comes through here */
		umpi_add(&umpi.f[UMPI_Init].calls, 1),
			umpi_add(&umpi.f[UMPI_Init].direct_ns, (uint64_t)(umpi_now() - t0));
		umpi_ev_lifecycle(UMPI_Init, umpi_init_ticks(t0, tsc0));
	}
	return ret;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int64_t t0 = umpi_now();
	uint64_t tsc0 = uprof_ctl_tsc();
	int ret = PMPI_Init_thread(argc, argv, required, provided);

	if (ret == MPI_SUCCESS)
		umpi_start(*provided, t0);
	if (umpi.on && !umpi_in_fortran) {
		umpi_add(&umpi.f[UMPI_Init_thread].calls, 1),
			umpi_add(&umpi.f[UMPI_Init_thread].direct_ns, (uint64_t)(umpi_now() - t0));
		umpi_ev_lifecycle(UMPI_Init_thread, umpi_init_ticks(t0, tsc0));
	}
	return ret;
}

void umpi_finalize(void)
{
	if (umpi.on)
		flush(SES_MPI_END_FINALIZE, 0);
}

void umpi_lifecycle(enum umpi_func f, int64_t t0)
{
	if (umpi.on)
		umpi_add(&umpi.f[f].calls, 1),
			umpi_add(&umpi.f[f].direct_ns, (uint64_t)(umpi_now() - t0));
}

/* Flushed after the library's MPI_Finalize returned, so that its time is in the file (a
 * rank that hangs in it is flushed by the signal that ends it, named in MPI_Finalize).
 * Under a Fortran binding (MPICH's MPI_FINALIZE comes through here), that binding counts
 * and flushes. */
int MPI_Finalize(void)
{
	int64_t t0 = umpi_now(), ticks0 = umpi.on ? umpi_ticks() : 0;
	int mine = !umpi_in_fortran, ret;

	if (mine && umpi.on)
		umpi_enter(UMPI_Finalize, ticks0);
	ret = PMPI_Finalize();
	if (!mine)
		return ret;
	umpi_leave();
	umpi_lifecycle(UMPI_Finalize, t0);
	if (umpi.on)
		umpi_ev_lifecycle(UMPI_Finalize, ticks0);
	umpi_finalize();
	return ret;
}

/* mpiP's convention: 0 stops recording, any other level resumes it; sampling follows
 * when the program links AMDProfileController (its pause/resume). */
int MPI_Pcontrol(const int level, ...)
{
	umpi.paused = level == 0;
	if (level == 0 && pause_fn)
		pause_fn();
	else if (level != 0 && resume_fn)
		resume_fn();
	return MPI_SUCCESS;
}

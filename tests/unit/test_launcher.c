// SPDX-License-Identifier: MIT
/* lib/launcher: the rank and job id from a launcher's environment, and the PMI-1 client
 * driven against the other end of a real socketpair speaking the wire protocol: the exact
 * requests, the answer taken, refusals, truncated and overlong replies, a silent proxy
 * (timed out, not hung), and not one byte taken beyond the replies. The MPI family from
 * a fake ldd in PATH. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "launcher/launcher.h"
#include "session/mpi.h"

static const char *const launcher_vars[] = {
	"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_SIZE",
	"PMI_SIZE", "SLURM_NTASKS", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
	"SLURM_LOCALID", "UPROF_MPI_JOB", "PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid",
	"PMI_KVSNAME", "SLURM_JOB_ID", "SLURM_STEP_ID", "PMI_FD", NULL
};

static int clear_env(void **state)
{
	(void)state;
	for (int i = 0; launcher_vars[i]; i++)
		unsetenv(launcher_vars[i]);
	return 0;
}

/* ---- rank ---- */

static void no_launcher_is_enoent(void **state)
{
	struct launcher_rank r;

	(void)state;
	assert_int_equal(launcher_rank_detect(&r), -ENOENT);
	assert_null(r.from);
}

static void openmpi_rank_size_and_local(void **state)
{
	struct launcher_rank r;

	(void)state;
	setenv("OMPI_COMM_WORLD_RANK", "3", 1);
	setenv("PMIX_RANK", "7", 1); /* OMPI_COMM_WORLD_RANK comes first */
	setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
	setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
	assert_int_equal(launcher_rank_detect(&r), 0);
	assert_int_equal(r.rank, 3);
	assert_int_equal(r.size, 4);
	assert_int_equal(r.local_rank, 1);
	assert_string_equal(r.from, "OMPI_COMM_WORLD_RANK");
}

static void slurm_rank_without_size(void **state)
{
	struct launcher_rank r;

	(void)state;
	setenv("PMI_RANK", "x1", 1);	     /* not a number: skipped */
	setenv("SLURM_PROCID", "65535", 1); /* the largest rank taken */
	assert_int_equal(launcher_rank_detect(&r), 0);
	assert_int_equal(r.rank, 65535);
	assert_int_equal(r.size, -1);
	assert_int_equal(r.local_rank, -1);
	assert_string_equal(r.from, "SLURM_PROCID");
	setenv("SLURM_PROCID", "65536", 1); /* out of range: as if unset */
	assert_int_equal(launcher_rank_detect(&r), -ENOENT);
}

static void rank_not_below_size_is_erange(void **state)
{
	struct launcher_rank r;

	(void)state;
	setenv("PMI_RANK", "4", 1);
	setenv("PMI_SIZE", "4", 1);
	assert_int_equal(launcher_rank_detect(&r), -ERANGE);
	assert_int_equal(r.rank, 4);
	assert_int_equal(r.size, 4);
	assert_string_equal(r.from, "PMI_RANK");
	setenv("PMI_SIZE", "0", 1);
	assert_int_equal(launcher_rank_detect(&r), -ERANGE);
}

/* ---- job id from the environment ---- */

static void job_id_order_and_alphabet(void **state)
{
	char id[65];

	(void)state;
	setenv("SLURM_JOB_ID", "77", 1);
	assert_int_equal(launcher_job_id(id, sizeof(id)), 0);
	assert_string_equal(id, "slurm.77.0");
	setenv("SLURM_STEP_ID", "2", 1);
	assert_int_equal(launcher_job_id(id, sizeof(id)), 0);
	assert_string_equal(id, "slurm.77.2");
	setenv("PMI_KVSNAME", "kvs_1", 1);
	assert_int_equal(launcher_job_id(id, sizeof(id)), 0);
	assert_string_equal(id, "kvs_1");
	setenv("PMIX_NAMESPACE", "prterun-host-123@1", 1);
	assert_int_equal(launcher_job_id(id, sizeof(id)), 0);
	assert_string_equal(id, "prterun-host-123_1");
	setenv("UPROF_MPI_JOB", "mine/../x y", 1);
	assert_int_equal(launcher_job_id(id, sizeof(id)), 0);
	assert_string_equal(id, "mine_.._x_y");
}

static void job_id_is_cut_to_fit(void **state)
{
	char id[65], want[65];

	(void)state;
	memset(want, 'a', 64);
	want[64] = 0;
	setenv("UPROF_MPI_JOB", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1);
	assert_int_equal(launcher_job_id(id, sizeof(id)), 0);
	assert_string_equal(id, want);
	launcher_job_id_clean(id, 4, "a@bcd");
	assert_string_equal(id, "a_b");
}

static void no_job_id_and_no_pmi_fd_is_enoent(void **state)
{
	char id[65] = "untouched";

	(void)state;
	assert_int_equal(launcher_job_id(id, sizeof(id)), -ENOENT);
	assert_string_equal(id, "untouched");
	setenv("PMI_FD", "12x", 1);
	assert_int_equal(launcher_pmi_fd(), -EBADF);
	assert_int_equal(launcher_job_id(id, sizeof(id)), -EBADF);
	setenv("PMI_FD", "1000", 1); /* a number, but no open descriptor */
	assert_int_equal(launcher_pmi_fd(), -EBADF);
	setenv("PMI_FD", "", 1);
	assert_int_equal(launcher_pmi_fd(), -EBADF);
}

/* ---- the PMI-1 client on a socketpair ---- */

/* sv[0]: the client's end (PMI_FD); sv[1]: the proxy's. */
static void pair(int sv[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
}

static void say(int fd, const char *s)
{
	assert_int_equal(write(fd, s, strlen(s)), (ssize_t)strlen(s));
}

/* What the client wrote to the proxy, as a string. */
static void heard(int fd, char *buf, size_t size)
{
	ssize_t n = recv(fd, buf, size - 1, MSG_DONTWAIT);

	buf[n > 0 ? n : 0] = 0;
}

static const char INIT_REQ[] = "cmd=init pmi_version=1 pmi_subversion=1\n";
static const char KVS_REQ[] = "cmd=get_my_kvsname\n";

static void pmi_asks_init_then_kvsname(void **state)
{
	char name[128], req[256], rest[64];
	int sv[2];

	(void)state;
	pair(sv);
	/* the proxy's two answers, then what the program's own MPI_Init will read */
	say(sv[1], "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n"
		   "cmd=my_kvsname kvsname=kvs_4242_0_1_host rc=0\ncmd=barrier_out\n");
	assert_int_equal(launcher_pmi_kvsname(sv[0], 1000, name, sizeof(name)), 0);
	assert_string_equal(name, "kvs_4242_0_1_host");
	heard(sv[1], req, sizeof(req));
	assert_string_equal(req, "cmd=init pmi_version=1 pmi_subversion=1\ncmd=get_my_kvsname\n");
	/* not one byte beyond the two replies was taken */
	heard(sv[0], rest, sizeof(rest));
	assert_string_equal(rest, "cmd=barrier_out\n");
	close(sv[0]);
	close(sv[1]);
}

static void pmi_name_ends_at_blank_and_is_cut(void **state)
{
	char name[8];
	int sv[2];

	(void)state;
	pair(sv);
	say(sv[1], "cmd=response_to_init rc=0\ncmd=my_kvsname kvsname=kvs_1\r\n");
	assert_int_equal(launcher_pmi_kvsname(sv[0], 1000, name, sizeof(name)), 0);
	assert_string_equal(name, "kvs_1");
	say(sv[1], "cmd=response_to_init rc=0\ncmd=my_kvsname kvsname=kvs_123456789 rc=0\n");
	assert_int_equal(launcher_pmi_kvsname(sv[0], 1000, name, sizeof(name)), 0);
	assert_string_equal(name, "kvs_123");
	close(sv[0]);
	close(sv[1]);
}

static void pmi_init_refused_is_eproto(void **state)
{
	char name[64] = "", req[256];
	int sv[2];

	(void)state;
	pair(sv);
	say(sv[1], "cmd=response_to_init rc=-1\n");
	assert_int_equal(launcher_pmi_kvsname(sv[0], 1000, name, sizeof(name)), -EPROTO);
	heard(sv[1], req, sizeof(req));
	assert_string_equal(req, INIT_REQ); /* no second question after a refusal */
	say(sv[1], "cmd=something_else rc=0\n");
	assert_int_equal(launcher_pmi_kvsname(sv[0], 1000, name, sizeof(name)), -EPROTO);
	close(sv[0]);
	close(sv[1]);
}

static void pmi_garbage_answers_are_eproto(void **state)
{
	static const char *const bad[] = {
		"cmd=my_kvsname rc=0\n",	 /* no kvsname= */
		"cmd=my_kvsname kvsname=\n",	 /* an empty one */
		"\x01\x02garbage\xff\n",	 /* not the protocol at all */
	};
	char name[64] = "";
	int sv[2];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char req[256];

		pair(sv);
		say(sv[1], "cmd=response_to_init rc=0\n");
		say(sv[1], bad[i]);
		assert_int_equal(launcher_pmi_kvsname(sv[0], 1000, name, sizeof(name)), -EPROTO);
		heard(sv[1], req, sizeof(req));
		assert_int_equal(strncmp(req, INIT_REQ, strlen(INIT_REQ)), 0);
		assert_string_equal(req + strlen(INIT_REQ), KVS_REQ);
		close(sv[0]);
		close(sv[1]);
	}
}

static void pmi_truncated_reply_is_econnreset(void **state)
{
	char name[64] = "";
	int sv[2];

	(void)state;
	pair(sv);
	say(sv[1], "cmd=response_to_init rc=0\ncmd=my_kvsname kvsna"); /* cut, then closed */
	shutdown(sv[1], SHUT_WR);
	assert_int_equal(launcher_pmi_kvsname(sv[0], 1000, name, sizeof(name)), -ECONNRESET);
	close(sv[0]);
	close(sv[1]);
}

static void pmi_overlong_line_is_e2big(void **state)
{
	char name[64] = "", line[700];
	int sv[2];

	(void)state;
	pair(sv);
	memset(line, 'x', sizeof(line) - 2);
	line[sizeof(line) - 2] = '\n';
	line[sizeof(line) - 1] = 0;
	say(sv[1], line);
	assert_int_equal(launcher_pmi_kvsname(sv[0], 1000, name, sizeof(name)), -E2BIG);
	close(sv[0]);
	close(sv[1]);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void pmi_silent_proxy_times_out(void **state)
{
	char name[64] = "";
	double t0, dt;
	int sv[2];

	(void)state;
	pair(sv);
	t0 = now_ms();
	assert_int_equal(launcher_pmi_kvsname(sv[0], 100, name, sizeof(name)), -ETIMEDOUT);
	dt = now_ms() - t0;
	assert_true(dt >= 90 && dt < 2000);
	/* a line begun but never ended times out too */
	say(sv[1], "cmd=response_to_init rc=0\ncmd=my_kvs");
	assert_int_equal(launcher_pmi_kvsname(sv[0], 100, name, sizeof(name)), -ETIMEDOUT);
	close(sv[0]);
	close(sv[1]);
}

static void pmi_closed_proxy_write_fails(void **state)
{
	char name[64] = "";
	int sv[2];

	(void)state;
	pair(sv);
	close(sv[1]);
	/* MSG_NOSIGNAL is not ours to set: SIGPIPE is ignored for this test */
	assert_int_equal(launcher_pmi_kvsname(sv[0], 100, name, sizeof(name)), -EIO);
	close(sv[0]);
}

static void job_id_asks_pmi_fd(void **state)
{
	char id[65], fdtext[16];
	int sv[2];

	(void)state;
	pair(sv);
	snprintf(fdtext, sizeof(fdtext), "%d", sv[0]);
	setenv("PMI_FD", fdtext, 1);
	assert_int_equal(launcher_pmi_fd(), sv[0]);
	say(sv[1], "cmd=response_to_init rc=0\ncmd=my_kvsname kvsname=kvs_9@host rc=0\n");
	assert_int_equal(launcher_job_id(id, sizeof(id)), 0);
	assert_string_equal(id, "kvs_9_host");
	close(sv[0]);
	close(sv[1]);
}

/* ---- the MPI family, from a fake ldd ---- */

static void family_from_ldd_lines(void **state)
{
	char dir[] = "/tmp/uprof-test-ldd-XXXXXX", path[PATH_MAX], oldpath[4096], lib[64];
	const char *old = getenv("PATH");
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ldd", dir);
	snprintf(oldpath, sizeof(oldpath), "%s", old ? old : "/usr/bin:/bin");
	f = fopen(path, "w");
	assert_non_null(f);
	/* the program's name says what this ldd lists */
	fprintf(f, "#!/bin/sh\ncase \"$1\" in\n"
		   "*mpich*) printf '\\tlinux-vdso.so.1 (0x1)\\n\\tlibmpich.so.12 => /x (0x2)\\n';;\n"
		   "*ompi*) printf '\\tlibfoo.so => /y\\n\\tlibmpi.so.40 => /z (0x3)\\n';;\n"
		   "*near*) printf '\\tlibmpi.so.400 => /z\\n\\tlibmpi.so.4 => /z\\n';;\n"
		   "*) echo 'not a dynamic executable';;\nesac\n");
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	setenv("PATH", dir, 1);
	lib[0] = 0;
	assert_int_equal(launcher_mpi_family("/a/app-mpich", lib, sizeof(lib)), SES_MPI_MPICH);
	assert_string_equal(lib, "libmpich.so.12");
	assert_int_equal(launcher_mpi_family("/a/app-ompi", lib, sizeof(lib)), SES_MPI_OPENMPI);
	assert_string_equal(lib, "libmpi.so.40");
	lib[0] = 0;
	assert_int_equal(launcher_mpi_family("/a/app-near", lib, sizeof(lib)), 0);
	assert_int_equal(launcher_mpi_family("/a/static", lib, sizeof(lib)), 0);
	assert_string_equal(lib, "");
	setenv("PATH", "/nonexistent", 1); /* no ldd at all */
	assert_int_equal(launcher_mpi_family("/a/app-mpich", lib, sizeof(lib)), 0);
	setenv("PATH", oldpath, 1);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(no_launcher_is_enoent, clear_env),
		cmocka_unit_test_setup(openmpi_rank_size_and_local, clear_env),
		cmocka_unit_test_setup(slurm_rank_without_size, clear_env),
		cmocka_unit_test_setup(rank_not_below_size_is_erange, clear_env),
		cmocka_unit_test_setup(job_id_order_and_alphabet, clear_env),
		cmocka_unit_test_setup(job_id_is_cut_to_fit, clear_env),
		cmocka_unit_test_setup(no_job_id_and_no_pmi_fd_is_enoent, clear_env),
		cmocka_unit_test(pmi_asks_init_then_kvsname),
		cmocka_unit_test(pmi_name_ends_at_blank_and_is_cut),
		cmocka_unit_test(pmi_init_refused_is_eproto),
		cmocka_unit_test(pmi_garbage_answers_are_eproto),
		cmocka_unit_test(pmi_truncated_reply_is_econnreset),
		cmocka_unit_test(pmi_overlong_line_is_e2big),
		cmocka_unit_test(pmi_silent_proxy_times_out),
		cmocka_unit_test(pmi_closed_proxy_write_fails),
		cmocka_unit_test_setup(job_id_asks_pmi_fd, clear_env),
		cmocka_unit_test(family_from_ldd_lines),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

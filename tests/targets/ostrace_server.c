// SPDX-License-Identifier: MIT
/*
 * A small server for --trace os -p (tests/e2e/ostrace_attach.sh): serve_requests() reads
 * a request from a socket and writes a reply; a client thread (send_requests) sends one
 * every millisecond and reads the reply. Both count their calls; on SIGTERM the counts go
 * to the file named by argv[1] ("key value" lines) and it exits. It prints its pid and
 * "ready" on stdout once serving.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int sv[2];
static atomic_long served, sent;
static atomic_int server_tid, client_tid;

__attribute__((noinline)) static void serve_requests(void)
{
	char c;

	while (read(sv[0], &c, 1) == 1) {
		if (write(sv[0], &c, 1) != 1)
			break;
		atomic_fetch_add(&served, 1);
	}
}

static void *server(void *arg)
{
	(void)arg;
	atomic_store(&server_tid, (int)syscall(SYS_gettid));
	serve_requests();
	return NULL;
}

__attribute__((noinline)) static void send_requests(void)
{
	struct timespec ms = { 0, 1000000 };
	char c = 'r';

	for (;;) {
		nanosleep(&ms, NULL);
		if (write(sv[1], &c, 1) != 1 || read(sv[1], &c, 1) != 1)
			break;
		atomic_fetch_add(&sent, 1);
	}
}

static void *client(void *arg)
{
	(void)arg;
	atomic_store(&client_tid, (int)syscall(SYS_gettid));
	send_requests();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t s, c;
	sigset_t set;
	int sig;
	FILE *f;

	if (argc < 2 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 2;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (pthread_create(&s, NULL, server, NULL) || pthread_create(&c, NULL, client, NULL))
		return 3;
	printf("%d ready\n", (int)getpid());
	fflush(stdout);
	sigwait(&set, &sig);
	f = fopen(argv[1], "w");
	if (!f)
		return 4;
	fprintf(f, "served %ld\nsent %ld\nserver_tid %d\nclient_tid %d\n", atomic_load(&served),
		atomic_load(&sent), atomic_load(&server_tid), atomic_load(&client_tid));
	fclose(f);
	return 0;
}

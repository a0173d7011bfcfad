// SPDX-License-Identifier: MIT
/*
 * The SIGBUS guard around every access to a control page (ctlpage.c).
 *
 * A target may ftruncate() its own /dev/shm/uprof.<pid> while we have it mapped; the
 * next load or store of ours past the new end raises SIGBUS, which by default kills
 * collect (issue 12, item 1). Why a guard rather than reading through a copy (pread):
 * the page is a live protocol, not a file we read once. The profiler stores into it
 * (ring slots freed by seq, the consumer's tail, ack_seq, attached, sampling_active) and
 * waits on its futex words, all through the mapping and with acquire/release ordering
 * that pairs with the target's atomics (ctlpage.h). A pread/pwrite copy would have to
 * re-create that ordering by hand for every field and would still leave the futex on the
 * mapping; the guard keeps the code as it is and makes a fault a return value.
 *
 * How: each thread has a stack of guards (thread-local, so worker threads of different
 * pages never see each other's); a guard names the mapping it covers. The handler jumps
 * back to the innermost guard of the faulting thread whose range holds the faulting
 * address. Any other SIGBUS (not ours: another mapping, a kill) goes to whatever handled
 * SIGBUS before us, or to the default action, exactly as if we were not there. The
 * handler is (re)installed at each page open, with SA_NODEFER, so the jump (sigsetjmp(.., 0): no syscall
 * per guard) leaves the signal mask as it was.
 */
#include "sampler/internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

/* initial-exec: the handler reads it with a plain %fs load, never a __tls_get_addr call
 * (which may allocate) */
static __thread __attribute__((tls_model("initial-exec"))) struct smp_guard *guard_top;
static struct sigaction previous;

static void pass_on(int sig, siginfo_t *si, void *uc)
{
	if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
		previous.sa_sigaction(sig, si, uc);
		return;
	}
	if (previous.sa_handler == SIG_IGN)
		return;
	if (previous.sa_handler != SIG_DFL) {
		previous.sa_handler(sig);
		return;
	}
	/* the default action: a fault re-executes and dies as it would have; a sent
	 * signal is sent again */
	signal(sig, SIG_DFL);
	if (si->si_code <= 0)
		raise(sig);
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;

	if (si->si_code > 0) /* raised by the kernel for an access, not sent */
		for (struct smp_guard *g = guard_top; g; g = g->prev)
			if (a >= (uintptr_t)g->base && a - (uintptr_t)g->base < g->len) {
				guard_top = g->prev;
				siglongjmp(g->jump, 1);
			}
	pass_on(sig, si, uc);
}

/* Ours, unless someone replaced it since (a test harness does, per test): then theirs
 * becomes the one we pass other signals to. */
int smp_guard_install(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct sigaction sa, cur;
	int ret = 0;

	pthread_mutex_lock(&lock);
	if (sigaction(SIGBUS, NULL, &cur)) {
		ret = -errno;
	} else if (!(cur.sa_flags & SA_SIGINFO) || cur.sa_sigaction != on_sigbus) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESTART | SA_ONSTACK;
		sigemptyset(&sa.sa_mask);
		previous = cur;
		if (sigaction(SIGBUS, &sa, NULL))
			ret = -errno;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

void smp_guard_push(struct smp_guard *g, const void *base, size_t len)
{
	g->base = base;
	g->len = len;
	g->prev = guard_top;
	__atomic_signal_fence(__ATOMIC_SEQ_CST); /* the guard is whole before it is seen */
	guard_top = g;
}

void smp_guard_pop(struct smp_guard *g)
{
	guard_top = g->prev;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

// SPDX-License-Identifier: MIT
/*
 * Names the exports must carry through intact or escaped, all on hot paths:
 *   main -> "weird;name with spaces" -> spin   (an assembler label: ';' and spaces)
 *   main -> "quote'<&>" -> spin
 *   threads named  q"t'<&>\nnl  (quotes, markup, a newline), "ünï€ode" (UTF-8), and
 *   bytes shaped like UTF-8 that are not (a surrogate, above U+10FFFF, overlong, U+FFFF)
 * Each spins about 0.2 s.
 */
#include <pthread.h>
#include <sys/prctl.h>
#include <time.h>

static volatile double sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void spin(double s)
{
	double end = now() + s, x = sink;

	while (now() < end)
		for (int i = 0; i < 1000; i++)
			x += i;
	sink = x;
}

/* GNU as takes any bytes in a quoted symbol name */
__attribute__((noinline)) void weird(void) __asm__("\"weird;name with spaces\"");
__attribute__((noinline)) void weird(void)
{
	spin(0.2);
	sink = sink + 1; /* not a tail call: the frame stays */
}

__attribute__((noinline)) void quote(void) __asm__("\"quote'<&>\"");
__attribute__((noinline)) void quote(void)
{
	spin(0.2);
	sink = sink + 1;
}

static void *named(void *name)
{
	prctl(PR_SET_NAME, name, 0, 0, 0); /* any bytes, unlike pthread_setname_np's checks */
	spin(0.2);
	return NULL;
}

int main(void)
{
	static const char *const names[] = {
		"q\"t'<&>\nnl",
		"\xc3\xbcn\xc3\xaf\xe2\x82\xac" "ode",
		"\xed\xa0\x80" "a\xf5\x80\x80\x80\xe0\x80\x80\xef\xbf\xbf",
	};
	pthread_t t[3];

	weird();
	quote();
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, named, (void *)names[i]);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * dlreload LIB [ROUNDS]: dlopen LIB, run its plugin_work, dlclose it, ROUNDS times
 * (default 3). After each dlclose a page is mapped where the library was, so the next
 * dlopen puts it at another address; each load's base goes to stdout ("load N BASE").
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

__attribute__((noinline)) static void call_plugin(void (*work)(void))
{
	work();
	__asm__ volatile("" ::: "memory"); /* not a tail call: this frame stays */
}

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 3;

	if (argc < 2)
		return 2;
	for (int r = 0; r < rounds; r++) {
		void *h = dlopen(argv[1], RTLD_NOW);
		void (*work)(void);
		Dl_info di;

		if (!h || !(work = (void (*)(void))dlsym(h, "plugin_work")) ||
		    !dladdr((void *)work, &di)) {
			fprintf(stderr, "dlreload: %s\n", dlerror());
			return 1;
		}
		printf("load %d %p\n", r, di.dli_fbase);
		fflush(stdout);
		call_plugin(work);
		dlclose(h);
		mmap(di.dli_fbase, 4096, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	}
	return 0;
}

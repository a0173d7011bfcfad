// SPDX-License-Identifier: MIT
/*
 * children N [TASKS]: forks N children at once (none waits for another); child i records
 * TASKS + i % 3 instances of DomK/Kid, then one of DomK/Kid<i % 7>, and exits at once
 * (through exit(), so its library's exit handler runs). The parent records nothing and
 * reaps them all. tests/e2e/many_children.sh checks that every child's tasks are in the
 * session, with their exact counts: the known answer is computed here, never measured.
 */
#include <AMDProfileController.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100, tasks = argc > 2 ? atol(argv[2]) : 3;
	long failed = 0;

	if (n <= 0 || tasks < 0) {
		fprintf(stderr, "usage: children N [TASKS]\n");
		return 2;
	}
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			failed++;
			continue;
		}
		if (!pid) {
			amdDomainHandle dom = amdDomainCreate("DomK");
			amdStringHandle kid = amdStringHandleCreate("Kid");
			char name[16];

			for (long t = 0; t < tasks + i % 3; t++) {
				amdTaskBegin(dom, 0, 0, kid);
				amdTaskEnd(dom);
			}
			snprintf(name, sizeof(name), "Kid%ld", i % 7);
			amdTaskBegin(dom, 0, 0, amdStringHandleCreate(name));
			amdTaskEnd(dom);
			exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	return failed ? 1 : 0;
}

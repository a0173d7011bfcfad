// SPDX-License-Identifier: MIT
/* A program started by multi.c with fork+exec, posix_spawn and vfork+exec. */
static volatile double sink;

__attribute__((noinline)) void exec_child_work(void)
{
	double x = sink;

	for (long i = 0; i < 100000000L; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
}

int main(void)
{
	exec_child_work();
	return 0;
}

// SPDX-License-Identifier: MIT
/* libannot_lib.so (with DWARF) and libannot_strip.so (stripped) of tests/targets/annotate.c:
 * one hot loop each, in a shared library. */
#ifndef ANNOT_NAME
#define ANNOT_NAME lib_hot
#endif

double ANNOT_NAME(long n)
{
	double s = 1.0;

	for (long i = 0; i < n; i++) s = s / (1.0 + (double)(i & 5) * 1e-9) + 1e-7; /* ANNOT_LIB */
	return s;
}

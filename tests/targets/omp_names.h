// SPDX-License-Identifier: MIT
/*
 * Inline helpers for tests/targets/omp_names.c and omp_names.cpp, the way a real code
 * keeps small functions in a header. What the test needs of them: each is declared on a
 * line of this header that is later than the line of the function using it in the .c
 * (or .cpp) file and not later than that function's OpenMP constructs, so a namer that
 * takes "the function declared last before the construct's line" and ignores which file
 * the declaration is in names the construct after the helper (tests/e2e/openmp_names.sh
 * checks that the lines are so before it checks the names).
 *
 * Every helper is pure arithmetic on its arguments: the programs' answers are exact.
 */
#ifndef OMP_NAMES_H
#define OMP_NAMES_H

/* The integer square of @x, as a double: the unit of work of the loops. */
static inline double names_square(int x)
{
	return (double)x * (double)x;
}

/* @a + @b, saturated at @top (the critical sections' update). */
static inline double names_add_capped(double a, double b, double top)
{
	return a + b > top ? top : a + b;
}

/* The triangular number of @n: what the tasks compute. */
static inline long names_triangle(int n)
{
	long t = 0;

	for (int i = 1; i <= n; i++)
		t += i;
	return t;
}

/* An odd number from @i: what main's critical section adds. */
static inline long names_odd(int i)
{
	return 2L * i + 1;
}

/* @v clamped to [@lo, @hi]. */
static inline int names_clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The larger of @a and @b. */
static inline long names_max(long a, long b)
{
	return a > b ? a : b;
}

/* The sum of the squares 0..@n-1, in closed form: the loops' known answer. */
static inline double names_sum_squares(int n)
{
	return (double)(n - 1) * n * (2.0 * n - 1) / 6.0;
}

/* The sum of the first @n odd numbers (n^2): main's known answer. */
static inline long names_sum_odds(int n)
{
	return (long)n * n;
}

#endif

// SPDX-License-Identifier: MIT
/*
 * Roofline kernels (arch.h) for an architecture without a file of its own: portable C on
 * 128-bit GCC vectors, which the compiler maps onto the machine's SIMD registers (NEON
 * on aarch64) or splits into scalar operations. The same shapes as roofline_x86_64.c:
 * ARCH_RL_ACC independent FMA chains (acc * m + a, fused or not as the compiler sees
 * fit), a read with 8 accumulators, the STREAM triad.
 */
#include "arch/arch.h"

#include <stddef.h>
#include <stdint.h>

typedef double vdp __attribute__((vector_size(16)));
typedef float vsp __attribute__((vector_size(16)));

/* The values stay bounded: m < 1, a > 0 (acc tends to a / (1 - m)). */
#define M_D 0.999999
#define A_D 1e-7
#define M_F 0.9999f
#define A_F 1e-4f

/* ARCH_RL_ACC (12) accumulators as named variables, so that they live in registers. */
#define FMA_LOOP(T, E, M, A) \
	const T m_ = (T){ 0 } + (E)(M), a_ = (T){ 0 } + (E)(A); \
	T x0 = (T){ 0 } + 1, x1 = (T){ 0 } + 2, x2 = (T){ 0 } + 3, x3 = (T){ 0 } + 4; \
	T x4 = (T){ 0 } + 5, x5 = (T){ 0 } + 6, x6 = (T){ 0 } + 7, x7 = (T){ 0 } + 8; \
	T x8 = (T){ 0 } + 9, x9 = (T){ 0 } + 10, x10 = (T){ 0 } + 11, x11 = (T){ 0 } + 12; \
	for (uint64_t i = 0; i < iters; i++) { \
		x0 = x0 * m_ + a_; \
		x1 = x1 * m_ + a_; \
		x2 = x2 * m_ + a_; \
		x3 = x3 * m_ + a_; \
		x4 = x4 * m_ + a_; \
		x5 = x5 * m_ + a_; \
		x6 = x6 * m_ + a_; \
		x7 = x7 * m_ + a_; \
		x8 = x8 * m_ + a_; \
		x9 = x9 * m_ + a_; \
		x10 = x10 * m_ + a_; \
		x11 = x11 * m_ + a_; \
	} \
	T s_ = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7)) + ((x8 + x9) + (x10 + x11))

static double fma_dp(uint64_t iters)
{
	FMA_LOOP(vdp, double, M_D, A_D);
	return s_[0] + s_[1];
}

static double fma_sp(uint64_t iters)
{
	FMA_LOOP(vsp, float, M_F, A_F);
	return (double)s_[0] + s_[1] + s_[2] + s_[3];
}

static double fma_generic(bool sp, uint64_t iters)
{
	return sp ? fma_sp(iters) : fma_dp(iters);
}

/* 8 accumulators, 8 vectors of 2 doubles loaded per step (__builtin_memcpy: a load of
 * any alignment, which the compiler makes one vector load). */
static double read_generic(const double *p, size_t n)
{
	vdp r[8] = { { 0 } }, v, s = { 0 };

	for (size_t i = 0; i + 16 <= n; i += 16)
		for (int k = 0; k < 8; k++) {
			__builtin_memcpy(&v, p + i + 2 * k, sizeof(v));
			r[k] += v;
		}
	s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
	return s[0] + s[1];
}

static void triad_generic(double *restrict a, const double *restrict b, const double *restrict c,
			  double s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + s * c[i];
}

static const struct arch_rl_kernels generic = { .isa = "generic",
						.fma_how = " (portable C vectors)",
						.bits = 128,
						.fma = fma_generic,
						.read = read_generic,
						.triad = triad_generic };

const struct arch_rl_kernels *arch_rl_kernels(int i)
{
	return i == 0 ? &generic : NULL;
}

/* Each add depends on the one before; the empty asm keeps the compiler from folding
 * them into one. */
uint64_t arch_rl_clock_chain(uint64_t iters)
{
	uint64_t x = 0;

	for (uint64_t i = 0; i < iters; i++)
		for (int k = 0; k < 16; k++) {
			x += 1;
			__asm__ volatile("" : "+r"(x));
		}
	return x;
}

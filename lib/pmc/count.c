// SPDX-License-Identifier: MIT
/* Counter arithmetic: deltas between readings (with wrap) and multiplex scaling. */
#include "pmc/internal.h"

#include <math.h>

void pmc_count_delta(const struct pmc_count *prev, const struct pmc_count *cur, unsigned width,
		     struct pmc_count *out)
{
	uint64_t mask = width == 0 || width >= 64 ? ~0ULL : (1ULL << width) - 1;

	/* unsigned subtraction is modular: a counter that wrapped once still gives the
	 * right difference, as long as it wrapped at most once */
	out->value = (cur->value - prev->value) & mask;
	out->enabled = cur->enabled - prev->enabled;
	out->running = cur->running - prev->running;
}

double pmc_count_scale(const struct pmc_count *c)
{
	if (!c->running)
		return c->enabled || c->value ? NAN : 0.0;
	if (c->running >= c->enabled)
		return (double)c->value;
	return (double)c->value * ((double)c->enabled / (double)c->running);
}

double pmc_count_over(const struct pmc_count *c, int64_t interval_ns)
{
	double v = pmc_count_scale(c);

	/* a CPU's context time always advances, so its counter's enabled time is exactly the
	 * time between its two reads; a read delayed by preemption (the reading loop of
	 * several counters, under load) gives a count over a longer interval than the row's
	 * stamps say, and 16 ms of it made 104 % CPU utilization out of a busy CPU */
	if (interval_ns <= 0 || !c->enabled || isnan(v))
		return v;
	return v * ((double)interval_ns / (double)c->enabled);
}

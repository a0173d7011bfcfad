// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for lib/pmc's event-spec parser (pmc_event_parse: key=value terms,
 * names, pmu/terms/ with sysfs formats and aliases, libpfm4 names) and the CPU-list and
 * format-field parsers. The PMUs come from the fake machine in tests/fixtures/sysfs when
 * run from the repository (else none: uncore specs then fail early).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "pmc/internal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pmc_pmus *pmus;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	if (!getenv("UPROF_SYSFS_ROOT"))
		setenv("UPROF_SYSFS_ROOT", "tests/fixtures/sysfs", 1);
	pmc_pmus_load(&pmus);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct perf_event_attr attr;
	struct pmc_event ev;
	struct pmc_format f;
	struct pmc_cpus cpus;
	char err[256];

	if (!pmc_event_parse(s, size, pmus, &ev, err, sizeof(err))) {
		pmc_event_sample_attr(&ev, false, &attr);
		pmc_event_count_attr(&ev, true, &attr);
		pmc_event_label(&ev, err, sizeof(err));
		pmc_attr_format(&attr, err, sizeof(err));
		pmc_event_require(&ev, pmus, err, sizeof(err));
	}
	if (!pmc_cpus_parse(s, size, &cpus))
		pmc_cpus_format(&cpus, err, sizeof(err));
	if (!pmc_format_parse(s, size, &f))
		pmc_format_apply(&f, size, &attr);
	return 0;
}

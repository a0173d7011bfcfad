// SPDX-License-Identifier: MIT
/* uprof pcm --msr (AMDuProfPcm's MSR backend, root only) and -X (AMDuProfPcm 4.0's
 * pre-release perf_event mode). uprof counts through perf_event alone: -X asks for what it
 * does anyway; --msr is refused with what the machine offers and what to do instead. */
#include "cli/pcm.h"

#include <unistd.h>

static const char *const CMD = "pcm";

int pcm_msr_refuse(void)
{
	/* the msr driver's device of CPU 0 (the real /dev: a device, not sysfs) */
	if (access("/dev/cpu/0/msr", F_OK))
		return cli_error(EXIT_USAGE, CMD,
				 "--msr: this machine has no /dev/cpu/0/msr (the msr driver is "
				 "not loaded, or a VM hides it); uprof counts through perf_event, "
				 "which needs none: drop --msr");
	return cli_error(EXIT_USAGE, CMD,
			 "--msr: /dev/cpu/0/msr exists, but uprof programs the PMCs only "
			 "through perf_event (MSR writes would race the kernel's own use of "
			 "them): drop --msr, the same counters are counted");
}

// SPDX-License-Identifier: MIT
/*
 * uprof collect --help: the text, kept beside nothing else so that it reads as the user
 * sees it (man uprof-collect(1) says the same at length).
 */
#include "cli/collect.h"

#include <stdio.h>

void collect_help(void)
{
	printf("usage: uprof collect [<options>] <program> [<args>]\n"
	       "       uprof collect [<options>] -p <pid>[,<pid>...] [-d <s>]\n"
	       "       uprof collect [<options>] -a [-d <s>]\n\n"
	       "Run <program> (or attach to running processes) and sample where it spends\n"
	       "CPU time. Everything after the program name is passed to it. Writes a session\n"
	       "directory for 'uprof report'.\n\n"
	       "  -e, --event <spec>     sample this event instead of the config's (repeatable):\n"
	       "                         event=NAME|pmcxNNN|timer[,interval=N][,umask=..][,user=..]\n"
	       "                         [,os=..], a uProf name (RETIRED_INST), a perf software\n"
	       "                         event (page-faults); 'uprof info --list predefined-events'\n"
	       "  -p, --pid <pids>       attach to these running processes (comma list): all\n"
	       "                         their threads, and what they start later; they run on\n"
	       "                         untouched when collection ends (-d or Ctrl-C)\n"
	       "  --tid <tids>           attach to these threads only (comma list)\n"
	       "  -a, --system-wide      every process on every CPU, for -d seconds or until\n"
	       "                         Ctrl-C (needs root or kernel.perf_event_paranoid <= 0)\n"
	       "  -c, --cpu <cpus>       sample on these CPUs only (e.g. 0-3,8)\n"
	       "  --config <name>        collect configuration: tbp (default) or hotspots;\n"
	       "                         'uprof info --list collect-configs' lists them\n"
	       "  --interval <n>         sample every <n> events, for every PMC event (overrides\n"
	       "                         each event's interval=; the timer keeps its own)\n"
	       "  --timer-interval <ms>  timer period in milliseconds, fractions allowed\n"
	       "                         (default 1; from 0.01 to 3600000)\n"
	       "  -o, --output-dir <dir> where the session directory is created (default: .);\n"
	       "                         created if missing\n"
	       "  -d, --duration <s>     stop collecting after <s> seconds (fractions allowed)\n"
	       "  -w, --working-dir <dir> the program's working directory\n"
	       "  --affinity <cpus>      run the program on these CPUs only (e.g. 0-3,8)\n"
	       "  --env-var <N=V>[;..]   add to the program's environment (repeatable)\n"
	       "  --no-inherit           do not follow threads and child processes\n"
	       "  --no-buildid-cache     do not copy the profiled binaries into the build-id\n"
	       "                         cache (~/.debug, or $PERF_BUILDID_DIR), where\n"
	       "                         report and perf find them after they move\n"
	       "  --start-paused         start with sampling paused; the program resumes it with\n"
	       "                         amdProfileResume() (AMDProfileController.h)\n"
	       "  --start-delay <s>      start sampling <s> seconds after the program (0: at once);\n"
	       "                         the profile, and -d, start then\n"
	       "  -b, --terminate        kill the program when collection ends early (-d, signal)\n"
	       "  -m, --mmap-pages <n>   ring buffer pages per CPU, a power of two (default 128)\n"
	       "  -g                     collect call stacks (same as --call-graph fp)\n"
	       "  --call-graph <spec>    call stacks with every sample: fp (frame pointers), or\n"
	       "                         dwarf[:<bytes>] (copy <bytes> of user stack per sample,\n"
	       "                         default 8192, unwound by 'uprof report' with the CFI of\n"
	       "                         the binaries: works without frame pointers); fpo[:<bytes>]\n"
	       "                         is dwarf; uProf's <interval>:<depth>:<scope>:<fp|fpo>\n"
	       "                         form (scope user, kernel or all) is accepted too\n"
	       "  --call-graph-depth <n> most frames kept per stack (2 to 1024, default 128)\n"
	       "  --call-graph-mode <m>  fp, fpo or dwarf (implies call stacks)\n"
	       "  -h, --help             this text\n\n"
	       "Session directory: <dir>/uprof-<program>-<LABEL>_<Mon-DD-YYYY>_<HH-MM-SS>/\n"
	       "(mode 0700, its files 0600, whatever the umask)\n"
	       "uprof exits with the program's exit status (128+N if signal N killed it).\n");
}

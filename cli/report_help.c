// SPDX-License-Identifier: MIT
/* uprof report --help (cli/report.c parses the options it lists). */
#include "cli/report_job.h"

#include <stdio.h>

void report_help(void)
{
	printf("usage: uprof report -i <session-dir> [<options>]\n"
	       "       uprof report [<options>] <session-dir>\n"
	       "       uprof report [<options>] <perf-pipe-file>\n\n"
	       "Symbolize and aggregate a session written by 'uprof collect' into\n"
	       "<session-dir>/report.csv (uProf's layout). The ten hottest functions go to\n"
	       "standard output, what the report says about the session to standard error.\n"
	       "A perf pipe file (perf record -o - > FILE, perf inject -o -) is reported\n"
	       "too, into FILE.report.csv: every event, each sample weighted by its period.\n\n"
	       "  -i, --input-dir <dir>      the session directory, or a perf pipe file\n"
	       "                             (required)\n"
	       "  --detail                   add a section per process (see --group-by)\n"
	       "  --group-by <what>          process (default), thread, module or program:\n"
	       "                             how --detail splits its sections; program\n"
	       "                             also shows the table of programs (the\n"
	       "                             processes of one executable summed)\n"
	       "  --cutoff <n>               rows per section (default 10; 0 = all)\n"
	       "  --report-output <path>     write the CSV here: a path ending in .csv is the\n"
	       "                             file, any other path a directory for report.csv\n"
	       "  --stdout                   write the CSV to standard output instead (the\n"
	       "                             table of hottest functions goes to standard error)\n"
	       "  -q, --quiet                no progress line (shown on a terminal after a second)\n"
	       "  -p, --pid <PID,..>         only these processes (implies --detail)\n"
	       "  --time-filter <T1:T2>      only samples from T1 to T2 seconds after the\n"
	       "                             profile start (either side may be left out)\n"
	       "  --kallsyms <file>          kernel symbols (default /proc/kallsyms)\n"
	       "  --bin-path <dir>           where to find a profiled binary no longer at its\n"
	       "                             path (moved, or rebuilt): dir/<name> or\n"
	       "                             dir/<path>, taken when its build id matches;\n"
	       "                             before it, the build-id cache (~/.debug) is\n"
	       "                             tried (repeatable)\n"
	       "  --symbol-path <dir>        where to find separate debug files (.debug,\n"
	       "                             /usr/lib/debug's layout, .build-id/); then\n"
	       "                             the standard places and, with DEBUGINFOD_URLS\n"
	       "                             set, debuginfod (repeatable)\n"
	       "  --retranslate              unwind every stack again rather than use\n"
	       "                             translated.bin (uprof translate), and write\n"
	       "                             it anew\n"
	       "  --src-path <dir>           where source files are when not at the path\n"
	       "                             DWARF gives (repeatable): dir/<path>, then with\n"
	       "                             leading directories left out\n"
	       "  --disasm                   add Function Detail Data: samples per source\n"
	       "                             line and per instruction of the --cutoff\n"
	       "                             hottest functions (uprof annotate shows it)\n"
	       "  --disasm-full              the same as --disasm (every instruction of\n"
	       "                             the function is always listed)\n"
	       "  --disasm-only              the same, instructions only\n"
	       "  --disasm-style <s>         att or intel (default intel)\n"
	       "  --function <name>          detail this function (implies --disasm;\n"
	       "                             repeatable)\n"
	       "  -g                         with --detail (implied): a CALLGRAPH section per\n"
	       "                             process when call stacks were collected\n"
	       "  --export <what>            also write one of these (repeat it or give a\n"
	       "                             comma list; 'all' is every one):\n");
	for (int e = 0; e < RPT_EXPORT_COUNT; e++) {
		const struct rpt_exporter *x = rpt_exporter(e);

		printf("                               %-11s %s: %s\n", x->name, x->file, x->help);
	}
	printf("  --export-dir <dir>         where exports go (default: the session directory)\n"
	       "  --tool <t.so>[,k=v,...]    run a tool of the tool API (uprof-tool(3)) over the\n"
	       "                             session with these knob values: its sections are\n"
	       "                             appended to the CSV, its files go to\n"
	       "                             <session>/tools/<name>/ (repeatable; see\n"
	       "                             'uprof info --tool <t.so>' for its knobs)\n"
	       "  --tool-timeout <s>         each tool's time limit (default 300)\n"
	       "  --rank <list>              an MPI job: only these ranks (e.g. 0-3,8)\n"
	       "  --host <name,..>           an MPI job: only the ranks on these hosts\n"
	       "                             ('all', the default, is every host)\n"
	       "  -h, --help                 this text\n");
}

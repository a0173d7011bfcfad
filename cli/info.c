// SPDX-License-Identifier: MIT
/* uprof info: what configs exist, and what this machine can sample. */
#include "cli/cli.h"
#include "metric/metric.h"
#include "cli/options.h"
#include "pmc/pmc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "info";

int info_list_predefined(void)
{
	const struct pmc_predef *p;

	printf("%-42s %-12s %s\n", "NAME", "CODE", "DESCRIPTION");
	for (size_t i = 0; (p = pmc_predef_at(i)); i++) {
		char code[16];

		snprintf(code, sizeof(code), "PMCx%03X:%02X", p->code, p->umask);
		printf("%-42s %-12s %s\n", p->name, code, p->desc);
	}
	printf("\nAlso accepted: lowercase-hyphen forms (cycles-not-in-halt), raw codes\n"
	       "(pmcx76, event=0x43,umask=0x0f), perf software events (task-clock,\n"
	       "context-switches, cpu-migrations, page-faults, cpu-clock), libpfm4 names, and\n"
	       "pmu/term=value/ for uncore PMUs (amd_l3, amd_df).\n");
	return 0;
}

static int print_pfm_event(void *arg, const char *pmu, const char *event, uint64_t code,
			   const char *desc)
{
	char name[160];

	(void)arg;
	snprintf(name, sizeof(name), "%s::%s", pmu, event);
	printf("%-64s 0x%03llx  %.80s\n", name, (unsigned long long)code, desc);
	return 0;
}

/* libpfm4's names for this machine's hardware PMUs: what -e accepts as PMU::EVENT (also
 * pcm -l, whose messages name @cmd) */
int info_list_pmu_events_for(const char *cmd)
{
	struct pmc_pmus *pmus = NULL;
	int n = pmc_pfm_list(print_pfm_event, NULL);

	if (n < 0)
		return cli_error(1, cmd, "libpfm4 could not be initialized");
	if (!n)
		return cli_error(1, cmd,
				 "no hardware PMU here that libpfm4 knows (in a VM, the "
				 "host must expose a virtual PMU; see 'uprof info --system'); "
				 "LIBPFM_FORCE_PMU=amd64_fam19h_zen3 lists Zen3's events");
	/* libpfm4 goes by the CPU model; the kernel may still have no PMU to count them */
	if (pmc_pmus_load(&pmus) || !pmc_pmus_find(pmus, "cpu"))
		fprintf(stderr, "note: these are the CPU model's events, but the kernel exposes no "
				"core PMU here ('cpu' is missing under "
				"/sys/bus/event_source/devices): they cannot be counted on this "
				"machine; see 'uprof info --system'\n");
	pmc_pmus_free(pmus);
	return 0;
}

int info_list_pmu_events(void)
{
	return info_list_pmu_events_for(CMD);
}

int info_list_configs(void)
{
	char names[64][64], err[256];
	int n = mtr_config_list(cli_config_dir(), names, 64);

	if (!n)
		return cli_error(1, CMD, "no configs found in %s", cli_config_dir());
	for (int i = 0; i < n; i++) {
		struct mtr_config c;

		if (mtr_config_load(cli_config_dir(), names[i], &c, err, sizeof(err)))
			printf("%-12s (broken: %s)\n", names[i], err);
		else
			printf("%-12s %s\n", names[i], c.description);
	}
	return 0;
}

static int show_config(const char *name)
{
	struct mtr_config c;
	char err[256], names[64][64], list[512] = "", near[96];
	int ret = mtr_config_load(cli_config_dir(), name, &c, err, sizeof(err));

	if (ret == -ENOENT && cli_config_refusal(name))
		return cli_error(EXIT_USAGE, CMD, "--collect-config %s: %s", name,
				 cli_config_refusal(name));
	if (ret == -ENOENT) {
		int n = mtr_config_list(cli_config_dir(), names, 64);

		for (int i = 0; i < n; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", names[i]);
		cli_config_near(name, near, sizeof(near));
		return cli_error(EXIT_USAGE, CMD,
				 "--collect-config '%s': no such config%s; known: %s", name, near,
				 n ? list : "none");
	}
	if (ret)
		return cli_error(1, CMD, "config '%s' is broken: %s", name, err);
	printf("%s (%s): %s\n", c.name, c.label, c.description);
	if (!c.nevents) {
		printf("  timer: CPU_TIME every %g ms%s\n", c.timer_interval_ms,
		       c.user_only ? ", user mode only" : "");
		return 0;
	}
	printf("  events (sampled; the first sorts the report):\n");
	for (int i = 0; i < c.nevents; i++)
		printf("    %s%s%s%s%s\n", c.events[i].spec, c.events[i].name[0] ? "  (as " : "",
		       c.events[i].name, c.events[i].name[0] ? ")" : "",
		       c.events[i].optional ? "  (optional)" : "");
	if (c.nmetrics)
		printf("  metrics (derived by report):\n");
	for (int i = 0; i < c.nmetrics; i++)
		printf("    %s = %s\n", c.metrics[i].name, c.metrics[i].formula);
	return 0;
}

static void print_proc_line(const char *label, const char *rel)
{
	char path[4096], buf[256] = "unreadable";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", pmc_procfs_root(), rel);
	f = fopen(path, "re");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			snprintf(buf, sizeof(buf), "empty");
		buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
	printf("  %-28s %s\n", label, buf);
}

static void show_cpu(const struct pmc_topo *topo)
{
	struct pmc_cpuid id;
	double mhz = pmc_cpu_nominal_mhz();

	pmc_cpuid_read(&id);
	printf("[CPU Info]\n  %-28s %s\n  %-28s %s\n",
	       "Model:", id.model_name[0] ? id.model_name : "unknown",
	       "Vendor:", id.vendor[0] ? id.vendor : "unknown");
	printf("  %-28s 0x%x (%d)\n  %-28s 0x%x (%d)\n  %-28s %d\n", "Family:", id.family,
	       id.family, "Model number:", id.model, id.model, "Stepping:", id.stepping);
	if (mhz > 0)
		printf("  %-28s %.0f MHz\n", "Nominal frequency:", mhz);
	if (!topo) {
		printf("  %-28s %ld\n", "Online CPUs:", sysconf(_SC_NPROCESSORS_ONLN));
		return;
	}
	printf("  %-28s %d\n  %-28s %d\n  %-28s %d\n  %-28s %d\n  %-28s %s\n",
	       "Sockets:", pmc_topo_packages(topo), "CCXs (L3 complexes):", pmc_topo_ccxs(topo),
	       "Cores:", pmc_topo_cores(topo),
	       "Threads (online CPUs):", pmc_cpus_count(pmc_topo_online(topo)),
	       "SMT:", pmc_cpus_count(pmc_topo_online(topo)) > pmc_topo_cores(topo) ? "on" : "off");
}

static void show_pmu_line(const struct pmc_pmus *pmus, const char *label, const char *name,
			  const char *unit)
{
	const struct pmc_pmu *u = pmc_pmus_find(pmus, name);
	char mask[256] = "";

	if (!u) {
		printf("  %-28s not available (no %s PMU)\n", label, name);
		return;
	}
	if (pmc_pmu_cpumask(u))
		pmc_cpus_format(pmc_pmu_cpumask(u), mask, sizeof(mask));
	printf("  %-28s available: PMU %s, type %u, %d counters per %s%s%s\n", label, name,
	       pmc_pmu_type(u), pmc_pmu_counters(u), unit, mask[0] ? ", read on CPUs " : "", mask);
}

static void show_pmus(const struct pmc_pmus *pmus)
{
	printf("[PERF Features Availability]\n");
	print_proc_line("perf_event_paranoid:", "sys/kernel/perf_event_paranoid");
	print_proc_line("perf_event_mlock_kb:", "sys/kernel/perf_event_mlock_kb");
	print_proc_line("nmi_watchdog:", "sys/kernel/nmi_watchdog");
	show_pmu_line(pmus, "Core PMC (cpu):", "cpu", "core");
	show_pmu_line(pmus, "L3 PMC (amd_l3):", "amd_l3", "CCX");
	show_pmu_line(pmus, "DF PMC (amd_df):", "amd_df", "package");
	printf("  %-28s %s\n", "Timer sampling (CPU_TIME):", "available (software cpu-clock)");
	printf("  %-28s", "All PMUs:");
	for (size_t i = 0; i < pmc_pmus_count(pmus); i++)
		printf(" %s", pmc_pmu_name(pmc_pmus_at(pmus, i)));
	printf("\n[IBS Features Availability]\n");
	show_pmu_line(pmus, "IBS op (ibs_op):", "ibs_op", "core");
	show_pmu_line(pmus, "IBS fetch (ibs_fetch):", "ibs_fetch", "core");
}

static int show_system(void)
{
	char host[128], cpu[128], kernel[128], os[128];
	struct pmc_pmus *pmus = NULL;
	struct pmc_topo *topo = NULL;
	struct pmc_cpuid id;

	cli_system_facts(host, sizeof(host), cpu, sizeof(cpu), kernel, sizeof(kernel), os,
			 sizeof(os));
	printf("[OS Info]\n  %-28s %s\n  %-28s %s\n  %-28s %s\n", "Host:", host, "OS:", os,
	       "Kernel:", kernel);
	pmc_topo_load(&topo);
	show_cpu(topo);
	pmc_pmus_load(&pmus);
	show_pmus(pmus);
	pmc_cpuid_read(&id);
	printf("[Hypervisor Info]\n  %-28s %s\n", "Hypervisor:",
	       id.hypervisor ? "yes (the 'hypervisor' CPU flag is set: a VM; hardware counters "
			       "need a virtual PMU)"
			     : "no");
	pmc_pmus_free(pmus);
	pmc_topo_free(topo);
	return 0;
}

enum { LIST, SYSTEM, COLLECT_CONFIG, VIEW_CONFIG, TOOL, PMU_EVENT };

struct info_state {
	int ret; /* of what was shown last; -1 while nothing was */
};

/* Each option shows its part at once, in the order given. */
static int info_option(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	struct info_state *st = state;
	int ret = 0;

	switch (o->data) {
	case LIST:
		ret = info_list(arg, cmd);
		break;
	case SYSTEM: /* what it could not read is said; the other options still run */
		st->ret = show_system();
		return -1;
	case COLLECT_CONFIG:
		ret = show_config(arg);
		break;
	case VIEW_CONFIG:
		ret = info_show_view(arg, cmd);
		break;
	case TOOL:
		ret = cli_tool_show(arg, cmd);
		break;
	case PMU_EVENT:
		ret = info_show_pmu_event(cmd, "--pmu-event", arg);
		break;
	}
	if (ret)
		return ret;
	st->ret = 0;
	return -1;
}

static const struct cli_option info_options[] = {
	OPT_CALLBACK(0, "list", "<what>",
		     "collect-configs: the configurations 'collect\n"
		     "--config' accepts; predefined-events: uProf's\n"
		     "event names and their PMCx codes (AMD Zen);\n"
		     "pmu-events: libpfm4's events for this machine's\n"
		     "PMUs, as -e takes them (PMU::EVENT); metric-groups:\n"
		     "pcm -m's groups; export-formats: report --export's;\n"
		     "trace-events, ostrace-events: what --trace takes;\n"
		     "view-configs: report --view's views (available, or\n"
		     "needing IBS); cacheline-events, gpu-events: uProf's,\n"
		     "refused with the reason",
		     info_option, LIST),
	OPT_CALLBACK(0, "collect-config", "<name>",
		     "what a configuration samples: its events with their\n"
		     "intervals, and the metrics report derives",
		     info_option, COLLECT_CONFIG),
	OPT_CALLBACK(0, "view-config", "<name>",
		     "a view of report --view: its columns in order with\n"
		     "their formulas, the events they need (PMCx codes)\n"
		     "and the collect config that samples them",
		     info_option, VIEW_CONFIG),
	OPT_CALLBACK(0, "pmu-event", "<pmcxNN|all|name>",
		     "an event of this machine's PMUs by its code (or\n"
		     "name, or all): description, uProf names, and its\n"
		     "unit masks with their codes (-e's umask=)",
		     info_option, PMU_EVENT),
	OPT_CALLBACK_NOARG(0, "system",
			   "this machine: CPU, topology, kernel, perf_event access,\n"
			   "PMUs (core, L3, Data Fabric) and their counters,\n"
			   "hypervisor",
			   info_option, SYSTEM),
	OPT_CALLBACK(0, "tool", "<tool.so>",
		     "a tool of the tool API (uprof-tool(3)): its name,\n"
		     "version, API version, what it asks collect for,\n"
		     "and its knobs with types, defaults and help",
		     info_option, TOOL),
	OPT_INCLUDE_SAME(cli_refused_info_options),
	OPT_HELP(),
	OPT_END(),
};

static const struct cli_command info_cmd = {
	.name = "info",
	.usage = "usage: uprof info [--list <what>] [--system]\n"
		 "                  [--collect-config <name>] [--view-config <name>]\n"
		 "                  [--pmu-event <pmcxNN|all>]\n"
		 "                  [--tool <tool.so>]\n",
	.options = info_options,
	.column = 29,
};

int cmd_info(int argc, char **argv)
{
	struct info_state st = { .ret = -1 };
	int first, ret;

	ret = cli_options_parse(&info_cmd, &st, argc, argv, &first);
	if (ret >= 0)
		return ret;
	if (st.ret < 0)
		return cli_usage_error(
			CMD,
			"nothing to show: use --list collect-configs|predefined-events|pmu-events, "
			"--collect-config <name>, --view-config <name>, --pmu-event <pmcxNN|all>, "
			"--tool <tool.so> or "
			"--system");
	return st.ret;
}

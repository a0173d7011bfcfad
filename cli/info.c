// SPDX-License-Identifier: MIT
/* uprof info: what configs exist, and what this machine can sample. */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "info";

static void info_help(void)
{
	printf("usage: uprof info [--list collect-configs] [--system]\n\n"
	       "  --list collect-configs   the configurations 'collect --config' accepts\n"
	       "  --system                 this machine: CPU, kernel, perf_event access, PMU\n"
	       "  -h, --help               this text\n");
}

static int list_configs(void)
{
	char names[64][64], err[256];
	int n = cli_config_list(names, 64);

	if (!n)
		return cli_error(1, CMD, "no configs found in %s", cli_config_dir());
	for (int i = 0; i < n; i++) {
		struct cli_config c;

		if (cli_config_load(names[i], &c, err, sizeof(err)))
			printf("%-12s (broken: %s)\n", names[i], err);
		else
			printf("%-12s %s\n", names[i], c.description);
	}
	return 0;
}

static void print_file_line(const char *label, const char *path)
{
	char buf[256] = "unreadable";
	FILE *f = fopen(path, "re");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			snprintf(buf, sizeof(buf), "empty");
		buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
	printf("  %-26s %s\n", label, buf);
}

static int show_system(void)
{
	char host[128], cpu[128], kernel[128], os[128];

	cli_system_facts(host, sizeof(host), cpu, sizeof(cpu), kernel, sizeof(kernel), os,
			 sizeof(os));
	printf("[OS Info]\n  %-26s %s\n  %-26s %s\n  %-26s %s\n", "Host:", host, "OS:", os,
	       "Kernel:", kernel);
	printf("[CPU Info]\n  %-26s %s\n  %-26s %ld\n", "Model:", cpu, "Online CPUs:",
	       sysconf(_SC_NPROCESSORS_ONLN));
	printf("[PERF Features Availability]\n");
	print_file_line("perf_event_paranoid:", "/proc/sys/kernel/perf_event_paranoid");
	print_file_line("perf_event_mlock_kb:", "/proc/sys/kernel/perf_event_mlock_kb");
	printf("  %-26s %s\n", "Core PMU (cpu):",
	       access("/sys/bus/event_source/devices/cpu", F_OK) ? "not available (VM without vPMU?)"
								  : "available");
	printf("  %-26s %s\n", "Timer sampling (CPU_TIME):", "available (software cpu-clock)");
	return 0;
}

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", required_argument, NULL, 'l' },
		{ "system", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char msg[256];
	int c, ret = -1;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (strcmp(optarg, "collect-configs"))
				return cli_error(EXIT_USAGE, CMD,
						 "--list '%s': only collect-configs is known", optarg);
			ret = list_configs();
			break;
		case 's':
			ret = show_system();
			break;
		case 'h':
			info_help();
			return 0;
		case ':':
			snprintf(msg, sizeof(msg), "option '%s' needs a value", argv[optind - 1]);
			return cli_usage_error(CMD, msg);
		default:
			snprintf(msg, sizeof(msg), "unknown option '%s'", argv[optind - 1]);
			return cli_usage_error(CMD, msg);
		}
	}
	if (ret < 0)
		return cli_usage_error(CMD, "nothing to show: use --list collect-configs or --system");
	return ret;
}

/* SPDX-License-Identifier: MIT */
/* cli: the uprof binary. Each subcommand is one file with its own state struct. */
#ifndef UPROF_CLI_H
#define UPROF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes: 0 success, 1 failure at run time, 2 usage error (bad option or value). */
enum { EXIT_USAGE = 2 };

int cmd_collect(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_info(int argc, char **argv);

/* "uprof <cmd>: <message>" on stderr; returns @code so callers can `return err(...)`. */
int cli_error(int code, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void cli_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An unknown option or a missing argument, as getopt reports it: exit code 2. */
int cli_usage_error(const char *cmd, const char *what);

/* A collect configuration (configs/<name>.ini). */
struct cli_config {
	char name[64];
	char label[32];
	char description[128];
	double timer_interval_ms;
	bool user_only;
};

/* Directory holding the configs: $UPROF_CONFIG_DIR, else <exe>/../share/uprof/configs. */
const char *cli_config_dir(void);

/* Load config @name. 0, -ENOENT (no such config) or -EINVAL (@err says what). */
int cli_config_load(const char *name, struct cli_config *cfg, char *err, size_t errlen);

/* Names of all configs, sorted; returns count (up to @max), each name @namelen bytes. */
int cli_config_list(char names[][64], int max);

/* Paths, times and system facts shared by the subcommands. */
int64_t cli_now_ns(int clock);
void cli_system_facts(char *host, size_t hl, char *cpu, size_t cl, char *kernel, size_t kl,
		      char *os, size_t ol);

#endif

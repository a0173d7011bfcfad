// SPDX-License-Identifier: MIT
/*
 * uprof collect: a failed perf_event_open turned into one line of advice.
 */
#include "cli/collect.h"

#include <errno.h>
#include <string.h>

static const char *const CMD = "collect";

int collect_explain_open_error(struct collect_state *st, int err, int failed)
{
	const char *name = st->event_names[failed > 0 && failed < st->nattrs ? failed : COLLECT_TIMER];

	switch (-err) {
	case EACCES:
	case EPERM:
		return cli_error(1, CMD,
				 "not allowed to sample (%s); kernel.perf_event_paranoid is too "
				 "high: try 'sysctl kernel.perf_event_paranoid=1' or run as root",
				 strerror(-err));
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		return cli_error(1, CMD, "the %s event is not supported here (%s); see "
					 "'uprof info --system'",
				 name, strerror(-err));
	case EMFILE:
		return cli_error(1, CMD, "too many open files; raise 'ulimit -n'");
	case ENOMEM:
		return cli_error(1, CMD,
				 "cannot map the ring buffers (%s); lower -m or raise "
				 "kernel.perf_event_mlock_kb",
				 strerror(-err));
	default:
		return cli_error(1, CMD, "cannot open the %s event: %s", name, strerror(-err));
	}
}

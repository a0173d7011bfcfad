// SPDX-License-Identifier: MIT
/*
 * uprof compare --html FILE: the comparison's CSV (rpt_compare_write_csv, what -o writes)
 * made a page by lib/export's HTML report, its rows largest change first as the CSV has
 * them, with the change drawn as bars; one file, nothing fetched.
 */
#include "cli/compare_html.h"
#include "cli/cli.h"
#include "export/export.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "compare";

int compare_write_html(const char *path, const struct rpt_compare *c, const char *dir_a,
		       const char *dir_b)
{
	char base[NAME_MAX + 1], tmp[NAME_MAX + 1], title[2 * PATH_MAX + 8], *csv = NULL;
	size_t len = 0;
	int dfd, ret;
	FILE *m, *f;

	m = open_memstream(&csv, &len);
	if (!m)
		return cli_error(1, CMD, "out of memory");
	ret = rpt_compare_write_csv(c, dir_a, dir_b, m);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(csv);
		return cli_error(1, CMD, "writing '%s' failed: %s", path, strerror(-ret));
	}
	/* beneath its directory's fd, 0600: it may be inside a session another user can write */
	dfd = cli_open_parent(path, base, sizeof(base));
	f = dfd < 0 ? (errno = -dfd, NULL)
		    : util_at_replace_fopen(dfd, base, 0600, tmp, sizeof(tmp));
	if (!f) {
		ret = errno;
		free(csv);
		if (dfd >= 0)
			close(dfd);
		return cli_error(1, CMD, "cannot write '%s': %s", path, strerror(ret));
	}
	snprintf(title, sizeof(title), "%s vs %s", dir_a, dir_b);
	ret = util_at_replace_fcommit(dfd, tmp, base, f,
				      rpt_export_html_csv(f, "compare", title, csv, len));
	close(dfd);
	free(csv);
	if (ret)
		return cli_error(1, CMD, "writing '%s' failed: %s", path, strerror(-ret));
	printf("Generated comparison page: %s\n", path);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * uProf's timechart.csv layout (docs: AMDuProf-SWP-Timechart_<date>/timechart.csv):
 *   RecordId,Timestamp,thread0-core-effective-frequency,...,thread0-p-state,...,
 *   socket0-package-power,...,core0-power,...,socket0-temperature
 * with values after ", " (uProf pads them with a space). Only the columns this machine
 * has a source for are written; a value that failed to read is an empty cell. -f txt
 * writes the same columns fixed-width.
 */
#include "timechart/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

/* Column @i's name, or NULL past the last. */
static const char *column(const struct tc_machine *m, int i, char *buf, size_t len)
{
	if ((m->want & TC_FREQUENCY) && m->freq_source != TC_FREQ_NONE) {
		if (i < m->ncpus) {
			snprintf(buf, len, "thread%d-core-effective-frequency", m->cpu[i]);
			return buf;
		}
		i -= m->ncpus;
	}
	if ((m->want & TC_PSTATE) && m->pstate_source != TC_PSTATE_NONE) {
		if (i < m->ncpus) {
			snprintf(buf, len, "thread%d-p-state", m->cpu[i]);
			return buf;
		}
		i -= m->ncpus;
	}
	if (m->want & TC_POWER) {
		if (i < m->npackages) {
			snprintf(buf, len, "socket%d-package-power", i);
			return buf;
		}
		i -= m->npackages;
		if (i < m->ncores) {
			snprintf(buf, len, "core%d-power", m->core_id[i]);
			return buf;
		}
		i -= m->ncores;
	}
	if (m->want & TC_TEMPERATURE) {
		if (i < m->nthermal) {
			snprintf(buf, len, "socket%d-temperature", i);
			return buf;
		}
	}
	return NULL;
}

/* Column @i's value as text ("" when it was not read). */
static const char *value(const struct tc_machine *m, const struct tc_row *row, int i, char *buf,
			 size_t len)
{
	double v = NAN;

	buf[0] = '\0';
	if ((m->want & TC_FREQUENCY) && m->freq_source != TC_FREQ_NONE) {
		if (i < m->ncpus) {
			v = row->freq_mhz[i];
			goto number;
		}
		i -= m->ncpus;
	}
	if ((m->want & TC_PSTATE) && m->pstate_source != TC_PSTATE_NONE) {
		if (i < m->ncpus) {
			if (row->pstate[i] >= 0)
				snprintf(buf, len, "%d", row->pstate[i]);
			return buf;
		}
		i -= m->ncpus;
	}
	if (m->want & TC_POWER) {
		if (i < m->npackages) {
			v = row->power_w[i];
			goto number;
		}
		i -= m->npackages;
		if (i < m->ncores) {
			v = row->core_power_w[i];
			goto number;
		}
		i -= m->ncores;
	}
	if ((m->want & TC_TEMPERATURE) && i < m->nthermal)
		v = row->temp_c[i];
number:
	if (!isnan(v))
		snprintf(buf, len, "%.2f", v);
	return buf;
}

static int done(FILE *f)
{
	return ferror(f) ? -(errno ? errno : EIO) : 0;
}

int tc_csv_header(const struct tc_machine *m, FILE *f)
{
	char name[64];

	fputs("RecordId,Timestamp", f);
	for (int i = 0; column(m, i, name, sizeof(name)); i++)
		fprintf(f, ",%s", name);
	fputc('\n', f);
	return done(f);
}

int tc_csv_row(const struct tc_machine *m, const struct tc_row *row, long record_id,
	       const char *stamp, FILE *f)
{
	char name[64], v[32];

	fprintf(f, "%ld,%s", record_id, stamp);
	for (int i = 0; column(m, i, name, sizeof(name)); i++) {
		value(m, row, i, v, sizeof(v));
		fprintf(f, ",%s%s", v[0] ? " " : "", v);
	}
	fputc('\n', f);
	return done(f);
}

int tc_txt_header(const struct tc_machine *m, FILE *f)
{
	char name[64];

	fprintf(f, "%8s %-12s", "RecordId", "Timestamp");
	for (int i = 0; column(m, i, name, sizeof(name)); i++)
		fprintf(f, " %s", name);
	fputc('\n', f);
	return done(f);
}

int tc_txt_row(const struct tc_machine *m, const struct tc_row *row, long record_id,
	       const char *stamp, FILE *f)
{
	char name[64], v[32];
	int w;

	fprintf(f, "%8ld %-12s", record_id, stamp);
	for (int i = 0; column(m, i, name, sizeof(name)); i++) {
		w = snprintf(NULL, 0, "%s", name); /* each value under its column's name */
		value(m, row, i, v, sizeof(v));
		fprintf(f, " %*s", w, v[0] ? v : "-");
	}
	fputc('\n', f);
	return done(f);
}

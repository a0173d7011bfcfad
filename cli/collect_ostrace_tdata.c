// SPDX-License-Identifier: MIT
/*
 * perf's tracing data for samples.data of a --trace os session (docs/DESIGN.md §12): a
 * pipe-mode PERF_RECORD_HEADER_TRACING_DATA record holding tracefs's header_page and
 * header_event and the format file of each traced tracepoint, laid out as perf's
 * trace-event-info.c writes it (magic "\027\010Dtracing", version "0.6", endianness,
 * sizeof(long), page size; the headers; no ftrace events; the systems and their formats;
 * no kallsyms, printk formats or saved cmdlines). With it `perf script -i samples.data`
 * names sched:sched_switch and the others and prints their fields, instead of "unknown
 * tracepoint". lib/session's reader passes over the record's payload.
 */
#include "cli/collect.h"
#include "cli/cli.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "collect";

struct tbuf {
	unsigned char *p;
	size_t len, cap;
	int err;
};

static void put(struct tbuf *b, const void *data, size_t n)
{
	if (b->err)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 16384;
		unsigned char *g;

		while (cap < b->len + n)
			cap *= 2;
		g = realloc(b->p, cap);
		if (!g) {
			b->err = -ENOMEM;
			return;
		}
		b->p = g;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void put_u32(struct tbuf *b, uint32_t v)
{
	put(b, &v, 4);
}

static void put_u64(struct tbuf *b, uint64_t v)
{
	put(b, &v, 8);
}

/* tracefs file @root/events/@name as "name\0", u64 size, its bytes (perf's header files) */
static void put_header_file(struct tbuf *b, const char *root, const char *name)
{
	char path[PATH_MAX + 64], data[16384];
	size_t n = 0;
	ssize_t got;
	int fd;

	snprintf(path, sizeof(path), "%s/events/%s", root, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		b->err = -errno;
		return;
	}
	while (n < sizeof(data) && (got = read(fd, data + n, sizeof(data) - n)) != 0) {
		if (got < 0 && errno != EINTR) {
			b->err = -errno;
			break;
		}
		if (got > 0)
			n += (size_t)got;
	}
	close(fd);
	if (n == sizeof(data))
		b->err = -EFBIG;
	put(b, name, strlen(name) + 1);
	put_u64(b, n);
	put(b, data, n);
}

/* The tracing data of the traced tracepoints (st->event_names "system:name" from
 * st->os.first on), grouped by system in their order. 0 or -errno. */
static int tracing_data(const struct collect_state *st, struct tbuf *b)
{
	static const unsigned char MAGIC[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	char systems[16][32];
	int nsys = 0;
	char *fmt = malloc(65536);

	if (!fmt)
		return -ENOMEM;
	put(b, MAGIC, sizeof(MAGIC));
	put(b, "0.6", 4);
	put(b, &(unsigned char){ 0 }, 1); /* little endian: the only kind collect runs on */
	put(b, &(unsigned char){ sizeof(long) }, 1);
	put_u32(b, (uint32_t)sysconf(_SC_PAGESIZE));
	put_header_file(b, st->os.tracefs, "header_page");
	put_header_file(b, st->os.tracefs, "header_event");
	put_u32(b, 0); /* ftrace's own events: none */
	for (int i = st->os.first; i > 0 && i < st->nattrs && nsys < 16; i++) {
		const char *colon = strchr(st->event_names[i], ':');
		size_t n = colon ? (size_t)(colon - st->event_names[i]) : 0;
		bool seen = false;

		if (!n || n >= sizeof(systems[0]))
			continue;
		for (int k = 0; k < nsys && !seen; k++)
			seen = strlen(systems[k]) == n &&
			       !memcmp(systems[k], st->event_names[i], n);
		if (!seen) {
			memcpy(systems[nsys], st->event_names[i], n);
			systems[nsys++][n] = 0;
		}
	}
	put_u32(b, (uint32_t)nsys);
	for (int k = 0; k < nsys && !b->err; k++) {
		size_t sl = strlen(systems[k]);
		uint32_t count = 0;

		for (int i = st->os.first; i < st->nattrs; i++)
			count += !strncmp(st->event_names[i], systems[k], sl) &&
				 st->event_names[i][sl] == ':';
		put(b, systems[k], sl + 1);
		put_u32(b, count);
		for (int i = st->os.first; i < st->nattrs && !b->err; i++) {
			size_t got = 0;
			int ret;

			if (strncmp(st->event_names[i], systems[k], sl) ||
			    st->event_names[i][sl] != ':')
				continue;
			ret = pmc_tracepoint_format(st->os.tracefs, systems[k],
						    st->event_names[i] + sl + 1, fmt, 65536, &got);
			if (ret) {
				b->err = ret;
				break;
			}
			put_u64(b, got);
			put(b, fmt, got);
		}
	}
	put_u32(b, 0); /* kallsyms: none (perf reads the kernel's symbols itself) */
	put_u32(b, 0); /* printk formats: none */
	put_u64(b, 0); /* saved cmdlines (version 0.6): none */
	free(fmt);
	return b->err;
}

int collect_ostrace_tracing_data(struct collect_state *st)
{
	struct tbuf b = { 0 };
	struct {
		uint32_t type;
		uint16_t misc, size;
		uint32_t data_size;
	} __attribute__((packed)) rec = { SES_RECORD_HEADER_TRACING_DATA, 0, 12, 0 };
	static const unsigned char PAD[8];
	int ret;

	if (!st->os.on || st->os.first <= 0)
		return -1;
	ret = tracing_data(st, &b);
	if (!ret) {
		size_t pad = (8 - b.len % 8) % 8;

		rec.data_size = (uint32_t)(b.len + pad);
		ret = ses_writer_write(st->writer, &rec, sizeof(rec));
		if (!ret)
			ret = ses_writer_write(st->writer, b.p, b.len);
		if (!ret && pad)
			ret = ses_writer_write(st->writer, PAD, pad);
	}
	free(b.p);
	if (ret)
		return cli_error(1, CMD,
				 "--trace os: cannot write the tracepoints' formats into "
				 "%s/samples.data: %s",
				 st->session_dir, strerror(-ret));
	return -1;
}

// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for call-stack parsing: a PERF_RECORD_SAMPLE body parsed with
 * CALLCHAIN, REGS_USER and STACK_USER (and READ, RAW, BRANCH_STACK before them, chosen by
 * the first input byte) by lib/session's reader, every returned field then read in full so
 * that the sanitizers see any out-of-bounds pointer; and the --call-graph spec parser of
 * lib/pmc on the same bytes as text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmc/pmc.h"
#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void parse_sample(const uint8_t *data, size_t size)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct perf_event_header h;
	struct ses_reader *r;
	struct ses_record rec;
	struct ses_sample s;
	uint8_t sel = size ? data[0] : 0;
	size_t body = size > 1 ? size - 1 : 0, len;
	unsigned char *img;
	uint64_t id = 1;
	char err[64];

	if (body > 65535 - 8)
		body = 65535 - 8;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			   PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	if (sel & 1)
		attr.sample_type |= PERF_SAMPLE_READ;
	if (sel & 2)
		attr.sample_type |= PERF_SAMPLE_RAW;
	if (sel & 4)
		attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	attr.read_format = sel & 8 ? PERF_FORMAT_GROUP | PERF_FORMAT_ID : PERF_FORMAT_LOST;
	attr.branch_sample_type = sel & 16 ? PERF_SAMPLE_BRANCH_HW_INDEX : 0;
	attr.sample_regs_user = sel & 32 ? 0xff0fffULL : 0x1c1ULL;
	attr.sample_id_all = 1;
	len = 16 + 8 + sizeof(attr) + 8 + 8 + body;
	img = malloc(len);
	if (!img)
		return;
	memcpy(img, "PERFILE2", 8);
	memcpy(img + 8, &(uint64_t){ 16 }, 8);
	h = (struct perf_event_header){ SES_RECORD_HEADER_ATTR, 0, (uint16_t)(8 + sizeof(attr) + 8) };
	memcpy(img + 16, &h, 8);
	memcpy(img + 24, &attr, sizeof(attr));
	memcpy(img + 24 + sizeof(attr), &id, 8);
	h = (struct perf_event_header){ PERF_RECORD_SAMPLE, 0, (uint16_t)(8 + body) };
	memcpy(img + 32 + sizeof(attr), &h, 8);
	memcpy(img + 40 + sizeof(attr), data + (size ? 1 : 0), body);
	if (!ses_reader_open_mem(&r, img, len, err, sizeof(err))) {
		while (ses_reader_next(r, &rec) > 0) {
			if (rec.type != PERF_RECORD_SAMPLE || ses_reader_sample(r, &rec, &s))
				continue;
			for (uint32_t i = 0; i < s.nr_ips; i++)
				sink += ses_sample_u64(s.ips, i);
			for (uint32_t i = 0; i < s.nregs; i++)
				sink += ses_sample_u64(s.regs, i);
			for (uint64_t i = 0; i < s.stack_size; i++)
				sink += ((const unsigned char *)s.stack)[i];
		}
		ses_reader_free(r);
	}
	free(img);
}

static void parse_spec(const uint8_t *data, size_t size)
{
	struct pmc_callgraph cg;
	char *s = malloc(size + 1), err[160];

	if (!s)
		return;
	memcpy(s, data, size);
	s[size] = 0;
	pmc_callgraph_init(&cg);
	pmc_callgraph_parse(s, &cg, err, sizeof(err));
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse_sample(data, size);
	parse_spec(data, size);
	return 0;
}

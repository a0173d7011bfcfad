// SPDX-License-Identifier: MIT
/* libFuzzer target for the FDE reader (lib/symbols/fdes.c) on a CFI section's bytes. The
 * first byte picks the ELF class, byte order and .eh_frame or .debug_frame. */
#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/fdes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char ident[EI_NIDENT] = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3 };
	struct rpt_fdes f = { 0 };
	uint8_t *copy;

	if (!size)
		return 0;
	ident[EI_CLASS] = data[0] & 1 ? ELFCLASS32 : ELFCLASS64;
	ident[EI_DATA] = data[0] & 2 ? ELFDATA2MSB : ELFDATA2LSB;
	ident[EI_VERSION] = EV_CURRENT;
	/* an exact-size copy, so that ASan sees a read past the section's end */
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if (!rpt_fdes_parse(&f, ident, copy, size - 1, 0x1000, !(data[0] & 4))) {
		rpt_fdes_sort(&f);
		(void)rpt_fdes_find(&f, 0x1100);
	}
	rpt_fdes_release(&f);
	free(copy);
	return 0;
}

// SPDX-License-Identifier: MIT
/* libFuzzer target for the PLT stub reader (lib/symbols/plt.c) on a whole ELF file's
 * bytes, read by libelf from memory as report reads a module's file. */
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/plt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int touch(void *arg, uint64_t addr, uint64_t size, const char *name)
{
	*(size_t *)arg += strlen(name) + (size_t)(addr + size);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t sum = 0;
	char *copy;
	Elf *elf;

	elf_version(EV_CURRENT);
	/* an exact-size copy, so that ASan sees a read past the file's end */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	elf = elf_memory(copy, size);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		(void)rpt_plt_each(elf, touch, &sum);
	elf_end(elf);
	free(copy);
	return 0;
}

// SPDX-License-Identifier: MIT
/* The libdwfl callbacks of report (dwfl.h). */
#include "report/dwfl.h"

#include <libelf.h>

static char *debuginfo_path; /* NULL: libdwfl's default ":.debug:/usr/lib/debug" */

const Dwfl_Callbacks rpt_dwfl_file_callbacks = {
	.find_elf = dwfl_build_id_find_elf, /* unused: dwfl_report_elf opens the file */
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* Hand libdwfl the in-memory copy; it ends the Elf, the caller frees the buffer. */
static int image_find_elf(Dwfl_Module *mod, void **userdata, const char *name,
			  Dwarf_Addr base, char **file_name, Elf **elfp)
{
	struct rpt_dwfl_image *img = *userdata;

	(void)mod;
	(void)name;
	(void)base;
	*file_name = NULL;
	*elfp = elf_memory(img->buf, img->len);
	return -1;
}

const Dwfl_Callbacks rpt_dwfl_image_callbacks = {
	.find_elf = image_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

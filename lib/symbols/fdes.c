// SPDX-License-Identifier: MIT
/*
 * Function ranges from call frame information. libdw's dwarf_next_cfi() frames each CIE
 * and FDE (lengths, 64-bit DWARF, augmentation strings); what it leaves to its caller is
 * decoding an FDE's initial_location and address_range, whose pointer encoding the
 * FDE's CIE gives ('R' in a "z..." augmentation). We decode only the encodings an FDE of
 * a linked file uses: absolute or pc-relative, 2, 4 or 8 bytes. (libdw's
 * dwarf_cfi_addrframe() + dwarf_frame_info() give the range of one CFI *row*, not of
 * the FDE, so they cannot tell where a function starts.)
 *
 * Sections are untrusted: every read is checked against the entry's end, and an entry
 * that does not parse is skipped.
 */
#include "symbols/fdes.h"
#include "util/util.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

/* CIEs whose FDE encoding is remembered while walking one section (a linked file has a
 * handful: one per compiler personality and language). */
#define MAX_CIES 8

struct cie_enc {
	Dwarf_Off off;
	int enc; /* DW_EH_PE_*, or -1: its FDEs cannot be decoded */
};

struct walk {
	const unsigned char *e_ident;
	Elf_Data data; /* the section, for dwarf_next_cfi() */
	uint64_t vaddr;
	bool eh_frame;
	bool big_endian;
	unsigned addr_size;
	struct cie_enc cies[MAX_CIES];
	size_t ncies, evict;
};

/* Bytes of a value in the format (low nibble) of @enc; 0: a format we do not read. */
static unsigned value_size(const struct walk *w, int enc)
{
	switch (enc & 0x0f) {
	case DW_EH_PE_absptr:
		return w->addr_size;
	case DW_EH_PE_udata2:
	case DW_EH_PE_sdata2:
		return 2;
	case DW_EH_PE_udata4:
	case DW_EH_PE_sdata4:
		return 4;
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		return 8;
	default:
		return 0;
	}
}

/* The @size-byte value at @p in the file's byte order, sign-extended if @enc says so. */
static uint64_t read_value(const struct walk *w, int enc, const uint8_t *p, unsigned size)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[w->big_endian ? size - 1 - i : i] << (8 * i);
	if ((enc & DW_EH_PE_signed) && size < 8 && (v >> (8 * size - 1)) & 1)
		v |= ~0ULL << (8 * size);
	return v;
}

/* The encoding of the FDEs that use the CIE @cie; -1 when we cannot tell. */
static int cie_fde_encoding(const struct walk *w, const Dwarf_CIE *cie)
{
	const char *a = cie->augmentation;
	const uint8_t *p = cie->augmentation_data;
	const uint8_t *end = p + cie->augmentation_data_size;
	unsigned size;

	if (!*a)
		return DW_EH_PE_absptr;
	if (*a != 'z' || !w->eh_frame)
		return -1;
	for (a++; *a; a++) {
		switch (*a) {
		case 'R':
			return p < end ? *p : -1;
		case 'L': /* LSDA encoding */
			p++;
			break;
		case 'P': /* personality: encoding, then the encoded pointer */
			if (p >= end || (*p & 0x70) == DW_EH_PE_aligned)
				return -1;
			size = value_size(w, *p);
			if (!size)
				return -1;
			p += 1 + size;
			break;
		case 'S': /* signal frame */
		case 'B': /* aarch64 BTI */
			break;
		default:
			return -1;
		}
	}
	return DW_EH_PE_absptr;
}

static int fde_encoding(struct walk *w, Dwarf_Off cie_off)
{
	Dwarf_CFI_Entry e;
	Dwarf_Off next;
	size_t i;
	int enc = -1;

	for (i = 0; i < w->ncies; i++)
		if (w->cies[i].off == cie_off)
			return w->cies[i].enc;
	if (!dwarf_next_cfi(w->e_ident, &w->data, w->eh_frame, cie_off, &next, &e) &&
	    dwarf_cfi_cie_p(&e))
		enc = cie_fde_encoding(w, &e.cie);
	i = w->ncies < MAX_CIES ? w->ncies++ : w->evict++ % MAX_CIES;
	w->cies[i] = (struct cie_enc){ cie_off, enc };
	return enc;
}

static int push(struct rpt_fdes *f, uint64_t start, uint64_t end)
{
	struct rpt_fde *grown;
	size_t cap;

	if (f->n == f->cap) {
		cap = f->cap ? f->cap * 2 : 256;
		grown = realloc(f->v, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		f->v = grown;
		f->cap = cap;
	}
	f->v[f->n++] = (struct rpt_fde){ start, end };
	return 0;
}

/* Decode @fde and add its range. 0 (also when it does not decode) or -ENOMEM. */
static int add_fde(struct rpt_fdes *f, struct walk *w, const Dwarf_FDE *fde)
{
	const uint8_t *p = fde->start;
	int enc = fde_encoding(w, fde->CIE_pointer);
	uint64_t start, range;
	unsigned size;

	if (enc < 0 || (enc & DW_EH_PE_indirect))
		return 0;
	size = value_size(w, enc);
	if (!size || fde->end < p || (size_t)(fde->end - p) < 2 * (size_t)size)
		return 0;
	start = read_value(w, enc, p, size);
	switch (enc & 0x70) {
	case DW_EH_PE_absptr:
		break;
	case DW_EH_PE_pcrel:
		start += w->vaddr + (uint64_t)(p - (const uint8_t *)w->data.d_buf);
		break;
	default:
		return 0;
	}
	if (w->addr_size == 4)
		start &= 0xffffffffu;
	range = read_value(w, 0, p + size, size); /* a length: never signed */
	/* no range, a wrap, or a function the linker discarded (left at address 0) */
	if (!range || !start || start + range < start)
		return 0;
	return push(f, start, start + range);
}

int rpt_fdes_parse(struct rpt_fdes *f, const unsigned char *e_ident, const void *buf, size_t len,
		   uint64_t vaddr, bool eh_frame)
{
	struct walk w = { .e_ident = e_ident, .vaddr = vaddr, .eh_frame = eh_frame };
	Dwarf_Off off = 0, next;
	Dwarf_CFI_Entry e;
	int r, ret = 0;

	w.data.d_buf = (void *)buf;
	w.data.d_size = len;
	w.data.d_type = ELF_T_BYTE;
	w.big_endian = e_ident[EI_DATA] == ELFDATA2MSB;
	w.addr_size = e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	for (;;) {
		next = (Dwarf_Off)-1;
		r = dwarf_next_cfi(e_ident, &w.data, eh_frame, off, &next, &e);
		if (r == 1)
			break;
		if (!r && !dwarf_cfi_cie_p(&e))
			ret = add_fde(f, &w, &e.fde);
		/* an entry we cannot size (or a zero terminator) ends the walk */
		if (ret || next == (Dwarf_Off)-1 || next <= off)
			break;
		off = next;
	}
	return ret;
}

static int cmp_fde(const void *a, const void *b)
{
	const struct rpt_fde *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end) /* bigger first: kept when one start is listed twice */
		return x->end > y->end ? -1 : 1;
	return 0;
}

void rpt_fdes_sort(struct rpt_fdes *f)
{
	size_t i, out;

	if (!f->n)
		return;
	util_qsort(f->v, f->n, sizeof(*f->v), cmp_fde);
	for (i = 1, out = 1; i < f->n; i++)
		if (f->v[i].start != f->v[out - 1].start)
			f->v[out++] = f->v[i];
	f->n = out;
}

/* Parse section @name of @elf into @f; a missing or unreadable section adds nothing. */
static int read_section(struct rpt_fdes *f, Elf *elf, const char *name, bool eh_frame)
{
	const unsigned char *ident = (const unsigned char *)elf_getident(elf, NULL);
	Elf_Scn *scn = NULL;
	const char *sname;
	GElf_Shdr shdr;
	Elf_Data *data;
	size_t shstrndx;

	if (!ident || elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS ||
		    (shdr.sh_flags & SHF_COMPRESSED))
			continue;
		sname = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (!sname || strcmp(sname, name))
			continue;
		data = elf_rawdata(scn, NULL);
		if (!data || !data->d_buf)
			return 0;
		return rpt_fdes_parse(f, ident, data->d_buf, data->d_size, shdr.sh_addr, eh_frame);
	}
	return 0;
}

int rpt_fdes_read(struct rpt_fdes *f, Elf *elf)
{
	int ret = read_section(f, elf, ".eh_frame", true);

	if (!ret && !f->n)
		ret = read_section(f, elf, ".debug_frame", false);
	rpt_fdes_sort(f);
	return ret;
}

const struct rpt_fde *rpt_fdes_find(const struct rpt_fdes *f, uint64_t vaddr)
{
	size_t lo = 0, hi = f->n, mid;

	while (lo < hi) { /* first FDE starting above vaddr */
		mid = lo + (hi - lo) / 2;
		if (f->v[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && vaddr < f->v[lo - 1].end ? &f->v[lo - 1] : NULL;
}

void rpt_fdes_release(struct rpt_fdes *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}

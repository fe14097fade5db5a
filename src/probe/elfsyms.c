/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * elfsyms.c — an ELF file's section names looked up (elfsyms.h), by its
 * headers alone: the section header table and its string table, in the
 * file's own class (32 or 64 bits) and the host's byte order.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/elfsyms.h"
#include "util.h"

/* Largest section string table read. */
#define SHSTR_MAX ((size_t)1 << 20)

/* n bytes at off of fd into buf. 0, or -1. */
static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	ssize_t got = pread(fd, buf, n, (off_t)off);

	return got == (ssize_t)n ? 0 : -1;
}

/* The section headers' offset, count, entry size and string index. */
struct shdrs {
	uint64_t off;
	size_t num, entsize, strndx;
	int is64;
};

/* Section i's name offset, file offset and size. 0, or -1. */
static int section(int fd, const struct shdrs *h, size_t i, uint32_t *name, uint64_t *off,
		   uint64_t *size)
{
	if (h->is64) {
		Elf64_Shdr s;

		if (read_at(fd, &s, sizeof(s), h->off + i * h->entsize))
			return -1;
		*name = s.sh_name, *off = s.sh_offset, *size = s.sh_size;
	} else {
		Elf32_Shdr s;

		if (read_at(fd, &s, sizeof(s), h->off + i * h->entsize))
			return -1;
		*name = s.sh_name, *off = s.sh_offset, *size = s.sh_size;
	}
	return 0;
}

static int read_headers(int fd, struct shdrs *h)
{
	unsigned char ident[EI_NIDENT];

	if (read_at(fd, ident, sizeof(ident), 0) || memcmp(ident, ELFMAG, SELFMAG))
		return -1;
	h->is64 = ident[EI_CLASS] == ELFCLASS64;
	if (h->is64) {
		Elf64_Ehdr e;

		if (read_at(fd, &e, sizeof(e), 0) || e.e_shentsize < sizeof(Elf64_Shdr))
			return -1;
		h->off = e.e_shoff, h->num = e.e_shnum, h->entsize = e.e_shentsize;
		h->strndx = e.e_shstrndx;
	} else {
		Elf32_Ehdr e;

		if (read_at(fd, &e, sizeof(e), 0) || e.e_shentsize < sizeof(Elf32_Shdr))
			return -1;
		h->off = e.e_shoff, h->num = e.e_shnum, h->entsize = e.e_shentsize;
		h->strndx = e.e_shstrndx;
	}
	return h->strndx < h->num ? 0 : -1;
}

int pab_elf_names(const char *path, struct pab_elf_names *out, char **why)
{
	struct shdrs h;
	uint32_t name;
	uint64_t off, size, str_size;
	char *strs = NULL;
	size_t i;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (fd < 0) {
		*why = xasprintf("cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (read_headers(fd, &h) || section(fd, &h, h.strndx, &name, &off, &str_size) ||
	    str_size > SHSTR_MAX)
		goto out_not_elf;
	strs = xmalloc((size_t)str_size + 1);
	if (read_at(fd, strs, (size_t)str_size, off))
		goto out_not_elf;
	strs[str_size] = '\0';
	for (i = 0; i < h.num; i++) {
		const char *s;

		if (section(fd, &h, i, &name, &off, &size))
			goto out_not_elf;
		s = strs + (name < str_size ? name : str_size);
		out->symtab |= !strcmp(s, ".symtab");
		out->debug |= !strcmp(s, ".debug_info");
	}
	ret = 0;
	goto out_close;
out_not_elf:
	*why = xasprintf("'%s' is not an ELF file perfab can read", path);
out_close:
	free(strs);
	close(fd);
	return ret;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * elfsyms.h — what names a profile of a program can give its code: whether
 * its ELF file keeps a symbol table (function names) and debug info
 * (source files and lines). A stripped binary's own functions show in a
 * profile as "???" (doc/attribution.md §4), which the ledger says.
 */
#ifndef PAB_ELFSYMS_H
#define PAB_ELFSYMS_H

/* What an ELF file holds of its names. */
struct pab_elf_names {
	int symtab;  /* a .symtab section: every function named */
	int debug;   /* a .debug_info section: files and lines */
};

/*
 * pab_elf_names: read path's section headers into *out. Returns 0, or -1
 * with *why (new memory) when path is not a readable 64- or 32-bit ELF
 * file (a script: its interpreter is the program profiled).
 */
int pab_elf_names(const char *path, struct pab_elf_names *out, char **why);

#endif /* PAB_ELFSYMS_H */

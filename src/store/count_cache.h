/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * count_cache.h — the count cache: instruction counts of earlier runs, by
 * program, so a run counts under valgrind only what it has not counted
 * before (doc/method.md, "Exact counts").
 *
 * One JSON file, "perfab-count-cache/1":
 *
 *   {"schema": "perfab-count-cache/1",
 *    "entries": [{"key": 64 hex digits, "instructions": COUNT}, ...]}
 *
 * A key is the SHA-256 of everything a count depends on (the caller's
 * text: the program's identity, valgrind's, the run's working directory
 * and input, the CPU); a count is stored once two counts of its key in
 * one run agreed. The file is read as untrusted input: a regular file of
 * at most PAB_COUNT_CACHE_MAX_BYTES, a file that is not a cache is
 * ignored whole, a malformed entry is skipped; what was ignored is said
 * in a note, and nothing ignored is ever served. It is written by the
 * safe writer (tempfile.h) with what it held when written merged in, so
 * two runs that write it lose nothing but, at worst, each other's newest
 * entries (counted again next time). Nothing here prints.
 */
#ifndef PAB_STORE_COUNT_CACHE_H
#define PAB_STORE_COUNT_CACHE_H

#include <stddef.h>

#define PAB_COUNT_CACHE_SCHEMA "perfab-count-cache/1"
/* The largest file read, and the most entries kept (the newest). */
#define PAB_COUNT_CACHE_MAX_BYTES (8u << 20)
#define PAB_COUNT_CACHE_MAX_ENTRIES 50000

struct pab_count_cache_entry {
	char key[65];        /* 64 lower-case hex digits */
	double instructions; /* a whole count, > 0 */
};

struct pab_count_cache {
	char *path;                            /* owned */
	struct pab_count_cache_entry *entries; /* the file's, oldest first (a
						* key twice: the later one holds) */
	size_t n, alloc;
	struct pab_count_cache_entry *fresh;   /* put since the file was read */
	size_t n_fresh, alloc_fresh;
};

/*
 * pab_count_cache_default_path: $XDG_CACHE_HOME/perfab/counts.json, else
 * $HOME/.cache/perfab/counts.json. New string, or NULL when neither
 * variable names an absolute directory.
 */
char *pab_count_cache_default_path(void);

/*
 * pab_count_cache_load: c ready for the file at path (copied), with what
 * it holds. Absent: empty, no note. Returns 0; *note (new memory, caller
 * frees) says what was ignored and why — the whole file (not a regular
 * file, too large, not JSON, not a count cache) or some entries — else
 * NULL. pab_count_cache_release() frees c either way.
 */
int pab_count_cache_load(struct pab_count_cache *c, const char *path, char **note);
void pab_count_cache_release(struct pab_count_cache *c);

/* The key of text: its SHA-256 in hex, into key[65]. */
void pab_count_cache_key(const char *text, char key[65]);

/* 1 with *instructions when c holds key, else 0. */
int pab_count_cache_get(const struct pab_count_cache *c, const char *key,
			double *instructions);

/* Hold instructions for key (replacing what key held). */
void pab_count_cache_put(struct pab_count_cache *c, const char *key, double instructions);

/*
 * pab_count_cache_save: write the entries put since the file was read to
 * it, atomically, after the valid entries it holds now (another run's
 * among them) but those of the same keys, keeping the newest
 * PAB_COUNT_CACHE_MAX_ENTRIES; c then holds what was written. The default file's
 * directory is made (mode 0700) when mkdir_parent is 1. Returns 0, or -1
 * with a reason (new memory) in *why.
 */
int pab_count_cache_save(struct pab_count_cache *c, int mkdir_parent, char **why);

#endif /* PAB_STORE_COUNT_CACHE_H */

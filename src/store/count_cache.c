/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * count_cache.c — the count cache file, read as untrusted input and
 * written by the safe writer (count_cache.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "store/count_cache.h"
#include "store/digest.h"
#include "store/json_in.h"
#include "store/tempfile.h"
#include "util.h"

/* The largest count taken: exact in a double. */
#define MAX_COUNT 9007199254740992.0

char *pab_count_cache_default_path(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	/* The XDG base directory rules: a relative path is to be ignored. */
	if (xdg && xdg[0] == '/')
		return xasprintf("%s/perfab/counts.json", xdg);
	if (home && home[0] == '/')
		return xasprintf("%s/.cache/perfab/counts.json", home);
	return NULL;
}

void pab_count_cache_key(const char *text, char key[65])
{
	char *hex = pab_sha256_buf(text, strlen(text));

	snprintf(key, 65, "%s", hex);
	free(hex);
}

/* 1 when s is 64 lower-case hex digits. */
static int is_key(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[64] == '\0';
}

/* The entry of key in v[0..n) (the later of two), or NULL. */
static struct pab_count_cache_entry *find(struct pab_count_cache_entry *v, size_t n,
					  const char *key)
{
	size_t i;

	for (i = n; i-- > 0;)
		if (!strcmp(v[i].key, key))
			return &v[i];
	return NULL;
}

static void append(struct pab_count_cache_entry **v, size_t *n, size_t *alloc,
		   const char *key, double x)
{
	if (*n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 64;
		*v = xrealloc(*v, *alloc * sizeof(**v));
	}
	snprintf((*v)[*n].key, sizeof((*v)[*n].key), "%s", key);
	(*v)[(*n)++].instructions = x;
}

/*
 * The valid entries of the file's text after c's entries. Returns 0 with the number of malformed entries
 * in *bad, or -1 with *why (new memory) when the text is not a count
 * cache at all.
 */
static int parse(struct pab_count_cache *c, const char *text, size_t len, size_t *bad,
		 char **why)
{
	cJSON *root = pab_json_parse(text, len, why);
	const cJSON *schema, *entries, *it;

	*bad = 0;
	if (!root)
		return -1;
	schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	entries = cJSON_GetObjectItemCaseSensitive(root, "entries");
	if (!cJSON_IsString(schema) || strcmp(schema->valuestring, PAB_COUNT_CACHE_SCHEMA) ||
	    !cJSON_IsArray(entries)) {
		*why = xasprintf("not a count cache (\"schema\": \"%s\" and \"entries\" expected)",
				 PAB_COUNT_CACHE_SCHEMA);
		cJSON_Delete(root);
		return -1;
	}
	cJSON_ArrayForEach(it, entries) {
		const cJSON *key = cJSON_GetObjectItemCaseSensitive(it, "key");
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(it, "instructions");
		double x = cJSON_IsNumber(n) ? n->valuedouble : NAN;

		if (!cJSON_IsString(key) || !is_key(key->valuestring) || !isfinite(x) ||
		    x < 1 || x > MAX_COUNT || x != floor(x)) {
			++*bad;
			continue;
		}
		append(&c->entries, &c->n, &c->alloc, key->valuestring, x);
	}
	cJSON_Delete(root);
	return 0;
}

/* What is at path: 0 with the text (NULL and no note when absent), or -1
 * with *why. */
static int read_cache(const char *path, char **text, size_t *len, char **why)
{
	struct stat st;

	*text = NULL;
	if (lstat(path, &st) && errno == ENOENT)
		return 0;
	*text = pab_read_regular_file(path, "count cache", PAB_COUNT_CACHE_MAX_BYTES, len, why);
	return *text ? 0 : -1;
}

int pab_count_cache_load(struct pab_count_cache *c, const char *path, char **note)
{
	char *text, *why = NULL;
	size_t len = 0, bad = 0;

	memset(c, 0, sizeof(*c));
	c->path = xstrdup(path);
	*note = NULL;
	if (read_cache(path, &text, &len, &why)) {
		*note = xasprintf("%s: it is ignored, and what it held is counted again", why);
		free(why);
		return 0;
	}
	if (text && parse(c, text, len, &bad, &why)) {
		*note = xasprintf("count cache '%s' is ignored: %s; what it held is counted "
				  "again", path, why);
		free(why);
	} else if (bad) {
		*note = xasprintf("count cache '%s': %zu malformed entr%s ignored", path, bad,
				  bad == 1 ? "y" : "ies");
	}
	free(text);
	return 0;
}

void pab_count_cache_release(struct pab_count_cache *c)
{
	free(c->path);
	free(c->entries);
	free(c->fresh);
	memset(c, 0, sizeof(*c));
}

int pab_count_cache_get(const struct pab_count_cache *c, const char *key,
			double *instructions)
{
	const struct pab_count_cache_entry *en = find(c->fresh, c->n_fresh, key);

	if (!en)
		en = find(c->entries, c->n, key);
	if (!en)
		return 0;
	*instructions = en->instructions;
	return 1;
}

void pab_count_cache_put(struct pab_count_cache *c, const char *key, double instructions)
{
	struct pab_count_cache_entry *en = find(c->fresh, c->n_fresh, key);

	if (en)
		en->instructions = instructions;
	else
		append(&c->fresh, &c->n_fresh, &c->alloc_fresh, key, instructions);
}

/* The newest PAB_COUNT_CACHE_MAX_ENTRIES entries of c as the file's text. */
static int write_entries(FILE *f, void *arg)
{
	const struct pab_count_cache *c = arg;
	size_t i = c->n > PAB_COUNT_CACHE_MAX_ENTRIES ? c->n - PAB_COUNT_CACHE_MAX_ENTRIES : 0;
	int first = 1;

	fprintf(f, "{\"schema\":\"%s\",\"entries\":[", PAB_COUNT_CACHE_SCHEMA);
	for (; i < c->n; i++) {
		fprintf(f, "%s\n{\"key\":\"%s\",\"instructions\":%.0f}", first ? "" : ",",
			c->entries[i].key, c->entries[i].instructions);
		first = 0;
	}
	return fputs("\n]}\n", f) < 0 ? -1 : 0;
}

/* mkdir -p of path's directory, each made 0700; errors are left to the
 * writer, which names them. */
static void make_parent(const char *path)
{
	char *dir = xstrdup(path), *p;

	for (p = strchr(dir + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		(void)mkdir(dir, 0700);
		*p = '/';
	}
	free(dir);
}

int pab_count_cache_save(struct pab_count_cache *c, int mkdir_parent, char **why)
{
	struct pab_count_cache now = { 0 };
	char *text, *ignored = NULL;
	size_t len = 0, bad, i, k, j;
	int ret;

	/* What the file holds now, another run's entries among them (not
	 * what it held when read: that run may have written since). */
	if (read_cache(c->path, &text, &len, &ignored) || !text ||
	    parse(&now, text, len, &bad, &ignored))
		now.n = 0;
	free(text);
	free(ignored);
	/* Ours are the newest: the file's of the same keys go. */
	for (i = 0; i < c->n_fresh; i++) {
		for (k = j = 0; k < now.n; k++)
			if (strcmp(now.entries[k].key, c->fresh[i].key))
				now.entries[j++] = now.entries[k];
		now.n = j;
		append(&now.entries, &now.n, &now.alloc, c->fresh[i].key,
		       c->fresh[i].instructions);
	}
	if (mkdir_parent)
		make_parent(c->path);
	ret = pab_write_file_atomic(c->path, write_entries, &now, why);
	if (!ret) {
		free(c->entries);
		c->entries = now.entries;
		c->n = now.n;
		c->alloc = now.alloc;
		c->n_fresh = 0;
	} else {
		free(now.entries);
	}
	return ret;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * profile_dhat.c — DHAT's command line and its output read by allocation
 * site (profile_dhat.h). The file is JSON: "pps" lists the program points
 * (one per allocation stack) with "gb"/"gbk", the bytes and blocks live at
 * the global peak, and "fs", indices into "ftbl", the frames as text
 * ("0x4841: malloc (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)").
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "probe/profile_cg.h"
#include "probe/profile_dhat.h"
#include "probe/simcount.h"
#include "util.h"

/* Largest DHAT file read. */
#define DHAT_MAX_BYTES ((size_t)256 << 20)

char **pab_dhat_argv(const char *tool, const char *out_prefix, char *const *argv,
		     char ***opts_out)
{
	static const char *const fixed[] = {
		"-q", "--tool=dhat", "--trace-children=yes", "--log-file=/dev/null", "--vgdb=no",
	};

	return pab_valgrind_argv(tool, fixed, sizeof(fixed) / sizeof(fixed[0]),
				 xasprintf("--dhat-out-file=%s.%%p", out_prefix), argv, opts_out);
}

/* 1 when frame is the allocator's, not the program's: valgrind's
 * replacement malloc, or a C++ operator new / aligned allocation. */
static int allocator_frame(const char *frame)
{
	static const char *const names[] = {
		": malloc ", ": calloc ", ": realloc ", ": memalign ", ": posix_memalign ",
		": aligned_alloc ", ": valloc ", ": operator new", ": reallocarray ",
	};
	size_t i;

	if (strstr(frame, "vgpreload_"))
		return 1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strstr(frame, names[i]))
			return 1;
	return 0;
}

/* The frame's text without its address ("0x1091E4: "). */
static const char *frame_name(const char *frame)
{
	const char *colon = strstr(frame, ": ");

	return !strncmp(frame, "0x", 2) && colon ? colon + 2 : frame;
}

/* The site of program point pp, and its callers (new memory) into *where. */
static const char *site_of(const cJSON *pp, const cJSON *ftbl, char **where)
{
	const cJSON *fs = cJSON_GetObjectItemCaseSensitive(pp, "fs"), *it;
	const char *site = NULL;
	struct pab_strbuf sb = PAB_STRBUF_INIT;
	int callers = 0;

	cJSON_ArrayForEach(it, fs) {
		const cJSON *fr = cJSON_IsNumber(it) ? cJSON_GetArrayItem(ftbl, it->valueint) : NULL;

		if (!cJSON_IsString(fr))
			continue;
		if (!site) {
			if (!allocator_frame(fr->valuestring))
				site = frame_name(fr->valuestring);
		} else if (callers++ < 2) {
			pab_strbuf_addf(&sb, "%s%s", callers > 1 ? " < " : "",
					frame_name(fr->valuestring));
		}
	}
	*where = sb.len ? pab_strbuf_detach(&sb) : NULL;
	pab_strbuf_release(&sb);
	return site ? site : "(the allocator itself)";
}

int pab_profile_dhat_parse(const char *text, size_t len, struct pab_profile *p, char **why)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	const cJSON *pps, *ftbl, *pp;

	*why = NULL;
	pps = root ? cJSON_GetObjectItemCaseSensitive(root, "pps") : NULL;
	ftbl = root ? cJSON_GetObjectItemCaseSensitive(root, "ftbl") : NULL;
	if (!cJSON_IsArray(pps) || !cJSON_IsArray(ftbl)) {
		*why = xstrdup("it is not a DHAT output file (no pps and ftbl lists)");
		cJSON_Delete(root);
		return -1;
	}
	cJSON_ArrayForEach(pp, pps) {
		const cJSON *gb = cJSON_GetObjectItemCaseSensitive(pp, "gb");
		const cJSON *gbk = cJSON_GetObjectItemCaseSensitive(pp, "gbk");
		char *where = NULL;
		const char *site;

		if (!cJSON_IsNumber(gb) || gb->valuedouble <= 0)
			continue;
		site = site_of(pp, ftbl, &where);
		pab_profile_add(p, site, where, gb->valuedouble,
				cJSON_IsNumber(gbk) ? gbk->valuedouble : 0);
		free(where);
	}
	cJSON_Delete(root);
	pab_profile_merge(p);
	return 0;
}

/* pab_profile_dhat_parse as a pab_profile_parse_fn. */
static int parse_dhat(const char *text, size_t len, void *ctx, char **why)
{
	return pab_profile_dhat_parse(text, len, ctx, why);
}

int pab_profile_dhat_files(const char *dir, const char *base, struct pab_profile *p,
			   char **why)
{
	return pab_profile_read_files(dir, base, DHAT_MAX_BYTES, "DHAT", parse_dhat, p, why);
}

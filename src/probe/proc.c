/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proc.c — /proc readers (proc.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/proc.h"
#include "util.h"

/* Find "key" at a line start in text and parse the kB number after it. */
static int field_kib(const char *text, const char *key, uint64_t *bytes)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':') {
			char *end;
			unsigned long long kib;

			errno = 0;
			kib = strtoull(p + klen + 1, &end, 10);
			if (errno || end == p + klen + 1)
				break;
			*bytes = (uint64_t)kib * 1024;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	errno = ENOENT;
	return -1;
}

int pab_proc_status_bytes(pid_t pid, const char *field, uint64_t *bytes)
{
	char path[64], *text;
	int ret;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	text = read_file_max(path, 1 << 16, NULL);
	if (!text)
		return -1;
	ret = field_kib(text, field, bytes);
	free(text);
	return ret;
}

int pab_proc_smaps_rollup(pid_t pid, uint64_t *rss, uint64_t *pss)
{
	char path[64], *text;
	int ret;

	snprintf(path, sizeof(path), "/proc/%ld/smaps_rollup", (long)pid);
	text = read_file_max(path, 1 << 16, NULL);
	if (!text)
		return -1;
	ret = field_kib(text, "Rss", rss);
	if (!ret)
		ret = field_kib(text, "Pss", pss);
	free(text);
	return ret;
}

/* Append the children listed in /proc/PID/task/TID/children for all TIDs. */
static size_t add_children(pid_t pid, pid_t *out, size_t n, size_t max)
{
	char path[64];
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	d = opendir(path);
	if (!d)
		return n;
	while ((de = readdir(d))) {
		char cpath[300], *text, *p, *end;

		if (de->d_name[0] == '.')
			continue;
		snprintf(cpath, sizeof(cpath), "/proc/%ld/task/%s/children",
			 (long)pid, de->d_name);
		text = read_file_max(cpath, 1 << 16, NULL);
		if (!text)
			continue;
		for (p = text;; p = end) {
			long child = strtol(p, &end, 10);

			if (end == p)
				break;
			if (n < max)
				out[n] = (pid_t)child;
			n++;
		}
		free(text);
	}
	closedir(d);
	return n;
}

int pab_proc_tree(pid_t pid, pid_t *out, size_t max)
{
	size_t n = 0, i;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	if (access(path, F_OK))
		return -1;
	if (max)
		out[0] = pid;
	n = 1;
	/* Breadth-first: out[] doubles as the queue of processes to visit. */
	for (i = 0; i < n && i < max; i++)
		n = add_children(out[i], out, n, max);
	return (int)n;
}

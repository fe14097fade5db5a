/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * spawnloop.c — the reference for ci/bench-overhead.sh: run a command N
 * times with a plain posix_spawn + wait4 loop and print the median wall
 * time per run in seconds. No pinning, no sampling, no ptrace: what a
 * measurement costs when nothing measures it.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long n, i;
	double *walls;
	char *end;

	if (argc < 3) {
		fprintf(stderr, "usage: spawnloop N COMMAND [ARG...]\n");
		return 2;
	}
	n = strtol(argv[1], &end, 10);
	if (*end || n < 1 || n > 10000000) {
		fprintf(stderr, "spawnloop: N must be a positive number\n");
		return 2;
	}
	walls = calloc((size_t)n, sizeof(*walls));
	if (!walls)
		return 1;
	for (i = 0; i < n; i++) {
		struct timespec t0, t1;
		struct rusage ru;
		pid_t pid;
		int st;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (posix_spawn(&pid, argv[2], NULL, NULL, argv + 2, environ)) {
			perror("spawnloop: posix_spawn");
			return 1;
		}
		wait4(pid, &st, 0, &ru);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		walls[i] = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	}
	qsort(walls, (size_t)n, sizeof(*walls), cmp);
	printf("%.9f\n", walls[n / 2]);
	free(walls);
	return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cgroup_reset.c — cgroup resets on a thread of their own (cgroup_reset.h). */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "probe/cgroup_reset.h"
#include "util.h"

/* One reset in flight or done and not yet waited for. */
struct job {
	struct pab_cgroup *cg;
	int taken, done, ret, err;
	struct job *next;
};

struct pab_cgroup_resetter {
	const struct pab_pin *pin;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t work, finished;
	struct job *jobs;
	int quit;
};

static struct job *first_untaken(struct pab_cgroup_resetter *r)
{
	struct job *j;

	for (j = r->jobs; j && j->taken; j = j->next)
		;
	return j;
}

static void *resetter_main(void *arg)
{
	struct pab_cgroup_resetter *r = arg;
	struct job *j;

	pab_pin_sampler_thread(r->pin);
	pthread_mutex_lock(&r->lock);
	for (;;) {
		j = first_untaken(r);
		if (!j) {
			if (r->quit)
				break;
			pthread_cond_wait(&r->work, &r->lock);
			continue;
		}
		j->taken = 1;
		pthread_mutex_unlock(&r->lock);
		j->ret = pab_cgroup_reset(j->cg);
		j->err = j->ret ? errno : 0;
		pthread_mutex_lock(&r->lock);
		j->done = 1;
		pthread_cond_broadcast(&r->finished);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

struct pab_cgroup_resetter *pab_cgroup_resetter_new(const struct pab_pin *pin)
{
	struct pab_cgroup_resetter *r;
	int err;

	if (!pin || !pab_pin_active(pin))
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->pin = pin;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->work, NULL);
	pthread_cond_init(&r->finished, NULL);
	err = pthread_create(&r->thread, NULL, resetter_main, r);
	if (err) {
		pthread_cond_destroy(&r->finished);
		pthread_cond_destroy(&r->work);
		pthread_mutex_destroy(&r->lock);
		free(r);
		errno = err;
		return NULL;
	}
	return r;
}

void pab_cgroup_resetter_start(struct pab_cgroup_resetter *r, struct pab_cgroup *cg)
{
	struct job *j = xcalloc(1, sizeof(*j)), **tail;

	j->cg = cg;
	pthread_mutex_lock(&r->lock);
	for (tail = &r->jobs; *tail; tail = &(*tail)->next)
		;
	*tail = j;
	pthread_cond_signal(&r->work);
	pthread_mutex_unlock(&r->lock);
}

int pab_cgroup_resetter_wait(struct pab_cgroup_resetter *r, const struct pab_cgroup *cg)
{
	struct job **at, *j;
	int ret = 0, err = 0;

	pthread_mutex_lock(&r->lock);
	for (at = &r->jobs; *at && (*at)->cg != cg; at = &(*at)->next)
		;
	j = *at;
	if (j) {
		while (!j->done)
			pthread_cond_wait(&r->finished, &r->lock);
		ret = j->ret;
		err = j->err;
		*at = j->next;
		free(j);
	}
	pthread_mutex_unlock(&r->lock);
	errno = err;
	return ret;
}

void pab_cgroup_resetter_free(struct pab_cgroup_resetter *r)
{
	struct job *j;

	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	r->quit = 1;
	pthread_cond_signal(&r->work);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	while ((j = r->jobs)) {
		r->jobs = j->next;
		free(j);
	}
	pthread_cond_destroy(&r->finished);
	pthread_cond_destroy(&r->work);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

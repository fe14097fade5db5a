/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * run_costs.h — where a run ran and what measuring it cost, the typed
 * keys of the artifact's "run" object that the runner records rather than
 * plans (doc/artifact-schema.md §3): the binding (its CPU placement), the
 * sampler thread's CPU time and samples, perfab's own peak RSS, and what
 * the attribution phase cost (doc/attribution.md).
 * struct pab_experiment holds them (model/experiment.h); the store writes
 * them (store/run_record.h).
 */
#ifndef PAB_RUN_COSTS_H
#define PAB_RUN_COSTS_H

/* Which keys a struct pab_run_costs holds (its `given` bits). */
enum pab_cost_key {
	PAB_COST_BINDING = 1 << 0,         /* binding */
	PAB_COST_SAMPLER_CPU = 1 << 1,     /* sampler_cpu_s */
	PAB_COST_SAMPLER_SAMPLES = 1 << 2, /* sampler_samples */
	PAB_COST_PEAK_RSS = 1 << 3,        /* perfab_peak_rss */
	PAB_COST_ATTRIBUTION = 1 << 4,     /* attribution */
};

/*
 * A key is recorded when its bit is in `given`; one not given is left to
 * the experiment's run_json, as the artifact had it or absent. A run
 * records the binding as it starts and again, with the rest, after its
 * last rep: an artifact a run stopped or that was killed lacks the costs
 * (an older one may lack them all).
 */
struct pab_run_costs {
	unsigned given;                /* enum pab_cost_key bits */
	char *binding_json;            /* the binding object (probe/pin.h's
					* pab_pin_describe) as JSON text; owned */
	double sampler_cpu_s;          /* CPU seconds the RSS sampler used */
	double sampler_samples;        /* samples it took */
	double perfab_peak_rss_bytes;  /* perfab's own VmHWM */
	char *attribution_json;        /* the attribution phase's record (mode,
					* cost_s, made) as JSON text; owned */
};

/* Nothing given, NaN numbers. */
void pab_run_costs_init(struct pab_run_costs *c);
/* Free what c owns and init it again. */
void pab_run_costs_release(struct pab_run_costs *c);
/* A deep copy of src into dst (initialised by the call). */
void pab_run_costs_copy(struct pab_run_costs *dst, const struct pab_run_costs *src);

#endif /* PAB_RUN_COSTS_H */

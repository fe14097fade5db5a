/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_pool.c — the pooling rules (src/model/pool.h) on one table of
 * cases: what may be pooled, and the exact reason for every refusal.
 *
 * Each case takes real artifacts committed under tests/data/pool/ (tiny
 * runs of the calibration workload; tests/data/pool/README.md says how
 * they were made), edits one field of the second in memory — the jq edit
 * the old one-script-per-case end-to-end tests made —, reads both through
 * pab_artifact_parse() and pools them with pab_pool(), naming them with
 * the file names those scripts used, so the reasons asserted here are the
 * strings they grepped for. Some edits are refused earlier, by the
 * artifact reader (an unknown protocol, an arm order that breaks the
 * rotation): those cases assert the reader's reason. How the commands
 * report a refusal (exit 4, nothing written, ledger and gate alike) is
 * tests/e2e/pool_refuse.sh's.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "store/artifact_read.h"
#include "store/artifact_write.h"
#include "model/experiment.h"
#include "model/pool.h"
#include "model/sanity.h"
#include "util.h"

#include "unit.h"

/* A fixture of tests/data/pool/, parsed (caller deletes). */
static cJSON *fixture(const char *name)
{
	char path[256];
	size_t len;
	char *text;
	cJSON *root;

	snprintf(path, sizeof(path), "pool/%s", name);
	text = unit_data(path, &len);
	root = cJSON_ParseWithLength(text, len);
	free(text);
	ck_assert_msg(root != NULL, "'%s' is not JSON", path);
	return root;
}

/* ------------------------------------------------------------------ */
/* Edits, one per case (the jq filter of the old test in each comment). */

/* The item at a path like "arms[1].revision" (NULL when absent). */
static cJSON *at(cJSON *root, const char *path)
{
	const char *p = path;

	while (root && *p) {
		size_t n = strcspn(p, ".[");
		char key[64], *end;

		if (n) {
			snprintf(key, sizeof(key), "%.*s", (int)n, p);
			root = cJSON_GetObjectItemCaseSensitive(root, key);
			p += n;
		}
		if (*p == '[') {
			long i = strtol(p + 1, &end, 10);

			ck_assert_msg(*end == ']', "edit: bad path '%s'", path);
			root = cJSON_GetArrayItem(root, (int)i);
			p = end + 1;
		}
		if (*p == '.')
			p++;
	}
	return root;
}

/* Set path (an object member) to the JSON text value; NULL deletes it. */
static void set(cJSON *root, const char *path, const char *value)
{
	char parent[256];
	const char *dot = strrchr(path, '.');
	cJSON *obj, *v;

	snprintf(parent, sizeof(parent), "%.*s", dot ? (int)(dot - path) : 0, path);
	obj = dot ? at(root, parent) : root;
	ck_assert_msg(cJSON_IsObject(obj), "edit: no object at '%s'", parent);
	cJSON_DeleteItemFromObjectCaseSensitive(obj, dot ? dot + 1 : path);
	if (!value)
		return;
	v = cJSON_Parse(value);
	ck_assert_msg(v != NULL, "edit: '%s' is not JSON", value);
	cJSON_AddItemToObject(obj, dot ? dot + 1 : path, v);
}

/* Rename the key old of object o to new, in place (keeps its position). */
static void rename_key(cJSON *o, const char *old, const char *new)
{
	cJSON *it = cJSON_GetObjectItemCaseSensitive(o, old);

	if (!it)
		return;
	free(it->string);
	it->string = xstrdup(new);
}

/* .arms[1].name = "cand" | .rows[].reps[] |= (.order |= map(head -> cand)
 *   | .results and .status: key head -> cand) */
static void edit_rename_head(cJSON *b)
{
	cJSON *row, *rep, *name;

	set(b, "arms[1].name", "\"cand\"");
	cJSON_ArrayForEach(row, at(b, "rows"))
		cJSON_ArrayForEach(rep, at(row, "reps")) {
			cJSON_ArrayForEach(name, at(rep, "order"))
				if (!strcmp(name->valuestring, "head"))
					cJSON_SetValuestring(name, "cand");
			rename_key(at(rep, "results"), "head", "cand");
			rename_key(at(rep, "status"), "head", "cand");
		}
}

/* .rows[].reps[].results[].tree_peak_rss = null */
static void edit_no_tree_peak(cJSON *b)
{
	cJSON *row, *rep, *res;

	cJSON_ArrayForEach(row, at(b, "rows"))
		cJSON_ArrayForEach(rep, at(row, "reps"))
			cJSON_ArrayForEach(res, at(rep, "results"))
				set(res, "tree_peak_rss", "null");
}

/* .arms[1].argv += ["slowdown_pct=5"] */
static void edit_head_argv(cJSON *b)
{
	cJSON_AddItemToArray(at(b, "arms[1].argv"), cJSON_CreateString("slowdown_pct=5"));
}

/* .arms[].argv[0] = "/elsewhere/perfab-spin" */
static void edit_moved(cJSON *b)
{
	cJSON *arm;

	cJSON_ArrayForEach(arm, at(b, "arms"))
		cJSON_ReplaceItemInArray(at(arm, "argv"), 0,
					 cJSON_CreateString("/elsewhere/perfab-spin"));
}

/* .rows[0].reps |= .[0:2] */
static void edit_short(cJSON *b)
{
	cJSON *reps = at(b, "rows[0].reps");

	while (cJSON_GetArraySize(reps) > 2)
		cJSON_DeleteItemFromArray(reps, cJSON_GetArraySize(reps) - 1);
}

/* .rows[0].reps[1].order = .rows[0].reps[0].order */
static void edit_skew(cJSON *b)
{
	cJSON_ReplaceItemInObjectCaseSensitive(at(b, "rows[0].reps[1]"), "order",
					       cJSON_Duplicate(at(b, "rows[0].reps[0].order"), 1));
}

/* Every rep's base wall 1 ns longer: one run, no rep quite equal. */
static void edit_walls_1ns(cJSON *b)
{
	cJSON *rep, *wall;

	cJSON_ArrayForEach(rep, at(b, "rows[0].reps")) {
		wall = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(
				cJSON_GetObjectItemCaseSensitive(rep, "results"), "base"), "wall");
		cJSON_SetNumberValue(wall, wall->valuedouble + 1e-9);
	}
}

/* b's first rep measured, to the nanosecond, what a.json's first did. */
static void edit_walls_of_a(cJSON *b)
{
	static const char *const arms[] = { "base", "head", "null" };
	cJSON *a = fixture("a.json"), *from, *to;
	size_t i;

	for (i = 0; i < NELEMS(arms); i++) {
		from = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(at(a, "rows[0].reps[0].results"),
							 arms[i]), "wall");
		to = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(at(b, "rows[0].reps[0].results"),
							 arms[i]), "wall");
		cJSON_SetNumberValue(to, from->valuedouble);
	}
	cJSON_Delete(a);
}

/* .arms[].sha256 = null: the executable known by its path alone */
static void edit_no_digest(cJSON *b)
{
	cJSON *arm;

	cJSON_ArrayForEach(arm, at(b, "arms"))
		set(arm, "sha256", "null");
}

/* no digest, and moved */
static void edit_no_digest_moved(cJSON *b)
{
	edit_no_digest(b);
	edit_moved(b);
}

/* .rows[0].name = "other": a disjoint row of the same (plain) command */
static void edit_other_row(cJSON *b)
{
	set(b, "rows[0].name", "\"other\"");
}

/* another row, and tree_peak_rss never measured in it */
static void edit_other_row_no_tree_peak(cJSON *b)
{
	edit_other_row(b);
	edit_no_tree_peak(b);
}

/* ------------------------------------------------------------------ */
/* The table                                                          */

enum expect {
	POOLS,       /* pab_pool() merges them */
	REFUSED,     /* pab_pool() refuses, with the reasons below */
	UNION,       /* pab_pool() merges them as disjoint rows (shards) */
	UNREADABLE,  /* the artifact reader refuses the edited artifact */
	BAD_ORDER,   /* ... as data that breaks the protocol (PAB_ARTIFACT_BAD_PROTOCOL) */
};

struct pool_case {
	const char *name;
	const char *a, *la;      /* first input: fixture, label */
	const char *b, *lb;      /* second input, edited below */
	const char *set_path;    /* set this member of b ... */
	const char *set_json;    /* ... to this JSON (NULL: delete it) */
	void (*edit)(cJSON *b);  /* or edit b like this */
	int swap;                /* pool (b, a) */
	enum expect expect;
	const char *reason[2];   /* substrings of the reason, in the old tests' words
				  * ("!TEXT": a substring it must not have) */
};

static const struct pool_case cases[] = {
	/* pool_refuse_cpu.sh */
	{ "two runs pool", "a.json", "a.json", "b.json", "b.json", NULL, NULL, NULL, 0, POOLS, { NULL } },
	{ "another CPU model", "a.json", "a.json", "b.json", "cpu.json",
	  "host.cpu_model", "\"Imaginary CPU 9000\"", NULL, 0, REFUSED,
	  { "CPU model differs", "Imaginary CPU 9000" } },
	{ "no CPU model", "a.json", "a.json", "b.json", "nocpu.json",
	  "host.cpu_model", NULL, NULL, 0, REFUSED, { "records no CPU model" } },
	/* pool_refuse_arms.sh */
	{ "an arm renamed", "a.json", "a.json", "b.json", "renamed.json", NULL, NULL,
	  edit_rename_head, 0, REFUSED,
	  { "arms differ: arm 2 is 'head' in 'a.json' and 'cand'" } },
	{ "another arm count", "a.json", "a.json", "two-arms.json", "two.json", NULL, NULL, NULL,
	  0, REFUSED, { "arms differ: 'a.json' has 3 arms, 'two.json' has 2" } },
	/* pool_refuse_revision.sh */
	{ "another revision", "a.json", "a.json", "b.json", "rev.json",
	  "arms[1].revision", "\"deadbeef\"", NULL, 0, REFUSED,
	  { "arm 'head': revision differs", "deadbeef" } },
	/* Labels of one commit with other builds ("COMMIT files:..."): the
	 * reason adds how to build once; another commit, or a label that
	 * only starts like the commit, does not. */
	{ "one commit, other builds", "a.json", "a.json", "b.json", "build.json",
	  "arms[1].revision", "\"abc123 files:2222\"", NULL, 0, REFUSED,
	  { "arm 'head': revision differs", "pin runs-on to one image version" } },
	{ "one commit, one build unlabelled", "a.json", "a.json", "b.json", "build.json",
	  "arms[1].revision", "\"abc123\"", NULL, 0, REFUSED,
	  { "arm 'head': revision differs", "pin runs-on to one image version" } },
	{ "another commit, labelled alike", "a.json", "a.json", "b.json", "build.json",
	  "arms[1].revision", "\"abc124 files:1111\"", NULL, 0, REFUSED,
	  { "arm 'head': revision differs", "!pin runs-on" } },
	{ "a commit that only starts alike", "a.json", "a.json", "b.json", "build.json",
	  "arms[1].revision", "\"abc1234 files:1111\"", NULL, 0, REFUSED,
	  { "arm 'head': revision differs", "!pin runs-on" } },
	/* pool_refuse_sha256.sh */
	{ "another executable", "a.json", "a.json", "b.json", "sha.json", "arms[1].sha256",
	  "\"0000000000000000000000000000000000000000000000000000000000000000\"", NULL, 0,
	  REFUSED, { "arm 'head': executable differs: sha256", "pin runs-on to one image version" } },
	{ "another command", "a.json", "a.json", "b.json", "argv.json", NULL, NULL,
	  edit_head_argv, 0, REFUSED, { "arm 'head': command differs" } },
	{ "another environment", "a.json", "a.json", "b.json", "env.json",
	  "arms[1].env", "{\"MALLOC_ARENA_MAX\": \"1\"}", NULL, 0, REFUSED,
	  { "arm 'head': environment additions differ" } },
	{ "the executable moved, same digest", "a.json", "a.json", "b.json", "moved.json",
	  NULL, NULL, edit_moved, 0, POOLS, { NULL } },
	/* pool_refuse_protocol.sh: the reader refuses another protocol or
	 * none; `perfab pool` then names it (tests/e2e/pool_refuse.sh). */
	{ "another protocol", "a.json", "a.json", "b.json", "proto.json",
	  "protocol", "\"forward-backward/0\"", NULL, 0, UNREADABLE,
	  { "forward-backward/0" } },
	{ "no protocol", "a.json", "a.json", "b.json", "noproto.json",
	  "protocol", NULL, NULL, 0, UNREADABLE, { "protocol" } },
	/* pool_refuse_params.sh */
	{ "other parameters", "a.json", "a.json", "b.json", "params.json",
	  "rows[0].params", "{\"work\": \"2000\"}", NULL, 0, REFUSED,
	  { "row 'command': parameters differ between 'a.json' and 'params.json'" } },
	{ "other row arguments", "a.json", "a.json", "b.json", "rowargv.json",
	  "rows[0].argv", "[\"--extra\"]", NULL, 0, REFUSED,
	  { "row 'command': its workload or arguments differ" } },
	/* pool_refuse_control.sh */
	{ "a control in one only", "a.json", "a.json", "b.json", "ctl.json",
	  "rows[0].control", "true", NULL, 0, REFUSED,
	  { "row 'command': a control in 'ctl.json' but not in 'a.json'" } },
	/* pool_refuse_metrics.sh: either order names the artifact that has it */
	{ "a metric never measured", "a.json", "a.json", "b.json", "nometric.json", NULL, NULL,
	  edit_no_tree_peak, 0, REFUSED,
	  { "metric set differs: row 'command' measured tree_peak_rss in 'a.json' and never in "
	    "'nometric.json'" } },
	{ "a metric never measured, other order", "a.json", "a.json", "b.json", "nometric.json",
	  NULL, NULL, edit_no_tree_peak, 1, REFUSED,
	  { "measured tree_peak_rss in 'a.json' and never in 'nometric.json'" } },
	/* pool_refuse_incomplete.sh */
	{ "incomplete", "a.json", "a.json", "b.json", "inc.json", "complete", "false", NULL, 0,
	  REFUSED, { "'inc.json' is incomplete" } },
	/* pool_refuse_unbalanced.sh */
	{ "not whole blocks", "a.json", "a.json", "b.json", "short.json", NULL, NULL, edit_short,
	  0, REFUSED, { "'short.json' is unbalanced" } },
	{ "an arm order off the rotation", "a.json", "a.json", "b.json", "skew.json", NULL, NULL,
	  edit_skew, 0, BAD_ORDER,
	  { "row 'command' rep 2: the arm order is not the rotate-reverse/1 order" } },
	/* pool_refuse_sanity.sh: a real run the gate stopped, and the same
	 * marked complete */
	{ "stopped by the sanity gate", "a.json", "a.json", "gated.json", "blown.json", NULL, NULL,
	  NULL, 0, REFUSED, { "'blown.json' was stopped by the sanity gate" } },
	{ "stopped by the gate, marked complete", "a.json", "a.json", "gated.json", "blown2.json",
	  "complete", "true", NULL, 0, REFUSED, { "stopped by the sanity gate" } },
	/* pool_refuse_overlap.sh: a full run and its first shard */
	{ "rows overlap in part", "two-rows.json", "full.json", "shard1.json", "s1.json", NULL,
	  NULL, NULL, 0, REFUSED,
	  { "rows overlap only in part: row 'r2' is in 'full.json' but not in 's1.json'" } },
	/* One run given twice: known by its journal id and seed. */
	{ "the same run twice", "a.json", "a.json", "a.json", "again.json", NULL, NULL, NULL,
	  0, REFUSED,
	  { "'a.json' and 'again.json' hold the same run (journal id "
	    "6a9b161d6952921646fe200cf2aff916, seed 5952481323951257)", "give each run once" } },
	{ "the same run, every wall 1 ns off", "a.json", "a.json", "a.json", "again.json", NULL,
	  NULL, edit_walls_1ns, 0, REFUSED,
	  { "hold the same run (journal id 6a9b161d6952921646fe200cf2aff916" } },
	{ "the same journal id, another seed", "a.json", "a.json", "a.json", "reseeded.json",
	  "seed", "1", edit_walls_1ns, 0, POOLS, { NULL } },
	{ "independent runs, equal walls", "a.json", "a.json", "b.json", "b.json", NULL, NULL,
	  edit_walls_of_a, 0, POOLS, { NULL } },
	/* An input that names no run: only its measurements can tell. */
	{ "the same run twice, no journal id", "a.json", "a.json", "a.json", "again.json",
	  "journal", "null", NULL, 0, REFUSED,
	  { "'a.json' and 'again.json' hold the same measurements (row 'command', rep 1 of "
	    "'a.json' is rep 1 of 'again.json')", "give each run once" } },
	/* The settings that make the experiment (pool.h). */
	{ "another scale", "a.json", "a.json", "b.json", "scale.json", "run.scale", "2", NULL, 0,
	  REFUSED, { "workload scale differs: 1 in 'a.json', 2 in 'scale.json'" } },
	{ "other rules", "a.json", "a.json", "b.json", "rules.json", "rules", "\"perfab/1\"",
	  NULL, 0, REFUSED, { "rules differ: perfab/2 in 'a.json', perfab/1 in 'rules.json'" } },
	{ "another tolerance", "a.json", "a.json", "b.json", "tol.json", "tolerance.cpu", "5",
	  NULL, 0, REFUSED, { "tolerance for cpu differs: 2% in 'a.json', 5% in 'tol.json'" } },
	{ "another equivalence margin", "a.json", "a.json", "b.json", "margin.json",
	  "equivalence_margin", "5", NULL, 0, REFUSED,
	  { "equivalence margin differs: 3% in 'a.json', 5% in 'margin.json'" } },
	/* Every tolerance, each at the smallest difference a run can record. */
	{ "another throughput tolerance", "a.json", "a.json", "b.json", "tol.json",
	  "tolerance.throughput", "2.5", NULL, 0, REFUSED,
	  { "tolerance for throughput differs: 2% in 'a.json', 2.5% in 'tol.json'" } },
	{ "another minor_faults tolerance", "a.json", "a.json", "b.json", "tol.json",
	  "tolerance.minor_faults", "1", NULL, 0, REFUSED,
	  { "tolerance for minor_faults differs: 2% in 'a.json', 1% in 'tol.json'" } },
	{ "another peak_rss tolerance", "a.json", "a.json", "b.json", "tol.json",
	  "tolerance.peak_rss", "3", NULL, 0, REFUSED, { "tolerance for peak_rss differs" } },
	{ "another drain_rss tolerance", "a.json", "a.json", "b.json", "tol.json",
	  "tolerance.drain_rss", "2.01", NULL, 0, REFUSED, { "tolerance for drain_rss differs" } },
	/* A key's value, not just its presence: both inputs have the key. */
	{ "an environment value differs", "a.json", "a.json", "b.json", "env.json",
	  "arms[1].env", "{\"X\": \"2\"}", NULL, 0, REFUSED,
	  { "arm 'head': environment additions differ between 'a.json' and 'env.json'" } },
	{ "the same environment", "a.json", "a.json", "b.json", "env.json",
	  "arms[1].env", "{\"X\": \"1\"}", NULL, 0, POOLS, { NULL } },
	{ "an environment key differs", "a.json", "a.json", "b.json", "env.json",
	  "arms[1].env", "{\"Y\": \"1\"}", NULL, 0, REFUSED,
	  { "arm 'head': environment additions differ" } },
	{ "a parameter value differs", "a.json", "a.json", "b.json", "params.json",
	  "rows[0].params", "{\"work\": \"2000\"}", NULL, 0, REFUSED,
	  { "row 'command': parameters differ between 'a.json' and 'params.json'" } },
	{ "the same parameters", "a.json", "a.json", "b.json", "params.json",
	  "rows[0].params", "{\"work\": \"1000\"}", NULL, 0, POOLS, { NULL } },
	/* Digests absent: the path must then match. */
	{ "no digest, another path", "a.json", "a.json", "b.json", "moved.json", NULL, NULL,
	  edit_no_digest_moved, 0, REFUSED, { "arm 'base': command differs between" } },
	{ "no digest, the same path", "a.json", "a.json", "b.json", "nodigest.json", NULL, NULL,
	  edit_no_digest, 0, POOLS, { NULL } },
	{ "a digest in one only", "a.json", "a.json", "b.json", "nodigest.json", NULL, NULL,
	  edit_no_digest, 0, REFUSED, { "arm 'base': executable differs: sha256 87c3", "(none)" } },
	{ "another run input", "a.json", "a.json", "b.json", "inp.json", "run.input",
	  "\"in.txt\"", NULL, 0, REFUSED,
	  { "input differs: '(none)' in 'a.json', 'in.txt' in 'inp.json'" } },
	{ "another prepare", "a.json", "a.json", "b.json", "prep.json", "arms[1].prepare",
	  "\"make -j2\"", NULL, 0, REFUSED,
	  { "arm 'head': prepare differs between 'a.json' and 'prep.json'" } },
	{ "another workload", "a.json", "a.json", "b.json", "wl.json", "rows[0].workload",
	  "\"spin\"", NULL, 0, REFUSED,
	  { "row 'command': its workload or arguments differ between 'a.json' and 'wl.json'" } },
	{ "another program", "a.json", "a.json", "b.json", "prog.json", "rows[0].program",
	  "\"perfab-spin\"", NULL, 0, REFUSED,
	  { "row 'command': its workload or arguments differ" } },
	/* Disjoint rows (shards) pool, unless their metric sets differ. */
	{ "disjoint rows", "a.json", "a.json", "b.json", "other.json", NULL, NULL,
	  edit_other_row, 0, UNION, { NULL } },
	{ "disjoint rows, another metric set", "a.json", "a.json", "b.json", "other.json", NULL,
	  NULL, edit_other_row_no_tree_peak, 0, REFUSED,
	  { "metric set differs: plain-command rows measured tree_peak_rss in 'a.json' and "
	    "never in 'other.json'" } },
	{ "disjoint rows, another metric set, other order", "a.json", "a.json", "b.json",
	  "other.json", NULL, NULL, edit_other_row_no_tree_peak, 1, REFUSED,
	  { "plain-command rows measured tree_peak_rss in 'a.json' and never in 'other.json'" } },
};

/* Cases that edit the first input too (the key both have, the digest
 * both lack), by name. */
static const struct a_edit {
	const char *name;
	const char *path, *json;  /* set this member of a to this JSON */
	void (*edit)(cJSON *a);   /* or edit a like this */
} a_edits[] = {
	{ "an environment value differs", "arms[1].env", "{\"X\": \"1\"}", NULL },
	{ "the same environment", "arms[1].env", "{\"X\": \"1\"}", NULL },
	{ "an environment key differs", "arms[1].env", "{\"X\": \"1\"}", NULL },
	{ "a parameter value differs", "rows[0].params", "{\"work\": \"1000\"}", NULL },
	{ "the same parameters", "rows[0].params", "{\"work\": \"1000\"}", NULL },
	{ "no digest, another path", NULL, NULL, edit_no_digest },
	{ "no digest, the same path", NULL, NULL, edit_no_digest },
	{ "one commit, other builds", "arms[1].revision", "\"abc123 files:1111\"", NULL },
	{ "one commit, one build unlabelled", "arms[1].revision", "\"abc123 files:1111\"", NULL },
	{ "another commit, labelled alike", "arms[1].revision", "\"abc123 files:1111\"", NULL },
	{ "a commit that only starts alike", "arms[1].revision", "\"abc123 files:1111\"", NULL },
};

/* b of case c, edited, as text (caller frees). */
static char *edited(const struct pool_case *c)
{
	cJSON *b = fixture(c->b);
	char *text;

	if (c->set_path)
		set(b, c->set_path, c->set_json);
	if (c->edit)
		c->edit(b);
	text = cJSON_PrintUnformatted(b);
	cJSON_Delete(b);
	return text;
}

/* a of case c, with its own edit, parsed into e. */
static int parse_a(const struct pool_case *c, struct pab_experiment *e, char **why)
{
	cJSON *a = fixture(c->a);
	char *text;
	size_t i;
	int ret;

	for (i = 0; i < NELEMS(a_edits); i++) {
		if (strcmp(a_edits[i].name, c->name))
			continue;
		if (a_edits[i].path)
			set(a, a_edits[i].path, a_edits[i].json);
		if (a_edits[i].edit)
			a_edits[i].edit(a);
	}
	text = cJSON_PrintUnformatted(a);
	ret = pab_artifact_parse(text, strlen(text), e, why);
	free(text);
	cJSON_Delete(a);
	return ret;
}

static int parse_text(const char *text, struct pab_experiment *e, char **why)
{
	return pab_artifact_parse(text, strlen(text), e, why);
}

static int parse_fixture(const char *name, struct pab_experiment *e, char **why)
{
	cJSON *root = fixture(name);
	char *text = cJSON_PrintUnformatted(root);
	int ret = parse_text(text, e, why);

	free(text);
	cJSON_Delete(root);
	return ret;
}

static void assert_reasons(const struct pool_case *c, const char *why)
{
	size_t k;

	ck_assert_msg(why != NULL, "%s: no reason given", c->name);
	for (k = 0; k < NELEMS(c->reason) && c->reason[k]; k++) {
		if (c->reason[k][0] == '!')
			ck_assert_msg(!strstr(why, c->reason[k] + 1), "%s: the reason\n  %s\nsays\n  %s",
				      c->name, why, c->reason[k] + 1);
		else
			ck_assert_msg(strstr(why, c->reason[k]) != NULL,
				      "%s: the reason\n  %s\nlacks\n  %s", c->name, why, c->reason[k]);
	}
}

START_TEST(pool_table)
{
	const struct pool_case *c = &cases[_i];
	struct pab_experiment ea, eb, out;
	const struct pab_experiment *in[2];
	const char *labels[2];
	char *text = edited(c), *why = NULL;
	int ret;

	ck_assert_msg(!parse_a(c, &ea, &why), "%s: %s: %s", c->name, c->a, why);
	ret = parse_text(text, &eb, &why);
	free(text);
	if (c->expect == UNREADABLE || c->expect == BAD_ORDER) {
		ck_assert_msg(ret == (c->expect == BAD_ORDER ? PAB_ARTIFACT_BAD_PROTOCOL : -1),
			      "%s: the reader returned %d (%s)", c->name, ret, why ? why : "");
		assert_reasons(c, why);
		free(why);
		pab_experiment_release(&ea);
		return;
	}
	ck_assert_msg(ret == 0, "%s: the edited artifact is unreadable: %s", c->name, why);
	in[0] = c->swap ? &eb : &ea;
	in[1] = c->swap ? &ea : &eb;
	labels[0] = c->swap ? c->lb : c->la;
	labels[1] = c->swap ? c->la : c->lb;
	ret = pab_pool(in, labels, 2, &out, &why);
	if (c->expect == POOLS) {
		ck_assert_msg(ret == 0, "%s: refused: %s", c->name, why);
		ck_assert_ptr_null(why);
		ck_assert_uint_eq(out.n_rows, ea.n_rows);
		ck_assert_uint_eq(out.rows[0].n_reps, ea.rows[0].n_reps + eb.rows[0].n_reps);
		ck_assert_msg(!out.rows[0].failed, "%s: a row of two good runs failed", c->name);
		pab_experiment_release(&out);
	} else if (c->expect == UNION) {
		ck_assert_msg(ret == 0, "%s: refused: %s", c->name, why);
		ck_assert_uint_eq(out.n_rows, ea.n_rows + eb.n_rows);
		ck_assert_uint_eq(out.rows[0].n_reps, ea.rows[0].n_reps);
		pab_experiment_release(&out);
	} else {
		ck_assert_msg(ret == -1, "%s: pooled, but should be refused", c->name);
		assert_reasons(c, why);
		free(why);
	}
	pab_experiment_release(&ea);
	pab_experiment_release(&eb);
}
END_TEST

/* Each edit alone leaves a valid artifact that pools with itself: what
 * the table refuses is the difference, not damage (the old tests judged
 * renamed.json on its own for this). */
START_TEST(edits_alone_are_valid)
{
	const struct pool_case *c = &cases[_i];
	struct pab_experiment e, out;
	const struct pab_experiment *in[1];
	char *text, *why = NULL;

	if (c->expect != REFUSED || !strcmp(c->b, "gated.json") ||
	    (c->set_path && !strcmp(c->set_path, "complete")) || c->edit == edit_short)
		return; /* refused for what they are, alone too */
	text = edited(c);
	ck_assert_msg(!parse_text(text, &e, &why), "%s: unreadable: %s", c->name, why);
	free(text);
	in[0] = &e;
	ck_assert_msg(!pab_pool(in, &c->lb, 1, &out, &why), "%s: alone: %s", c->name, why);
	pab_experiment_release(&out);
	pab_experiment_release(&e);
}
END_TEST

/* The fixtures are what the cases say they are. */
START_TEST(fixtures_are_as_described)
{
	cJSON *a = fixture("a.json"), *g = fixture("gated.json"), *res, *rep;
	int measured = 0;

	/* pool_refuse_metrics.sh: "pick another probe" if this fails */
	cJSON_ArrayForEach(rep, at(a, "rows[0].reps"))
		cJSON_ArrayForEach(res, at(rep, "results"))
			measured += cJSON_IsNumber(at(res, "tree_peak_rss"));
	ck_assert_msg(measured > 0, "tree_peak_rss is not measured in a.json");
	ck_assert_int_eq(cJSON_GetArraySize(at(a, "arms")), 3);
	ck_assert(cJSON_IsTrue(at(a, "complete")));
	/* pool_refuse_sanity.sh: the gate did stop the run */
	ck_assert_str_eq(cJSON_GetStringValue(at(g, "stopped_by")), "sanity-gate");
	cJSON_Delete(a);
	cJSON_Delete(g);
}
END_TEST

/* two-rows.json cut to one row (keep 0 or 1) and marked shard spec (NULL:
 * "shard": null, as a pool of shards records it). */
static char *shard_of(int keep, const char *spec)
{
	cJSON *b = fixture("two-rows.json");
	char *text, json[64];

	cJSON_DeleteItemFromArray(at(b, "rows"), keep ? 0 : 1);
	if (spec)
		snprintf(json, sizeof(json), "\"%s\"", spec);
	else
		snprintf(json, sizeof(json), "null");
	set(b, "run.shard", json);
	set(b, "seed", keep ? "424242" : "434343");
	text = cJSON_PrintUnformatted(b);
	cJSON_Delete(b);
	return text;
}

static const char *spec_name(const char *spec)
{
	return spec ? spec : "null";
}

/* The shards of a run pool back in the unsharded row order when every
 * input names a valid shard I/N (1 <= I <= N <= 1000) of one N; else in
 * the order given. */
START_TEST(shard_order)
{
	static const struct {
		const char *first, *second; /* specs of the r2 shard, then the r1 shard */
		int r1_first;                /* the union starts with r1 */
	} c[] = {
		{ "2/2", "1/2", 1 },
		{ "1000/1000", "1/1000", 1 },
		{ "2/3", "1/3", 1 },
		{ "2/2", "1/3", 0 },     /* two N: not one sharded run */
		{ "3/2", "1/2", 0 },     /* I > N */
		{ "2/2", "0/2", 0 },     /* I = 0 */
		{ "2/1001", "1/1001", 0 }, /* N > 1000 */
		{ NULL, "1/2", 0 },      /* a shard recorded as null: not one */
		{ "2/2", NULL, 0 },
	};
	size_t i;

	for (i = 0; i < NELEMS(c); i++) {
		char *t2 = shard_of(1, c[i].first), *t1 = shard_of(0, c[i].second), *why = NULL;
		struct pab_experiment e1, e2, out;
		const struct pab_experiment *in[2] = { &e2, &e1 };
		const char *labels[2] = { "r2.json", "r1.json" };

		ck_assert_msg(!parse_text(t2, &e2, &why), "%s: %s", spec_name(c[i].first), why);
		ck_assert_msg(!parse_text(t1, &e1, &why), "%s: %s", spec_name(c[i].second), why);
		ck_assert_msg(!pab_pool(in, labels, 2, &out, &why), "%s + %s: %s",
			      spec_name(c[i].first), spec_name(c[i].second), why);
		ck_assert_uint_eq(out.n_rows, 2);
		ck_assert_msg(!strcmp(out.rows[0].name, c[i].r1_first ? "r1" : "r2"),
			      "%s + %s: the union starts with %s", spec_name(c[i].first),
			      spec_name(c[i].second), out.rows[0].name);
		ck_assert(!out.rows[0].failed && !out.rows[1].failed);
		pab_experiment_release(&out);
		pab_experiment_release(&e1);
		pab_experiment_release(&e2);
		free(t1);
		free(t2);
	}
}
END_TEST

/* A part overlap is named by the bigger input's first row the other
 * lacks, also when that is its very first row (r1, against r2 alone). */
START_TEST(part_overlap_names_the_first_row)
{
	cJSON *full = fixture("two-rows.json");
	char *tf = cJSON_PrintUnformatted(full), *t2 = shard_of(1, "2/2"), *why = NULL;
	struct pab_experiment ef, e2, out;
	const struct pab_experiment *in[2] = { &ef, &e2 };
	const char *labels[2] = { "full.json", "r2.json" };

	cJSON_Delete(full);
	ck_assert_msg(!parse_text(tf, &ef, &why), "%s", why);
	ck_assert_msg(!parse_text(t2, &e2, &why), "%s", why);
	ck_assert_int_eq(pab_pool(in, labels, 2, &out, &why), -1);
	ck_assert_msg(strstr(why, "rows overlap only in part: row 'r1' is in 'full.json' but not "
			      "in 'r2.json'"), "%s", why);
	free(why);
	pab_experiment_release(&ef);
	pab_experiment_release(&e2);
	free(tf);
	free(t2);
}
END_TEST

/* Pooling nothing is refused, not a crash or an empty artifact. */
START_TEST(nothing_to_pool)
{
	struct pab_experiment out;
	char *why = NULL;

	ck_assert_int_eq(pab_pool(NULL, NULL, 0, &out, &why), -1);
	ck_assert_str_eq(why, "nothing to pool");
	free(why);
}
END_TEST

/* Unlabelled inputs are named by their place. */
START_TEST(unlabelled_inputs)
{
	struct pab_experiment ea, eb, out;
	const struct pab_experiment *in[2] = { &ea, &eb };
	char *why = NULL;
	cJSON *b = fixture("b.json");
	char *text;

	ck_assert(!parse_fixture("a.json", &ea, &why));
	set(b, "complete", "false");
	text = cJSON_PrintUnformatted(b);
	ck_assert(!parse_text(text, &eb, &why));
	ck_assert_int_eq(pab_pool(in, NULL, 2, &out, &why), -1);
	ck_assert_msg(strstr(why, "'artifact 2' is incomplete") != NULL, "%s", why);
	free(why);
	free(text);
	cJSON_Delete(b);
	pab_experiment_release(&ea);
	pab_experiment_release(&eb);
}
END_TEST

/*
 * A pool records the runs it holds (run.pool.runs): pooled again with one
 * of its sources — here a.json with every wall 1 ns off, so no rep is
 * equal — it is refused by the source's journal id.
 */
START_TEST(pool_with_its_source)
{
	struct pab_experiment ea, eb, ec, pooled, out;
	const struct pab_experiment *in[2];
	const char *labels[2] = { "pooled.json", "again.json" };
	cJSON *a = fixture("a.json");
	const struct pab_pool_run *runs;
	char *text, *why = NULL;

	ck_assert(!parse_fixture("a.json", &ea, &why));
	ck_assert(!parse_fixture("b.json", &eb, &why));
	in[0] = &ea;
	in[1] = &eb;
	ck_assert_msg(!pab_pool(in, NULL, 2, &pooled, &why), "%s", why);
	runs = pooled.pool.runs;
	ck_assert_int_eq(pooled.pool.n_runs, 2);
	ck_assert_str_eq(runs[0].journal, "6a9b161d6952921646fe200cf2aff916");
	edit_walls_1ns(a);
	text = cJSON_PrintUnformatted(a);
	ck_assert(!parse_text(text, &ec, &why));
	free(text);
	in[0] = &pooled;
	in[1] = &ec;
	ck_assert_int_eq(pab_pool(in, labels, 2, &out, &why), -1);
	ck_assert_msg(strstr(why, "'pooled.json' and 'again.json' hold the same run (journal "
			      "id 6a9b161d6952921646fe200cf2aff916") != NULL, "%s", why);
	free(why);
	why = NULL;
	pab_experiment_release(&ec);
	pab_experiment_release(&eb);
	pab_experiment_release(&pooled);
	pab_experiment_release(&ea);
	cJSON_Delete(a);
}
END_TEST

/*
 * A pool pooled again after a plain run: the seeds are the run's, then
 * the pool's, in order (a pool's seeds appended after others'); and a run
 * without a journal id leaves the pool's runs unnamed, whichever input
 * it is.
 */
START_TEST(pool_after_a_run_keeps_seeds_and_names)
{
	struct pab_experiment ea, eb, ex, pooled, out;
	const struct pab_experiment *in[2];
	char *why = NULL;

	ck_assert(!parse_fixture("a.json", &ea, &why));
	ck_assert(!parse_fixture("b.json", &eb, &why));
	{
		cJSON *b = fixture("b.json");
		char *text;

		edit_walls_1ns(b); /* its own measurements */
		text = cJSON_PrintUnformatted(b);
		ck_assert(!parse_text(text, &ex, &why));
		free(text);
		cJSON_Delete(b);
	}
	free(ex.journal_id);
	ex.journal_id = NULL; /* an artifact of before the journal */
	ex.seed = 4242;
	in[0] = &ea;
	in[1] = &eb;
	ck_assert_msg(!pab_pool(in, NULL, 2, &pooled, &why), "%s", why);
	ck_assert_uint_eq(pooled.pool.n_seeds, 2);
	ck_assert_int_eq(pooled.pool.runs_named, 1);
	in[0] = &ex;
	in[1] = &pooled;
	ck_assert_msg(!pab_pool(in, NULL, 2, &out, &why), "%s", why);
	ck_assert_uint_eq(out.pool.n_seeds, 3);
	ck_assert_double_eq(out.pool.seeds[0], 4242);
	ck_assert_double_eq(out.pool.seeds[1], (double)ea.seed);
	ck_assert_double_eq(out.pool.seeds[2], (double)eb.seed);
	ck_assert_int_eq(out.pool.runs_named, 0);
	pab_experiment_release(&out);
	pab_experiment_release(&pooled);
	pab_experiment_release(&ex);
	pab_experiment_release(&eb);
	pab_experiment_release(&ea);
}
END_TEST

/* The typed records (run.metrics, require, floors; sanity; host) read
 * back typed, and saved again as the artifact has them: a value this
 * perfab cannot say again exactly (an unknown metric name, a key floors
 * does not type) keeps its own form. */
START_TEST(typed_records_round_trip)
{
	cJSON *a = fixture("a.json"), *run = cJSON_GetObjectItemCaseSensitive(a, "run"), *back;
	cJSON *arr, *sanity, *cell;
	struct pab_experiment e, e2;
	char path[] = "/tmp/perfab-unit-XXXXXX", *text, *why = NULL;
	size_t len;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	cJSON_DeleteItemFromObjectCaseSensitive(run, "metrics");
	arr = cJSON_AddArrayToObject(run, "metrics");
	cJSON_AddItemToArray(arr, cJSON_CreateString("cpu"));
	cJSON_AddItemToArray(arr, cJSON_CreateString("no_such_metric"));
	cJSON_DeleteItemFromObjectCaseSensitive(run, "require");
	arr = cJSON_AddArrayToObject(run, "require");
	cJSON_AddItemToArray(arr, cJSON_CreateString("cpu"));
	cJSON_DeleteItemFromObjectCaseSensitive(run, "floors");
	cell = cJSON_AddObjectToObject(run, "floors");
	cJSON_AddNumberToObject(cell, "bytes", 5);
	cJSON_AddNumberToObject(cell, "count", 7);
	cJSON_AddNumberToObject(cell, "newer", 1);
	cJSON_DeleteItemFromObjectCaseSensitive(a, "sanity");
	sanity = cJSON_AddArrayToObject(a, "sanity");
	cell = cJSON_CreateObject();
	cJSON_AddStringToObject(cell, "row", "r");
	cJSON_AddStringToObject(cell, "arm", "head");
	cJSON_AddStringToObject(cell, "metric", "peak_rss");
	cJSON_AddNumberToObject(cell, "base", 1);
	cJSON_AddNumberToObject(cell, "head", 2);
	cJSON_AddItemToArray(sanity, cell);
	text = cJSON_PrintUnformatted(a);
	ck_assert_msg(!parse_text(text, &e, &why), "%s", why);
	free(text);
	ck_assert(e.judged.recorded & PAB_JUDGED_METRICS);
	ck_assert(!(e.judged.given & PAB_JUDGED_METRICS));
	ck_assert_int_eq(e.judged.metrics[PAB_M_CPU], 1);
	ck_assert_int_eq(e.judged.metrics[PAB_M_WALL], 0);
	ck_assert(e.judged.given & PAB_JUDGED_REQUIRE);
	ck_assert_int_eq(e.judged.require[PAB_M_CPU], 1);
	ck_assert(!(e.judged.given & PAB_JUDGED_FLOORS));
	ck_assert_double_eq(e.judged.floor_bytes, 5);
	ck_assert_double_eq(e.judged.floor_count, 7);
	ck_assert_int_eq(e.pool.recorded, 0);
	ck_assert_uint_eq(e.n_sanity, 1);
	ck_assert_str_eq(e.sanity[0].metric, "peak_rss");
	ck_assert_double_eq(e.sanity[0].head, 2);
	ck_assert_int_eq(pab_artifact_save(&e, path, &why), 0);
	text = read_file_max(path, 1 << 26, &len);
	ck_assert_ptr_nonnull(text);
	back = cJSON_ParseWithLength(text, len);
	free(text);
	ck_assert(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(back, "run"), run, 1));
	ck_assert(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(back, "sanity"), sanity, 1));
	ck_assert(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(back, "host"),
				cJSON_GetObjectItemCaseSensitive(a, "host"), 1));
	ck_assert_int_eq(pab_artifact_load(path, &e2, &why), 0);
	ck_assert_str_eq(e2.cpu_model ? e2.cpu_model : "", e.cpu_model ? e.cpu_model : "");
	unlink(path);
	cJSON_Delete(back);
	cJSON_Delete(a);
	pab_experiment_release(&e);
	pab_experiment_release(&e2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pool");
	TCase *tc = tcase_create("refusals");

	tcase_add_loop_test(tc, pool_table, 0, (int)NELEMS(cases));
	tcase_add_loop_test(tc, edits_alone_are_valid, 0, (int)NELEMS(cases));
	tcase_add_test(tc, fixtures_are_as_described);
	tcase_add_test(tc, shard_order);
	tcase_add_test(tc, part_overlap_names_the_first_row);
	tcase_add_test(tc, nothing_to_pool);
	tcase_add_test(tc, unlabelled_inputs);
	tcase_add_test(tc, pool_with_its_source);
	tcase_add_test(tc, pool_after_a_run_keeps_seeds_and_names);
	tcase_add_test(tc, typed_records_round_trip);
	suite_add_tcase(s, tc);
	return unit_run(s);
}

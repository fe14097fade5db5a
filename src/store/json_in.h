/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json_in.h — the checked JSON reader for everything perfab reads from
 * outside: artifacts and their journal records, configs (--config),
 * memory-gate baselines and workload reports.
 *
 * Two layers:
 *
 *   - pab_json_parse() turns text into a cJSON tree and refuses what JSON
 *     readers disagree on: a "\u0000" in a string (it would cut a C string
 *     short), data after the top-level value, an object holding a key twice.
 *
 *   - struct pab_json_in is a cursor over such a tree that reads typed
 *     values and knows where it is. Every accessor checks the type (and
 *     the range, for numbers); the first problem is kept with its path,
 *
 *         rows[2] ('sort').reps[5].results.head.cpu must be a finite number
 *             (|x| <= 1e+300) or null
 *         config 'c.json': rows[0].control must be true or false
 *         config 'c.json': 'reps' must be a number in [1, 1000000] (the range
 *             of --reps)
 *
 *     and from then on every accessor does nothing and returns -1 (NULL
 *     for pab_json_in_get); so a reader makes its calls one after the
 *     other and checks once, with pab_json_in_failed() or the return value
 *     of the last call.
 *
 * The path. The cursor holds a stack of components: pab_json_in_push_key()
 * ("rows" -> "rows"; then "head" -> "rows.head"), pab_json_in_push_index()
 * ("[2]"), pab_json_in_name() (a label on the last component: "rows[2]
 * ('sort')"), pab_json_in_pop(). Entries of an array or of an object used
 * as a map (results per arm, env, argv, tolerance per metric) are read by
 * pushing their index or key and passing key NULL: the message then names
 * the full path ("arms[0].argv[1] must be a string").
 *
 * A field of a record (a key with a meaning: "reps", "control") is read by
 * passing its key. How a field is named in a message is the style the
 * cursor was made with, because scripts match these messages and the two
 * families of inputs have always used their own:
 *
 *   PAB_JSON_IN_FIELDS_QUOTED (artifacts, journals)
 *       "rows[0] ('sort'): field 'control' must be true or false";
 *       at the top "artifact: field 'reps' must be ..." (ROOT: field 'KEY').
 *   PAB_JSON_IN_FIELDS_DOTTED (configs, baselines, workload reports)
 *       "rows[0].control must be true or false"; at the top "'reps' must be
 *       ..." or, with a root name, "run.max_procs must be ...".
 *
 * A missing required field is "PATH: missing field 'KEY'" in both. Every
 * message starts with the cursor's prefix ("config 'c.json': ") when it
 * has one. Keys and names are made terminal-safe (pab_term_safe) and cut
 * at 200 bytes.
 *
 * Numbers. Ranges are closed, [min, max]; a "whole" number is an integer
 * within them. Callers pass the range of the option that sets the value
 * (the option table), never a second copy of its limits. Ranges are
 * printed exactly for whole bounds below 2^53 ("[0, 9007199254740991]"),
 * else with %g.
 *
 * Memory: the cursor owns its path and its message; the values returned
 * are borrowed from the cJSON tree (strings too; pab_json_in_strings()
 * alone copies), which the caller owns and must keep alive while it uses
 * them.
 */
#ifndef PAB_JSON_IN_H
#define PAB_JSON_IN_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "util.h"

/*
 * pab_json_parse: one JSON value filling text[0..len) (only blanks may
 * follow), with no "\u0000" in any string and no object holding the same
 * key twice. Returns the tree (caller deletes with cJSON_Delete), or NULL
 * with a reason (caller frees) in *why:
 *   "not valid JSON (error near byte N)",
 *   "not valid JSON (data after the top-level value, at byte N)",
 *   "a string holds \u0000 (at byte N): NUL is not allowed in perfab's JSON",
 *   "an object holds the key 'K' twice: JSON readers disagree on which one
 *    counts".
 */
cJSON *pab_json_parse(const char *text, size_t len, char **why);

enum pab_json_in_style {
	PAB_JSON_IN_FIELDS_QUOTED,
	PAB_JSON_IN_FIELDS_DOTTED,
};

/* Flags of the accessors. */
#define PAB_JSON_REQUIRED 0x1 /* absent: "missing field" (else: absent is 0) */
#define PAB_JSON_NULLABLE 0x2 /* null is taken as absent (else: a type error) */

struct pab_json_in {
	char *why;                   /* the first problem, or NULL */
	const char *prefix;          /* borrowed; messages start "PREFIX: " */
	const char *root;            /* borrowed; names the top level, or NULL */
	enum pab_json_in_style style;
	struct pab_strbuf path;      /* "rows[2] ('sort').reps[5]" */
	size_t *marks;               /* path.len before each push */
	size_t depth, alloc;
	struct pab_strbuf unknown;   /* the unknown keys noted, not yet failed */
	size_t n_unknown;            /* how many keys unknown holds or counts */
};

/*
 * pab_json_in_init: an empty cursor at the top level. prefix (may be NULL)
 * starts every message, root (may be NULL) names the top level where a
 * message has no path ("artifact: missing field 'seed'"). Both are
 * borrowed: they must outlive the cursor.
 */
void pab_json_in_init(struct pab_json_in *in, enum pab_json_in_style style,
		      const char *prefix, const char *root);
/* Free the path and the message; in is empty (re-init before reuse). */
void pab_json_in_release(struct pab_json_in *in);

/* 1 once a problem was recorded, else 0. */
int pab_json_in_failed(const struct pab_json_in *in);
/*
 * The message (caller frees) and the cursor keeps none; NULL when there
 * was no problem. The path stays as it is.
 */
char *pab_json_in_take_why(struct pab_json_in *in);

/*
 * pab_json_in_parse: pab_json_parse() whose refusal becomes the cursor's
 * problem, as "PREFIX: REASON" (or "PREFIX: WRAP: REASON" when wrap is not
 * NULL, e.g. "not a JSON object (check the syntax)"). Returns the tree
 * (caller deletes) or NULL.
 */
cJSON *pab_json_in_parse(struct pab_json_in *in, const char *text, size_t len,
			 const char *wrap);

/* Path components. Each push is undone by one pop (a no-op at the top). */
void pab_json_in_push_key(struct pab_json_in *in, const char *key);
void pab_json_in_push_index(struct pab_json_in *in, size_t i);
void pab_json_in_pop(struct pab_json_in *in);
/* Append " ('NAME')" to the last component: a row or arm named in paths. */
void pab_json_in_name(struct pab_json_in *in, const char *name);

/*
 * pab_json_in_fail: record "WHERE TEXT" as the problem, unless one was
 * recorded already. WHERE names key of the object at the path (in the
 * cursor's style), or, when key is NULL, the path itself (at the top the
 * root name; nothing without one). TEXT is the printf-formatted rest,
 * starting with a verb: "must list each of the 2 arms once". Returns -1.
 */
int pab_json_in_fail(struct pab_json_in *in, const char *key,
		     const char *fmt, ...) PAB_PRINTF(3, 4);
/*
 * pab_json_in_fail_here: record "PATH: TEXT" (at the top "ROOT: TEXT", or
 * TEXT alone without a root name) as the problem, unless one was recorded
 * already: for what is wrong about the value at the path as a whole
 * ("rows[0].reps[4].results: missing object for arm 'head'"). Returns -1.
 */
int pab_json_in_fail_here(struct pab_json_in *in, const char *fmt, ...)
	PAB_PRINTF(2, 3);

/*
 * pab_json_in_get: the value of key in obj (key NULL: obj itself), or
 * NULL when it is absent (a problem when PAB_JSON_REQUIRED), null and
 * PAB_JSON_NULLABLE, or a problem was recorded before. obj must be an
 * object (the caller checked it); NULL obj is taken as empty.
 */
const cJSON *pab_json_in_get(struct pab_json_in *in, const cJSON *obj,
			     const char *key, int flags);

/*
 * Typed values. Each returns 1 with *out set when the value is there and
 * right, 0 when it is absent (or null with PAB_JSON_NULLABLE; *out is
 * then untouched), -1 on a problem (recorded; *out untouched). After a
 * problem, every call returns -1 at once.
 */
/* An object (*out borrowed); "must be an object" (or "... or null"). */
int pab_json_in_object(struct pab_json_in *in, const cJSON *obj,
		       const char *key, int flags, const cJSON **out);
/* An array (*out borrowed); "must be an array" (or "... or null"). */
int pab_json_in_array(struct pab_json_in *in, const cJSON *obj,
		      const char *key, int flags, const cJSON **out);
/* A string (*out borrowed); "must be a string" (or "... or null"). */
int pab_json_in_string(struct pab_json_in *in, const cJSON *obj,
		       const char *key, int flags, const char **out);
/* true or false; "must be true or false". */
int pab_json_in_bool(struct pab_json_in *in, const cJSON *obj,
		     const char *key, int flags, int *out);
/*
 * A finite number in [min, max]; "must be a number in [MIN, MAX]". hint
 * (may be NULL) is appended in parentheses: "the range of --timeout".
 */
int pab_json_in_number(struct pab_json_in *in, const cJSON *obj,
		       const char *key, int flags, double min, double max,
		       const char *hint, double *out);
/* A whole number in [min, max]; "must be a whole number in [MIN, MAX]". */
int pab_json_in_whole(struct pab_json_in *in, const cJSON *obj,
		      const char *key, int flags, double min, double max,
		      const char *hint, double *out);
/*
 * A finite number with |x| <= abs_max; "must be a finite number (|x| <=
 * ABS_MAX)" (or "... or null"): measured values, whose range is what an
 * artifact can carry.
 */
int pab_json_in_finite(struct pab_json_in *in, const cJSON *obj,
		       const char *key, int flags, double abs_max, double *out);
/* pab_json_in_whole() in [0, max] (max at most 2^53), as a size_t. */
int pab_json_in_count(struct pab_json_in *in, const cJSON *obj,
		      const char *key, int flags, double max, size_t *out);

/*
 * pab_json_in_strings: an array of strings ("must be an array of strings";
 * an item that is not one: "PATH.key[i] must be a string") into *argv, a
 * new NULL-ended array of new strings (*argc of them; the caller frees
 * each and the array, pab_argv_free). *argv is allocated whatever the
 * outcome (empty when absent), so the caller frees it either way; after a
 * bad item it holds the items before it.
 */
int pab_json_in_strings(struct pab_json_in *in, const cJSON *obj,
			const char *key, int flags, char ***argv, size_t *argc);

/*
 * pab_json_in_known_keys: every key of obj is one of known (NULL-ended),
 * so a typo does not vanish; else one message names every unknown key,
 * each with the known key it is likely a typo of,
 *     "PATH: unknown keys 'repz' (did you mean 'reps'?), 'x'"
 * (at the top: "ROOT: ..." or "the top level: ..."). Returns 0 or -1.
 * pab_json_in_note_unknown_keys() then pab_json_in_fail_unknown_keys().
 */
int pab_json_in_known_keys(struct pab_json_in *in, const cJSON *obj,
			   const char *const *known);
/*
 * pab_json_in_note_unknown_keys: the same check of obj at the cursor's
 * path, but the unknown keys are noted, not failed, so that one message
 * can name those of several objects (the top level, each arm, each row).
 * Returns -1 when obj has one (or the cursor had failed), else 0.
 * pab_json_in_fail_unknown_keys: the keys noted become the cursor's
 * problem, the objects' clauses joined by "; " (the first 8 keys named,
 * the rest counted); returns -1 then (or when the cursor had failed),
 * else 0. The noted keys are cleared either way.
 */
int pab_json_in_note_unknown_keys(struct pab_json_in *in, const cJSON *obj,
				  const char *const *known);
int pab_json_in_fail_unknown_keys(struct pab_json_in *in);

/* The JSON library's version ("1.7.15"), as built against, for --version. */
const char *pab_json_version(void);

#endif /* PAB_JSON_IN_H */

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * journal.h — the checkpoint journal: an append-only file beside an
 * artifact (FILE.journal beside FILE) that makes a checkpoint cost O(1)
 * per rep instead of a rewrite of the whole artifact.
 *
 * The contract (doc/artifact-schema.md, "The journal"):
 *
 *  - The file is a sequence of records. Record 0 is the header; every
 *    later record holds one completed rep. A record is a frame line and
 *    its payload:
 *
 *        @SEQ LEN SHA256\n
 *        PAYLOAD (LEN bytes)\n
 *
 *    SEQ and LEN in decimal, SHA256 the 64 lowercase hex digits of the
 *    SHA-256 of "@SEQ LEN " followed by the payload, so a record checks
 *    its own sequence number, length and contents. The header's SEQ is the
 *    caller's choice (where numbering starts: a journal started anew on
 *    resume continues the numbers of the one before); every later record
 *    has the number after its predecessor's.
 *  - A record is appended with one write and made durable (fdatasync)
 *    before the caller goes on: a crash leaves every earlier record
 *    intact and at most the last one torn (a prefix, or bytes the kernel
 *    never filled in).
 *  - Reading: a record that fails its frame, length or checksum, with no
 *    valid record anywhere after it, is a torn tail: it is dropped and
 *    reported (torn, torn_bytes). Appends are whole and synced one at a
 *    time, so only the last record can be torn: a bad record followed by
 *    any frame line (at the start of a line, checked by its syntax, not
 *    its checksum) is damage no crash explains, and the journal is
 *    refused. So is a sequence number out of order. Each payload is
 *    hashed once and every other byte scanned once: reading is linear in
 *    the file's size, whatever the file holds.
 *  - A journal is at most PAB_JOURNAL_MAX_BYTES; a larger file is
 *    refused before it is read. The runner folds the journal into its
 *    artifact before it gets near that (runner.c).
 *
 * The journal knows nothing of artifacts: payloads are opaque bytes here.
 * What they say, and how a journal is bound to its artifact, is
 * checkpoint.c's business. Library code: returns 0 / -1 with a reason,
 * never prints, never exits (except through x-allocation).
 */
#ifndef PAB_JOURNAL_H
#define PAB_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

/* Largest journal perfab reads (bytes); the runner folds at half of it. */
#define PAB_JOURNAL_MAX_BYTES ((size_t)256 << 20)

/* An open journal, being appended to. */
struct pab_journal;

/* A new journal id (the artifact's journal_id): 32 hex digits, random;
 * new memory (caller frees). */
char *pab_journal_new_id(void);

/*
 * pab_journal_create: start a new journal at path, replacing whatever is
 * there (a symlink there is replaced, never followed), with header as its
 * first record, numbered first_seq; the file and its directory are synced
 * before it returns. Returns 0 and *out (caller closes), or -1 with errno
 * and *why (caller frees); no journal is left at path then.
 */
int pab_journal_create(const char *path, uint64_t first_seq, const char *header,
		       size_t len, struct pab_journal **out, char **why);

/*
 * pab_journal_append: append one record (the next sequence number) and
 * make it durable. Returns 0, or -1 with errno and *why (caller frees);
 * after a failure the file is cut back to its previous records, so a
 * full disk leaves no half record behind when that is possible at all.
 * Crash points (test_hooks.h) inside: record half written, written but not
 * synced, synced.
 */
int pab_journal_append(struct pab_journal *j, const char *payload, size_t len,
		       char **why);

/* Bytes in the file so far (header and records). */
uint64_t pab_journal_bytes(const struct pab_journal *j);
/* The sequence number of the last record appended (the header's at first). */
uint64_t pab_journal_last_seq(const struct pab_journal *j);

/* Close (NULL is a no-op). The file stays. */
void pab_journal_close(struct pab_journal *j);

/*
 * pab_journal_remove: delete the journal at path and sync its directory.
 * 0 (also when there was none), or -1 with errno and *why.
 */
int pab_journal_remove(const char *path, char **why);

struct pab_journal_record {
	uint64_t seq;
	const char *payload; /* points into pab_journal_contents.text */
	size_t len;
};

struct pab_journal_contents {
	char *text;                        /* the whole file (owned) */
	size_t text_len;
	struct pab_journal_record *records; /* [0] the header; owned */
	size_t n;                          /* 0: not even the header survived */
	size_t good_bytes;                 /* end of the last good record */
	int torn;                          /* a torn tail was dropped */
	size_t torn_bytes;
	size_t work_bytes;                 /* bytes hashed plus bytes scanned
					      for frame lines: at most
					      4 * text_len (the tests check) */
};

/*
 * pab_journal_read: read and check the journal at path into c. Returns 0
 * (c filled; release it), 1 when there is no journal at path (c zeroed),
 * or -1 with *why (caller frees): not a regular file, larger than
 * PAB_JOURNAL_MAX_BYTES, unreadable, damaged before its end, or sequence
 * numbers out of order.
 */
int pab_journal_read(const char *path, struct pab_journal_contents *c,
		     char **why);

/*
 * pab_journal_parse: the check of pab_journal_read on text[0..len) (a
 * journal's bytes, malloc'ed; c owns it from here on, also on failure,
 * when it is freed), name naming it in *why. 0 (c filled; release it) or
 * -1 with *why (caller frees).
 */
int pab_journal_parse(char *text, size_t len, const char *name,
		      struct pab_journal_contents *c, char **why);

void pab_journal_contents_release(struct pab_journal_contents *c);

#endif /* PAB_JOURNAL_H */

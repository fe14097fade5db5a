/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_journal.c — libFuzzer harness for pab_journal_parse(), the check
 * every reader of a checkpoint journal (FILE.journal: ledger, gate, pool,
 * memgate, run --resume) runs on the file's bytes.
 *
 * Besides "no crash, no leak, no UB": a refusal has a reason; what is
 * accepted is a header and records numbered one after another, each
 * payload inside the text and followed by its newline; the good bytes and
 * a torn tail add up to the whole; and the reader's own count of the
 * bytes it hashed and scanned stays within 4 per input byte, so no input
 * makes it quadratic. Everything is freed; deterministic.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/journal.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1), *why = NULL;
	struct pab_journal_contents c;
	size_t i;

	memcpy(text, data, size);
	text[size] = '\0';
	if (pab_journal_parse(text, size, "fuzz", &c, &why)) {
		if (!why || !*why)
			abort(); /* contract: a refusal has a reason */
		free(why);
		return 0;
	}
	if (why || c.text_len != size)
		abort();
	if (c.work_bytes > 4 * size + 4) {
		fprintf(stderr, "reader work %zu for %zu bytes\n", c.work_bytes, size);
		abort();
	}
	if (c.torn ? c.good_bytes + c.torn_bytes != size || !c.torn_bytes
		   : c.good_bytes != size)
		abort();
	for (i = 0; i < c.n; i++) {
		const struct pab_journal_record *r = &c.records[i];
		size_t off = (size_t)(r->payload - c.text);

		if (off > c.good_bytes || r->len >= c.good_bytes - off ||
		    c.text[off + r->len] != '\n')
			abort();
		if (i && r->seq != c.records[i - 1].seq + 1)
			abort();
	}
	pab_journal_contents_release(&c);
	return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test_format.c — unit tests of what the renderers share (report/format.c): changes read as
 * ratios, SI values, reasons that name their bounds, the format table,
 * the calibration warning, and the one printer of names to a terminal
 * (term.c).
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/experiment.h"
#include "model/rotation.h"
#include "judge/ledger.h"
#include "report/csv.h"
#include "report/format.h"
#include "report/reason.h"
#include "report/markup.h"
#include "report/report.h"
#include "store/artifact_read.h"
#include "store/artifact_write.h"
#include "term.h"
#include "util.h"

#include "unit.h"

/* An interval with these ends, n = 12, existing. */
static struct pab_interval iv(double median, double lo, double hi)
{
	struct pab_interval v;

	memset(&v, 0, sizeof(v));
	v.n = 12;
	v.median = median;
	v.lo = lo;
	v.hi = hi;
	v.coverage = 0.96;
	v.exists = 1;
	return v;
}

START_TEST(format_change_reads_as_ratio)
{
	struct pab_interval v;
	struct pab_ratio r;
	char buf[128];

	/* A 26-fold throughput gain: head = 26 x base, c = -2500%. */
	v = iv(-2500, -2820, -1400);
	pab_fmt_change(buf, sizeof(buf), PAB_M_THROUGHPUT, &v, 1e4, 0);
	ck_assert_str_eq(buf, "26.0x faster [15.0, 29.2]");
	pab_change_ratio(PAB_M_THROUGHPUT, &v, &r);
	ck_assert_str_eq(r.direction, "faster");
	ck_assert(fabs(r.ratio - 26.0) < 1e-9);
	ck_assert(fabs(r.ratio_low - 15.0) < 1e-9 && fabs(r.ratio_high - 29.2) < 1e-9);
	/* Throughput halved: 2x slower. */
	v = iv(50, 40, 60);
	pab_fmt_change(buf, sizeof(buf), PAB_M_THROUGHPUT, &v, 1e4, PAB_FMT_UTF8);
	ck_assert_str_eq(buf, "2.00\u00d7 slower [1.67, 2.50]");
	/* Times: 1 + c/100. */
	v = iv(21, 15, 29);
	pab_fmt_change(buf, sizeof(buf), PAB_M_CPU, &v, 1.0, 0);
	ck_assert_str_eq(buf, "1.21x slower [1.15, 1.29]");
	v = iv(-50, -60, -20);
	pab_fmt_change(buf, sizeof(buf), PAB_M_P99, &v, 1.0, 0);
	ck_assert_str_eq(buf, "2.00x faster [1.25, 2.50]");
	/* A narrow interval around 0 reads "same". */
	v = iv(0.2, -1.8, 1.1);
	pab_fmt_change(buf, sizeof(buf), PAB_M_WALL, &v, 1.0, PAB_FMT_UTF8);
	ck_assert_str_eq(buf, "same \u00b11.8%");
	/* Memory: the amount from the base median and the paired change. */
	v = iv(8.4, 5.0, 9.1);
	pab_fmt_change(buf, sizeof(buf), PAB_M_PEAK_RSS, &v, 6.2 * 1048576 / 0.084, 0);
	ck_assert_str_eq(buf, "+6.20 MiB (+8.4% [+5.0, +9.1])");
	/* No interval below 6 pairs: a range, said so. */
	v = iv(21, 15, 29);
	v.exists = 0;
	pab_fmt_change(buf, sizeof(buf), PAB_M_CPU, &v, 1.0, 0);
	ck_assert_str_eq(buf, "1.21x slower (range 1.15..1.29, no CI)");
	/* Not finite: the percentages as they are. */
	v = iv(INFINITY, 1, INFINITY);
	pab_fmt_change(buf, sizeof(buf), PAB_M_CPU, &v, 0, 0);
	ck_assert_str_eq(buf, "+inf% [+1.0, +inf]");
}
END_TEST

START_TEST(format_values_si)
{
	char buf[64];

	pab_fmt_value(buf, sizeof(buf), PAB_M_MINOR_FAULTS, 3.35e5);
	ck_assert_str_eq(buf, "335 k");
	pab_fmt_value(buf, sizeof(buf), PAB_M_THROUGHPUT, 1.5e6);
	ck_assert_str_eq(buf, "1.50 M ops/s");
	pab_fmt_value(buf, sizeof(buf), PAB_M_CPU, 0.00152);
	ck_assert_str_eq(buf, "1.52 ms");
	/* A time that rounds to 1000 of a unit is 1.00 of the next. */
	pab_fmt_value(buf, sizeof(buf), PAB_M_CPU, 999.7e-9);
	ck_assert_str_eq(buf, "1.00 us");
	pab_fmt_value(buf, sizeof(buf), PAB_M_CPU, 999.7e-6);
	ck_assert_str_eq(buf, "1.00 ms");
	pab_fmt_value(buf, sizeof(buf), PAB_M_P99, 935);
	ck_assert_str_eq(buf, "935 ns");
	pab_fmt_value(buf, sizeof(buf), PAB_M_PEAK_RSS, 71.3 * 1048576);
	ck_assert_str_eq(buf, "71.3 MiB");
	/* Binary units step at 1024, not 1000 (1023.5 rounds up to it). */
	pab_fmt_value(buf, sizeof(buf), PAB_M_PEAK_RSS, 1000);
	ck_assert_str_eq(buf, "1000 B");
	pab_fmt_value(buf, sizeof(buf), PAB_M_PEAK_RSS, 1000 * 1024.0);
	ck_assert_str_eq(buf, "1000 KiB");
	pab_fmt_value(buf, sizeof(buf), PAB_M_PEAK_RSS, 1024 * 1024.0);
	ck_assert_str_eq(buf, "1.00 MiB");
	pab_fmt_value(buf, sizeof(buf), PAB_M_PEAK_RSS, NAN);
	ck_assert_str_eq(buf, "n/a");
	pab_fmt_pair(buf, sizeof(buf), PAB_M_THROUGHPUT, 3.35e6, 5.12e6, 0);
	ck_assert_str_eq(buf, "3.35 M -> 5.12 M ops/s");
	pab_fmt_duration(buf, sizeof(buf), 170);
	ck_assert_str_eq(buf, "3 min");
	pab_fmt_duration(buf, sizeof(buf), 0.2);
	ck_assert_str_eq(buf, "1 s");
}
END_TEST

START_TEST(format_reasons_name_their_bounds)
{
	struct pab_cell_result r;
	/* An amount metric: bounds read in percent. */
	struct pab_reason_ctx ctx = { .metric = PAB_M_PEAK_RSS, .n = 12, .block = 3,
				      .rep_seconds = 4.5, .margin = 3.0, .conf = 0.95 };
	char buf[512];

	/* Above the tolerance, held back by the null arm's noise. */
	memset(&r, 0, sizeof(r));
	r.verdict = PAB_INCONCLUSIVE;
	r.change = iv(22.0, 20.5, 38.7);
	r.noise = 28.5;
	r.allowance = 2.0;
	r.fail_threshold = 28.5;
	r.pass_decider = PAB_DECIDED_TOLERANCE;
	r.fail_decider = PAB_DECIDED_NOISE;
	r.reps_needed = 52;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "beyond the tolerance +2.0%, but FAIL needs it beyond the null arm's "
			 "noise +28.5%; it starts at +20.5%: this machine's noise hides the change "
			 "(see perfab env); about 42 more reps, ~4 min");
	/* Straddling the allowance. */
	r.change = iv(1.0, -0.5, 3.5);
	r.reps_needed = 5000;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "PASS needs the upper end within +2.0% (tolerance), it is +3.5%; "
			 "FAIL needs the lower end beyond +28.5% (null arm's noise), it is -0.5%; "
			 "not decidable at this noise within 1000 reps");
	/* A guard's undecided cell is accepted uncertainty, not a wait. */
	r.half_width = 2.0;
	ctx.role = PAB_ROLE_GUARD;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "PASS needs the upper end within +2.0% (tolerance), it is +3.5%; "
			 "FAIL needs the lower end beyond +28.5% (null arm's noise), it is -0.5%; "
			 "a guard: accepted uncertainty, these reps resolve +-2.0% (it FAILs the "
			 "row only when it proves a regression)");
	ctx.role = PAB_ROLE_REQUIRED;
	/* A required cell the cap cannot decide says what would. */
	{
		struct pab_outlook o = { .resolves_pct = 4.1, .reps_needed = 300,
					 .tolerance_pct = 4.5 };

		ctx.outlook = &o;
		ctx.undecidable = 1;
		ctx.cap_n = 96;
		pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
		ck_assert_str_eq(buf, "PASS needs the upper end within +2.0% (tolerance), it is "
				 "+3.5%; FAIL needs the lower end beyond +28.5% (null arm's noise), "
				 "it is -0.5%; not decidable at +-2.0% on this machine within 96 reps "
				 "(resolves +-4.1%): needs ~300 reps or a tolerance of 4.5%");
		ctx.outlook = NULL;
		ctx.undecidable = 0;
	}
	/* A ratio metric's reason reads on the ratio's scale, as its change does. */
	ctx.metric = PAB_M_CPU;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "PASS needs the upper end within 1.02x slower (tolerance), it is "
			 "1.03x slower; FAIL needs the lower end beyond 1.28x slower (null arm's "
			 "noise), it is 1.01x faster; not decidable at this noise within 1000 reps");
	ctx.metric = PAB_M_PEAK_RSS;
	/* FAIL names every bound it crossed; the fail bound read from the cell. */
	r.verdict = PAB_FAIL;
	r.change = iv(40, 31, 45);
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "its lower end +31.0% is beyond the tolerance +2.0% and the null "
			 "arm's noise +28.5%");
	r.fail_threshold = 2.0;
	r.fail_decider = PAB_DECIDED_TOLERANCE;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "its lower end +31.0% is beyond the tolerance +2.0%");
	/* Fewer than 6 pairs. */
	r.verdict = PAB_INCONCLUSIVE;
	r.change.exists = 0;
	ctx.n = 3;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "no 95% interval exists below 6 paired reps (n=3); about 3 more "
			 "reps, ~14 s");
	r.verdict = PAB_PASS;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "");
}
END_TEST

/* A control's reason says which of its intervals lies outside the margin:
 * both (FAIL), base's alone (held by the null arm's guard), or one that
 * straddles an edge. */
START_TEST(format_control_reasons)
{
	struct pab_cell_result r;
	struct pab_reason_ctx ctx = { .metric = PAB_M_CPU, .n = 12, .block = 3,
				      .rep_seconds = 1.0, .control = 1, .margin = 3.0,
				      .conf = 0.95 };
	char buf[512];

	memset(&r, 0, sizeof(r));
	r.verdict = PAB_FAIL;
	r.fail_decider = PAB_DECIDED_EQUIVALENCE;
	r.fail_guarded = 1;
	r.change = iv(-20, -33.2, -11.3);
	r.head_null = iv(-18, -30.0, -9.5);
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "a control must stay within +-3.0%: its interval [-33.2, -11.3] and "
			 "that against the null arm [-30.0, -9.5] lie outside");
	r.verdict = PAB_INCONCLUSIVE;
	r.pass_decider = PAB_DECIDED_EQUIVALENCE;
	r.head_null = iv(-1, -6.0, +4.0);
	r.reps_needed = 24;
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "a control must be shown within +-3.0%: its interval [-33.2, -11.3] "
			 "lies outside, but that against the null arm [-6.0, +4.0] not on the same "
			 "side: FAIL needs both; about 12 more reps, ~12 s");
	r.change = iv(-1, -4.0, 1.2);
	pab_fmt_reason(buf, sizeof(buf), &r, &ctx);
	ck_assert_str_eq(buf, "a control must be shown within +-3.0%: its interval [-4.0, +1.2] is "
			 "wider; about 12 more reps, ~12 s");
}
END_TEST

/* The CSV ledger of the demo's artifact: the columns in the documented
 * order (csv.h), and in every line whose interval exists its low end no
 * higher than its high end (the columns hold what their names say). */
START_TEST(csv_ledger_columns)
{
	struct pab_experiment e;
	struct pab_ledger_opts o;
	struct pab_ledger l;
	size_t len, lines = 0;
	char *text = unit_data("demo-run.json", &len), *why = NULL, *csv = NULL, *line, *save;
	FILE *f;
	static const char head[] = "row,arm,base,n,row_verdict,metric,unit,verdict,base_median,"
				   "head_median,change,change_lo,change_hi,interval_exists,";

	ck_assert_int_eq(pab_artifact_parse(text, len, &e, &why), 0);
	pab_ledger_opts_init(&o, &e);
	ck_assert_int_eq(pab_ledger_build(&e, &o, &l, &why), 0);
	f = open_memstream(&csv, &len);
	pab_report_csv(f, &e, &l);
	fclose(f);
	ck_assert_msg(!strncmp(csv, head, strlen(head)), "header: %.200s", csv);
	for (line = strtok_r(csv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *field[14], *p = line;
		size_t k;

		if (line == csv)
			continue; /* the header */
		for (k = 0; k < 14 && p; k++) {
			field[k] = p;
			p = strchr(p, ',');
			if (p)
				*p++ = '\0';
		}
		if (k < 14 || strcmp(field[13], "true"))
			continue;
		ck_assert_msg(strtod(field[11], NULL) <= strtod(field[12], NULL),
			      "%s %s: change_lo %s > change_hi %s", field[0], field[5], field[11],
			      field[12]);
		lines++;
	}
	ck_assert_uint_gt(lines, 4);
	free(csv);
	free(text);
	pab_ledger_release(&l);
	pab_experiment_release(&e);
}
END_TEST

/* The format table: every name reads back, "md" is Markdown, and only the
 * formats that can print a thing are given it (report.h). */
START_TEST(report_format_table)
{
	static const char *const names[] = { "text", "json", "markdown", "junit", "html", "csv" };
	struct pab_report_opts o;
	enum pab_report_format fmt;
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ck_assert_int_eq(pab_report_format_parse(names[i], &fmt), 0);
		ck_assert_int_eq(fmt, (int)i);
		ck_assert_str_eq(pab_report_format_name(fmt), names[i]);
		ck_assert(pab_report_can(fmt, PAB_REPORT_LEDGER));
		ck_assert_int_eq(pab_report_can(fmt, PAB_REPORT_SAMPLES),
				 fmt == PAB_REPORT_CSV || fmt == PAB_REPORT_JSON);
		ck_assert_int_eq(pab_report_can(fmt, PAB_REPORT_GATE_REASONS),
				 fmt == PAB_REPORT_TEXT);
	}
	ck_assert_int_eq(pab_report_format_parse("md", &fmt), 0);
	ck_assert_int_eq(fmt, PAB_REPORT_MARKDOWN);
	ck_assert_int_eq(pab_report_format_parse("gate", &fmt), -1);
	ck_assert_int_eq(pab_report_format_parse("", &fmt), -1);
	/* What a format cannot print is refused, and nothing is written. */
	f = tmpfile();
	ck_assert_ptr_nonnull(f);
	pab_report_opts_init(&o, PAB_REPORT_MARKDOWN);
	o.what = PAB_REPORT_SAMPLES;
	ck_assert_int_eq(pab_report_print(f, NULL, NULL, &o), -1);
	ck_assert_int_eq(ftell(f), 0);
	fclose(f);
}
END_TEST

/* What a field becomes: CSV as RFC 4180 quotes it (a quote doubled inside
 * quotes), HTML with its five special characters as entities. */
static char *written(void (*write)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	write(f, s);
	fclose(f);
	return buf;
}

START_TEST(csv_and_html_fields_escaped)
{
	static const struct { const char *in, *csv, *html; } cases[] = {
		{ "plain", "plain", "plain" },
		{ "a,b", "\"a,b\"", "a,b" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"", "say &quot;hi&quot;" },
		{ "2 lines\nx", "\"2 lines\nx\"", "2 lines\nx" },
		{ "<b>&'", "<b>&'", "&lt;b&gt;&amp;&#39;" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *csv = written(pab_fmt_csv_field, cases[i].in);
		char *html = written(pab_fmt_escape, cases[i].in);

		ck_assert_str_eq(csv, cases[i].csv);
		ck_assert_str_eq(html, cases[i].html);
		free(csv);
		free(html);
	}
}
END_TEST

START_TEST(term_safe_escapes_controls)
{
	/* Control characters, DEL, C1 and broken UTF-8 escaped; UTF-8 kept. */
	ck_assert_str_eq(pab_term_safe("a\nb\033[31m\007"), "a\\nb\\x1b[31m\\x07");
	ck_assert_str_eq(pab_term_safe("t\tr\r\\"), "t\\tr\\r\\\\");
	ck_assert_str_eq(pab_term_safe("\x7f\xc2\x9b\xff"), "\\x7f\\xc2\\x9b\\xff");
	ck_assert_str_eq(pab_term_safe("r\xc3\xa9sum\xc3\xa9 \xc2\xb7 \xe2\x80\x94"),
			 "r\xc3\xa9sum\xc3\xa9 \xc2\xb7 \xe2\x80\x94");
	ck_assert_str_eq(pab_term_safe("\xed\xa0\x80"), "\\xed\\xa0\\x80"); /* a surrogate */
	ck_assert_str_eq(pab_term_safe(NULL), "(null)");
}
END_TEST

static void *term_safe_in_thread(void *arg)
{
	char name[64];
	int i;

	(void)arg;
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "arm-%d\n", i);
		if (strcmp(pab_term_safe(name), "") == 0)
			return (void *)1;
	}
	return NULL;
}

START_TEST(term_safe_frees_a_threads_buffers)
{
	/* A counting thread names arms in its messages; its buffers must go
	 * with it (the leak checker of the sanitizer build sees them if not). */
	pthread_t t;
	void *ret = (void *)1;

	ck_assert_int_eq(pthread_create(&t, NULL, term_safe_in_thread, NULL), 0);
	ck_assert_int_eq(pthread_join(t, &ret), 0);
	ck_assert_ptr_null(ret);
	ck_assert_str_eq(pab_term_safe("arm\n"), "arm\\n");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("format");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, format_change_reads_as_ratio);
	tcase_add_test(tc, format_values_si);
	tcase_add_test(tc, format_reasons_name_their_bounds);
	tcase_add_test(tc, format_control_reasons);
	tcase_add_test(tc, report_format_table);
	tcase_add_test(tc, term_safe_escapes_controls);
	tcase_add_test(tc, csv_and_html_fields_escaped);
	tcase_add_test(tc, csv_ledger_columns);
	tcase_add_test(tc, term_safe_frees_a_threads_buffers);
	suite_add_tcase(s, tc);
	return unit_run(s);
}

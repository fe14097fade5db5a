# SPDX-License-Identifier: GPL-3.0-or-later
# src/local.mk — the perfab program. Everything but main() goes into a
# convenience library so unit tests link the same code (curl's libcurltool).
noinst_LIBRARIES += src/libperfab.a
src_libperfab_a_CPPFLAGS = $(AM_CPPFLAGS) $(GSL_CFLAGS) $(CJSON_CFLAGS) \
	$(HWLOC_CFLAGS) $(NETTLE_CFLAGS) $(SQLITE_CFLAGS) -DPKGLIBEXECDIR='"$(pkglibexecdir)"'
src_libperfab_a_SOURCES = \
	src/builtin.h \
	src/cmd_bisect.c src/cmd_calibrate.c src/cmd_env.c src/cmd_export.c src/cmd_history.c src/cmd_ledger.c \
	src/cmd_memgate.c src/cmd_pool.c \
	src/cmd_run.c src/cmd_run.h src/cmd_workloads.c \
	src/diag.c src/diag.h \
	src/options.c src/options.h \
	src/term.c src/term.h \
	src/test_hooks.c src/test_hooks.h \
	src/util.c src/util.h \
	src/profile.c src/profile.h \
	common/banned.h common/numparse.c common/numparse.h common/suite.c common/suite.h \
	src/run/arms.c src/run/arms.h \
	src/run/bisect.c src/run/bisect.h \
	src/run/bisect_compare.c src/run/bisect_compare.h \
	src/run/bisect_git.c src/run/bisect_git.h \
	src/run/bisect_session.c src/run/bisect_session.h \
	src/run/define.c src/run/define.h \
	src/run/failure.c src/run/failure.h \
	src/run/hooks.c src/run/hooks.h \
	src/run/measure.c src/run/measure.h \
	src/run/child_cmd.c src/run/child_cmd.h \
	src/run/plan.c src/run/plan.h \
	src/run/plan_data.c src/run/plan_data.h \
	src/run/progress.c src/run/progress.h \
	src/run/resume.c src/run/resume.h \
	src/run/runconf.c src/run/runconf.h \
	src/run/looks.c src/run/looks.h \
	src/run/runner.c src/run/runner.h \
	src/run/counting.c src/run/counting.h \
	src/run/attribute.c src/run/attribute.h \
	src/run/count_batch.c src/run/count_batch.h \
	src/run/looks_fixed.c src/run/looks_fixed.h \
	src/run/workload.c src/run/workload.h \
	src/probe/cgroup.c src/probe/cgroup.h \
	src/probe/cgroup_reset.c src/probe/cgroup_reset.h \
	src/probe/checklist.c src/probe/checklist.h \
	src/probe/counters.c src/probe/counters.h \
	src/probe/guard.c src/probe/guard.h \
	src/probe/envfacts.c src/probe/envfacts.h \
	src/probe/hostinfo.c src/probe/hostinfo.h \
	src/probe/pin.c src/probe/pin.h \
	src/probe/proc.c src/probe/proc.h \
	src/probe/runchild.c src/probe/runchild.h \
	src/probe/sampler.c src/probe/sampler.h \
	src/probe/simcount.c src/probe/simcount.h \
	src/probe/profile_cg.c src/probe/profile_cg.h \
	src/probe/profile_dhat.c src/probe/profile_dhat.h \
	src/probe/profile_perf.c src/probe/profile_perf.h \
	src/probe/elfsyms.c src/probe/elfsyms.h \
	src/model/argv_split.c src/model/argv_split.h \
	src/model/experiment.c src/model/experiment.h \
	src/model/experiment_copy.c src/model/experiment_copy.h \
	src/model/reasons.c src/model/reasons.h \
	src/model/attribution.c src/model/attribution.h \
	src/model/file_id.h \
	src/model/history.c src/model/history.h \
	src/model/judgeable.c src/model/judgeable.h \
	src/model/memgate_baseline.c src/model/memgate_baseline.h \
	src/model/metrics.c src/model/metrics.h \
	src/model/pool.c src/model/pool.h \
	src/model/pool_check.c src/model/pool_check.h \
	src/model/rotation.c src/model/rotation.h \
	src/model/run_costs.c src/model/run_costs.h \
	src/model/sanity.c src/model/sanity.h \
	src/judge/history.c src/judge/history.h \
	src/judge/disposition.c src/judge/disposition.h \
	src/judge/ledger.c src/judge/ledger.h \
	src/judge/memory_credit.c src/judge/memory_credit.h \
	src/judge/sanity_gate.c src/judge/sanity_gate.h \
	src/judge/memgate.c src/judge/memgate.h \
	src/report/format.c src/report/format.h \
	src/report/reason.c src/report/reason.h \
	src/report/markup.c src/report/markup.h \
	src/report/env.c src/report/env.h \
	src/report/report.c src/report/report.h \
	src/report/history.c src/report/history.h \
	src/report/history_html.c src/report/history_html.h \
	src/report/text.c src/report/text.h \
	src/report/attribution.c src/report/attribution.h \
	src/report/json.c src/report/json.h \
	src/report/markdown.c src/report/markdown.h \
	src/report/html.c src/report/html.h \
	src/report/svg.c src/report/svg.h \
	src/report/junit.c src/report/junit.h \
	src/report/csv.c src/report/csv.h \
	src/store/artifact_read.c src/store/artifact_read.h \
	src/store/artifact_write.c src/store/artifact_write.h \
	src/store/attribution_json.c src/store/attribution_json.h \
	src/store/artifact_rep.c src/store/artifact_rep.h \
	src/store/baseline.c src/store/baseline.h \
	src/store/bisect_journal.c src/store/bisect_journal.h \
	src/store/calibration.c src/store/calibration.h \
	src/store/checkpoint.c src/store/checkpoint.h \
	src/store/count_cache.c src/store/count_cache.h \
	src/store/digest.c src/store/digest.h \
	src/store/history_db.c src/store/history_db.h \
	src/store/history_file.c src/store/history_file.h \
	src/store/history_query.c src/store/history_query.h \
	src/store/journal.c src/store/journal.h \
	src/store/json_in.c src/store/json_in.h \
	src/store/json_out.c src/store/json_out.h \
	src/store/load.c src/store/load.h \
	src/store/run_record.c src/store/run_record.h \
	src/store/run_settings.c src/store/run_settings.h \
	src/store/tempfile.c src/store/tempfile.h \
	src/store/workload_report.c src/store/workload_report.h

# Libraries every program linking libperfab needs, in link order.
PERFAB_LIBS = src/libperfab.a stats/libpabstats.a $(GSL_LIBS) $(CJSON_LIBS) \
	$(HWLOC_LIBS) $(NETTLE_LIBS) $(SQLITE_LIBS) $(PFM_LIBS) -lm

bin_PROGRAMS += src/perfab
src_perfab_SOURCES = src/perfab.c
src_perfab_CPPFLAGS = $(src_libperfab_a_CPPFLAGS)
src_perfab_LDADD = $(PERFAB_LIBS)

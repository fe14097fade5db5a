# SPDX-License-Identifier: GPL-3.0-or-later
# src/local.mk — the perfab program. Everything but main() goes into a
# convenience library so unit tests link the same code (curl's libcurltool).
noinst_LIBRARIES += src/libperfab.a
src_libperfab_a_CPPFLAGS = $(AM_CPPFLAGS) $(GSL_CFLAGS) $(CJSON_CFLAGS) \
	$(HWLOC_CFLAGS) $(NETTLE_CFLAGS) -DPKGLIBEXECDIR='"$(pkglibexecdir)"'
src_libperfab_a_SOURCES = \
	src/argv_split.c src/argv_split.h \
	src/artifact.c src/artifact.h \
	src/banned.h src/builtin.h \
	src/cgroup.c src/cgroup.h \
	src/cmd_env.c src/cmd_ledger.c src/cmd_run.c src/cmd_workloads.c \
	src/cmd_memgate.c src/cmd_pool.c \
	src/pool.c src/pool.h \
	src/report.h src/report_html.c src/report_junit.c \
	src/counters.c src/counters.h \
	src/digest.c src/digest.h \
	src/experiment.c src/experiment.h \
	src/format.c src/format.h \
	src/guard.c src/guard.h \
	src/hostinfo.c src/hostinfo.h \
	src/journal.c src/journal.h \
	src/ledger.c src/ledger.h \
	src/metrics.c src/metrics.h \
	src/options.c src/options.h \
	src/pin.c src/pin.h \
	src/proc.c src/proc.h \
	src/rotation.c src/rotation.h \
	src/runconf.c src/runconf.h \
	src/sampler.c src/sampler.h \
	src/runchild.c src/runchild.h \
	src/util.c src/util.h \
	src/wreport.c src/wreport.h \
	workloads/suite.c workloads/suite.h

# Libraries every program linking libperfab needs, in link order.
PERFAB_LIBS = src/libperfab.a stats/libpabstats.a $(GSL_LIBS) $(CJSON_LIBS) \
	$(HWLOC_LIBS) $(NETTLE_LIBS) $(PFM_LIBS) -lm

bin_PROGRAMS += src/perfab
src_perfab_SOURCES = src/perfab.c
src_perfab_CPPFLAGS = $(src_libperfab_a_CPPFLAGS)
src_perfab_LDADD = $(PERFAB_LIBS)

# SPDX-License-Identifier: GPL-3.0-or-later
# workloads/local.mk — fragment of the top-level Makefile.am: the workload
# programs of the built-in suite and the protocol they speak.
#
# common/suite.c (the row table) and common/numparse.c (the number parser)
# are compiled into these programs and into perfab itself; PCG32 is
# compiled in from stats/pab_pcg32.c rather than by linking libpabstats, so
# the workload programs depend on nothing but libc, libm and pthreads, and
# an LD_PRELOADed allocator sees all their allocations.

pkglibexec_PROGRAMS += workloads/perfab-alloc workloads/perfab-spin

workloads_common_sources = \
	common/suite.c common/suite.h common/numparse.c common/numparse.h common/banned.h \
	workloads/wl.h workloads/wl_params.c workloads/wl_params.h \
	workloads/wl_proc.c workloads/wl_proc.h workloads/wl_report.h \
	workloads/wl_report.c

workloads_perfab_alloc_SOURCES = workloads/alloc.c \
	$(workloads_common_sources) stats/pab_pcg32.c stats/pab_pcg32.h
workloads_perfab_alloc_LDADD = -lm

workloads_perfab_spin_SOURCES = workloads/spin.c \
	$(workloads_common_sources)
workloads_perfab_spin_LDADD = -lm

dist_doc_DATA += doc/workload-protocol.md

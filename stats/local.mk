# SPDX-License-Identifier: GPL-3.0-or-later
# stats/local.mk — fragment of the top-level Makefile.am
#
# The pure statistics library: everything else links it, it links only
# GSL and libm. pab_pcg32.c is also compiled standalone by the workloads,
# so it must keep depending on nothing but libm.
noinst_LIBRARIES += stats/libpabstats.a
stats_libpabstats_a_SOURCES = \
	stats/pab_stats.h \
	stats/pab_pcg32.h \
	stats/drift.h \
	stats/order.h \
	stats/order.c \
	stats/sign.c \
	stats/change.c \
	stats/verdict.c \
	stats/drift.c \
	stats/edivisive.c \
	stats/calibrate.c \
	stats/pab_pcg32.c
stats_libpabstats_a_CPPFLAGS = $(AM_CPPFLAGS) $(GSL_CFLAGS)

# The method this library implements, with its simulation tables.
dist_doc_DATA += doc/method.md

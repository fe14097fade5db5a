# SPDX-License-Identifier: GPL-3.0-or-later
# src/completion.mk — fragment of the top-level Makefile.am: perfab's bash
# completion, generated from the built program's --help (so it cannot
# drift from the options) and installed where bash-completion looks.
bashcompdir = $(datadir)/bash-completion/completions
bashcomp_DATA = src/completion/perfab
src/completion/perfab: src/perfab$(EXEEXT) $(top_srcdir)/ci/gen-completion.sh
	$(AM_V_GEN)$(MKDIR_P) src/completion && \
	$(SHELL) $(top_srcdir)/ci/gen-completion.sh src/perfab$(EXEEXT) >$@.tmp && mv $@.tmp $@
CLEANFILES += src/completion/perfab
EXTRA_DIST += ci/gen-completion.sh

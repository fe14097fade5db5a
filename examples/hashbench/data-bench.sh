#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# data-bench.sh [FILE] — the data-file benchmark of the example: run
# build/hashbench with the table size and lookup rounds written in FILE
# (default examples/hashbench/workload.txt: "SIZE ROUNDS"), from the root
# of a checkout. perfab's action runs it as
#
#     bench: sh examples/hashbench/data-bench.sh examples/hashbench/workload.txt
#
# in each checkout: base and head each read their own workload.txt and run
# their own build (README, doc/ci.md).
set -eu
read -r size rounds <"${1:-examples/hashbench/workload.txt}"
exec examples/hashbench/build/hashbench "$size" "$rounds"

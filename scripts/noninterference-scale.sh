#!/usr/bin/env bash
# The noninterference test at scale: every ruleset's twins checked over
# NONINTERFERENCE_SCALE times the suite's self-played games (default 20),
# release build, one test at a time (a test is one ruleset and its options).
#
#   scripts/noninterference-scale.sh              every ruleset, 20 times the suite
#   NONINTERFERENCE_SCALE=100 scripts/noninterference-scale.sh asia_crossroads
#
# Prints each case's games, states, twins and probes, the kinds of secret its
# twins varied and its time; exits 1 at the first leak (the channel, the
# first differing line, the viewer and the twin's seed are printed).
set -euo pipefail
cd "$(dirname "$0")/.."
export NONINTERFERENCE_SCALE=${NONINTERFERENCE_SCALE:-20}
nice -n 19 cargo test --release --test secrets noninterference:: -- --test-threads 1 --nocapture "$@"

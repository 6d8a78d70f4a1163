#!/usr/bin/env bash
# The self-play runs of the test suite. Every game is played to its end with
# invariants checked after every order, and every record (the full one and
# each side's copy) replayed and verified. Run by scripts/test.sh after
# `cargo test`, with the binary that `cargo test` built (tests profile), in
# two lanes.
#
# By default it plays half the full counts (ldf 150, ac 100
# across scenarios and options, adp 96 across every mode), about 3 minutes on
# 2 cores, so that CI stays near 30 minutes; UMPIRE_SELFPLAY=full plays the
# full counts (ldf 300, ac 200, adp 200) and UMPIRE_SELFPLAY=quick a
# quarter of them (what CI runs, .ci/run). The runs at scale are
# scripts/selfplay-scale.sh.
#
# Usage: scripts/selfplay-suite.sh [UMPIRE_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug/umpire}
[ -x "$bin" ] || { echo "no umpire binary at $bin (cargo build first)" >&2; exit 1; }
logs=$(mktemp -d /tmp/umpire-selfplay.XXXXXX)
trap 'rm -rf "$logs"' EXIT

# One run: its command line, then the summary line `selfplay` prints.
run() {
  local name=$1; shift
  local dir="$logs/$name"
  mkdir -p "$dir"
  if ! "$bin" selfplay --dir "$dir/data" "$@" >"$dir/out" 2>&1; then
    echo "FAILED: umpire selfplay $*" >&2
    tail -20 "$dir/out" >&2
    return 1
  fi
  printf '%s: %s\n' "$name" "$(grep -m1 ' games of ' "$dir/out")"
}

# Games per run: the full counts, halved unless UMPIRE_SELFPLAY=full
# (all of them) or quick (a quarter).
case "${UMPIRE_SELFPLAY:-}" in
  full) part=1 ;;
  quick) part=4 ;;
  *) part=2 ;;
esac
n() { echo $(( $1 / part )); }

# Two lanes of about equal length (the non-player modes of adp are the slow ones).
adp() { run "adp-$1" adp --scenario "$1" --games "$(n 25)" --seed 2026; }

lane_one() {
  run ldf ldf --games "$(n 300)" --seed 1
  adp standin-1p-taliban
  adp standin-3p-np
}

lane_two() {
  run ac-s1 ac --scenario s1 --games "$(n 100)" --seed 1 -o ultimatums=on -o staff_work=on \
    -o forced_march=on -o telegraph=on -o massacre=on -o discoveries=on
  run ac-s2 ac --scenario s2 --games "$(n 50)" --seed 1 -o ultimatums=on -o levy=invasion
  run ac-s3 ac --scenario s3 --games "$(n 50)" --seed 1 -o base=s2
  for m in standin standin-3p standin-2p standin-2p-alt standin-2p-np standin-1p-coalition; do
    adp "$m"
  done
}

t0=$(date +%s)
lane_one >"$logs/lane1" 2>&1 &
one=$!
lane_two >"$logs/lane2" 2>&1 &
two=$!
rc=0
wait "$one" || rc=1
wait "$two" || rc=1
cat "$logs/lane1" "$logs/lane2"
echo "self-play suite: $(( $(date +%s) - t0 )) s"
exit "$rc"

#!/usr/bin/env bash
# Self-play at scale (issue 12.8): GAMES random legal games of each ruleset
# (default: all of them), through signed moves, invariants checked after every
# entry and each record verified at the end. Batches run in parallel, one per
# core, each with its own seed (game seeds are derived from the batch seed and
# the game number, so batches never repeat a game).
#
#   scripts/selfplay-scale.sh 100000            every ruleset
#   scripts/selfplay-scale.sh 100000 sarhu ldf  some
#
# Prints each ruleset's wall time and the results per outcome; exit 1 if any
# game fails (the failing game's seed and record are printed).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:?usage: scripts/selfplay-scale.sh GAMES [RULESET...]}
shift
rulesets=("$@")
[ ${#rulesets[@]} -gt 0 ] || rulesets=(freeform sarhu ldf ac adp)
jobs=${JOBS:-$(nproc)}

nice -n 5 cargo build --release --quiet
bin=target/release/umpire
out=$(mktemp -d "${TMPDIR:-/tmp}/umpire-selfplay.XXXXXX")
trap 'rm -rf "$out"' EXIT
status=0
for r in "${rulesets[@]}"; do
  # freeform never ends by itself: give it a length.
  opts=()
  [ "$r" = freeform ] && opts=(-o turns=20)
  per=$(( (games + jobs - 1) / jobs ))
  t0=$(date +%s)
  pids=()
  for j in $(seq 1 "$jobs"); do
    n=$(( games - (j - 1) * per )); [ "$n" -gt "$per" ] && n=$per
    [ "$n" -gt 0 ] || continue
    nice -n 5 "$bin" selfplay "$r" --games "$n" --seed "$(( 1000 + j ))" "${opts[@]}" \
      > "$out/$r.$j" 2>&1 &
    pids+=($!)
  done
  ok=1
  for p in "${pids[@]}"; do wait "$p" || ok=; done
  echo "== $r: $games games in $(( $(date +%s) - t0 )) s on $jobs cores"
  if [ -z "$ok" ]; then
    grep -h "FAILED\|record so far" "$out/$r".* >&2 || true
    status=1
  fi
  # Sum the per-outcome counts ("  name: N" lines) over the batches.
  cat "$out/$r".* | awk '/^  [^ ].*: [0-9]+$/ { sub(/^  /, ""); split($0, a, ": "); n[a[1]] += a[2] }
    END { for (k in n) printf "  %s: %d\n", k, n[k] }' | sort
done
exit $status

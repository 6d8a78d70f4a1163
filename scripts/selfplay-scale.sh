#!/usr/bin/env bash
# Self-play at scale: GAMES random legal games of each ruleset
# (default: all of them), through signed moves, invariants checked after every
# entry and each record verified at the end.
#
#   scripts/selfplay-scale.sh 100000            every ruleset
#   scripts/selfplay-scale.sh 100000 sarhu ldf  some
#
# The games are played in batches of BATCH (default 5,000), JOBS at a time
# (default: one per core). Batch k plays with seed 1000+k (game seeds are
# derived from the batch seed and the game number, so batches never repeat a
# game). Each finished batch's output is kept in OUT/<ruleset>/ (default
# OUT: target/selfplay-scale, outside the tracked files; docs/dev/selfplay.md
# has the last runs' figures); a run stopped part-way and started again with
# the same GAMES, BATCH and OUT plays only the batches not yet finished, so a
# long run can be spread over several sittings and machines.
#
# Prints, per ruleset, the batches finished, the games, signed moves, rolls
# and defaults summed over them, the CPU time, and the results per outcome;
# exit 1 if any game fails (the failing game's seed and record are printed).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:?usage: scripts/selfplay-scale.sh GAMES [RULESET...]}
shift
rulesets=("$@")
[ ${#rulesets[@]} -gt 0 ] || rulesets=(freeform sarhu ldf ac adp)
jobs=${JOBS:-$(nproc)}
batch=${BATCH:-5000}
out=${OUT:-target/selfplay-scale}

nice -n 5 cargo build --release --quiet
bin=target/release/umpire
status=0

# The file that holds the output of batch $2 of ruleset $1 ($3 games) once it is done.
batch_file() { echo "$out/$1/seed-$(( 1000 + $2 ))-games-$3.txt"; }

# Plays batch $2 of ruleset $1 ($3 games) unless it is already done.
play_batch() {
  local r=$1 k=$2 n=$3 dir="$out/$1"
  local done_file
  done_file=$(batch_file "$r" "$k" "$n")
  [ -f "$done_file" ] && return 0
  local opts=()
  # freeform never ends by itself: give it a length.
  [ "$r" = freeform ] && opts=(-o turns=20)
  local t0=$SECONDS
  if nice -n 5 /usr/bin/env time -f "cpu: %U %S" "$bin" selfplay "$r" --games "$n" \
    --seed "$(( 1000 + k ))" "${opts[@]}" > "$dir/batch-$k.part" 2>&1; then
    echo "wall: $(( SECONDS - t0 ))" >> "$dir/batch-$k.part"
    mv "$dir/batch-$k.part" "$done_file"
  else
    mv "$dir/batch-$k.part" "$dir/seed-$(( 1000 + k )).failed"
    return 1
  fi
}

for r in "${rulesets[@]}"; do
  mkdir -p "$out/$r"
  batches=$(( (games + batch - 1) / batch ))
  pids=()
  files=()
  for k in $(seq 1 "$batches"); do
    n=$(( games - (k - 1) * batch )); [ "$n" -gt "$batch" ] && n=$batch
    files+=("$(batch_file "$r" "$k" "$n")")
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    play_batch "$r" "$k" "$n" &
    pids+=($!)
  done
  ok=1
  for p in "${pids[@]}"; do wait "$p" || ok=; done
  done_files=()
  for f in "${files[@]}"; do [ -f "$f" ] && done_files+=("$f"); done
  echo "== $r: ${#done_files[@]} of $batches batches done ($out/$r)"
  if [ -z "$ok" ]; then
    for f in "$out/$r"/*.failed; do echo "$f:" >&2; grep -v "^cpu: " "$f" | tail -3 >&2; done
    status=1
  fi
  [ ${#done_files[@]} -gt 0 ] || continue
  # Sum the header line ("N games of R (S) in T: M signed moves, D defaults,
  # R rolls, X orders not carried out"), the CPU time and the per-outcome
  # counts ("  name: N" lines) over the finished batches.
  cat "${done_files[@]}" | awk '
    / games of .* signed moves/ {
      g += $1
      for (i = 1; i <= NF; i++) {
        if ($(i+1) == "signed") m += $i
        if ($(i+1) ~ /^defaults/) d += $i
        if ($(i+1) ~ /^rolls/) r += $i
        if ($(i+1) == "orders") x += $i
      }
    }
    /^cpu: / { cpu += $2 + $3 }
    /^  [^ ].*: [0-9]+$/ { sub(/^  /, ""); split($0, a, ": "); n[a[1]] += a[2] }
    END {
      printf "  games: %d, signed moves: %d, defaults: %d, rolls: %d, orders not carried out: %d\n", g, m, d, r, x
      printf "  CPU: %.0f s (%.4f s a game)\n", cpu, (g ? cpu / g : 0)
      for (k in n) printf "  %s: %d\n", k, n[k] | "sort"
    }'
done
exit $status

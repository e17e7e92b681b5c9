#!/usr/bin/env bash
# `spotcheck shrink` refuses what it cannot shrink with one line and exit 2 (docs/replay.md).
#   shrink_cli_smoke.sh <path to spotcheck> <scratch dir>
set -u
bin="$1"
scratch="$2"
mkdir -p "$scratch"
failures=0
checks=0

# shellcheck source=../cli/expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli/expect.sh"

expect 2 "--seed is required" -- shrink
expect 2 "unknown scenario 'nope'" -- shrink --scenario nope --seed 1
# Every scenario shrinks now (the decision-log stage); their seed 1 passes on the real protocol.
expect 2 "seed 1 of synthetic passes: there is no failure to shrink" -- shrink --scenario synthetic --seed 1 --results "$scratch/r"
expect 2 "seed 1 of create-storm passes: there is no failure to shrink" -- shrink --scenario create-storm --seed 1 --results "$scratch/r"
expect 2 "--max-runs must be at least 4" -- shrink --scenario lease-pause --seed 1 --max-runs 3
expect 2 "cannot be read" -- shrink --scenario "$scratch/missing.json" --seed 1
# The real protocol passes lease-pause seed 1 (tests/campaign): nothing to shrink, no file written.
expect 2 "seed 1 of lease-pause passes: there is no failure to shrink" -- shrink --scenario lease-pause --seed 1 --out "$scratch/x.json" --results "$scratch/r"
checks=$((checks + 1))
if [ -e "$scratch/x.json" ] || [ -n "$(ls -A "$scratch/r" 2>/dev/null)" ]; then
  echo "FAIL: a file was written for a passing seed"; failures=$((failures + 1))
fi

passed=$((checks - failures))
echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]

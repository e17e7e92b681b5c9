#!/usr/bin/env bash
# End-to-end checks of the spotcheck binary: exit codes, one-line errors, replay reproduces a run.
#   cli_smoke.sh <path to spotcheck> <scratch dir>
set -u
bin="$1"
scratch="$2"
mkdir -p "$scratch"
failures=0
checks=0

# shellcheck source=../cli/expect.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli/expect.sh"

expect 2 "A subcommand is required" --
expect 2 "--seeds must be a plain decimal number" -- run --seeds x
expect 2 "unknown scenario 'nope'" -- run --scenario nope
expect 2 "--seeds must be at least 1" -- run --seeds 0
expect 2 "cannot be read" -- run --scenario "$scratch/missing.json"
echo '{"scenarioVersion":1,"name":"x","nodes":"many"}' > "$scratch/bad.json"
expect 2 "nodes must be a whole number" -- run --scenario "$scratch/bad.json"
expect 2 "cannot write JUnit report" -- run --seeds 1 --junit /nonexistent/dir/x.xml
expect 2 "replay needs --seed (and --scenario), or a trace file" -- replay
expect 0 "" -- list
expect 0 "" -- run --scenario default --seeds 3 --jobs 2 --quiet --junit "$scratch/out.xml"
checks=$((checks + 1))
grep -q '<testcase classname="spotcheck.default" name="seed 3"/>' "$scratch/out.xml" || {
  echo "FAIL: JUnit report lacks seed 3"; failures=$((failures + 1)); }

# A replay reproduces the campaign's run: same trace hash twice, and --trace prints every event.
a=$("$bin" replay --scenario churn --seed 5 | tail -2 | head -1)
b=$("$bin" replay --scenario churn --seed 5 --trace-out "$scratch/t.trace" | tail -2 | head -1)
checks=$((checks + 2))
if [ "$a" != "$b" ]; then echo "FAIL: replays differ: '$a' vs '$b'"; failures=$((failures + 1)); fi
events=$(printf '%s' "$a" | sed -n 's/.*: \([0-9]*\) events.*/\1/p')
lines=$(wc -l < "$scratch/t.trace")
if [ -z "$events" ] || [ "$lines" -ne "$events" ]; then
  echo "FAIL: trace file has $lines lines for $events events"; failures=$((failures + 1)); fi

passed=$((checks - failures))
echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]

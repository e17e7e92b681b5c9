#!/usr/bin/env bash
# From the command line alone: a scenario file plants a protocol bug, the campaign finds it and
# prints replay and shrink commands, shrink writes a smaller file and the shrunk run's trace file
# into the results folder, the file replays to the same property violation and the trace file to
# the same run (docs/replay.md).
#   planted_file_cli.sh <path to spotcheck> <scenario file with a planted bug> <scratch dir>
set -u
bin="$1"
scenario="$2"
scratch="$3"
rm -rf "$scratch" && mkdir -p "$scratch"
fail() { echo "FAIL: $*"; exit 1; }

"$bin" run --scenario "$scenario" --seeds 20 --jobs 2 --quiet --html "$scratch/report.html" >"$scratch/run.txt" 2>&1
code=$?
[ "$code" -eq 1 ] || fail "run exited $code, want 1 (a violation): $(tail -5 "$scratch/run.txt")"
# The HTML report: the verdict, and the story of a failing seed with its violating event marked.
grep -q '<h1 class="failed">' "$scratch/report.html" || fail "the HTML report does not say FAILED"
grep -q '<section id="seed-[0-9]*">' "$scratch/report.html" || fail "the HTML report tells no story"
grep -q '<span class="key">  \* #[0-9]* .*object\.\(work\|turn\)' "$scratch/report.html" || fail "no violating event marked in the HTML story"
grep -q "^FAILED seed [0-9]*: single-owner" "$scratch/run.txt" || fail "no single-owner failure in: $(head -5 "$scratch/run.txt")"
shrink_line=$(grep -m1 "shrink: spotcheck shrink --scenario" "$scratch/run.txt") || fail "run printed no shrink command"
seed=$(printf '%s\n' "$shrink_line" | sed -n 's/.*--seed \([0-9]*\).*/\1/p')
[ -n "$seed" ] || fail "no seed in '$shrink_line'"

"$bin" shrink --scenario "$scenario" --seed "$seed" --out "$scratch/shrunk.json" --results "$scratch/results" >"$scratch/shrink.txt" 2>&1
code=$?
[ "$code" -eq 0 ] || fail "shrink exited $code: $(tail -5 "$scratch/shrink.txt")"
[ -s "$scratch/shrunk.json" ] || fail "shrink wrote no file"
grep -q '"admit-past-deadline"' "$scratch/shrunk.json" || fail "the shrunk file lost the planted bug"
grep -q "^story of the violation (single-owner" "$scratch/shrink.txt" || fail "shrink told no story"
trace="$scratch/results/planted-admit-past-deadline-seed-$seed-shrunk.trace.jsonl"
[ -s "$trace" ] || fail "shrink wrote no trace file $trace: $(ls "$scratch/results" 2>&1)"
grep -q "^replay: spotcheck replay $trace$" "$scratch/shrink.txt" || fail "shrink printed no replay command for its trace file"
head -1 "$trace" | grep -q '"replayFrom":"decisionLog"' || fail "the shrunk trace file does not replay from its decision log"
# The story is short (issue 12: at most 30 events) and every kept step lowered or kept the events.
story=$(sed -n '/^story of/,/^  \* the violating/p' "$scratch/shrink.txt" | grep -c '^  [ *!] #')
[ "$story" -le 30 ] || fail "the story has $story events"
"$bin" replay "$trace" >"$scratch/replay-trace.txt" 2>&1
code=$?
[ "$code" -eq 1 ] || fail "replay of the trace file exited $code, want 1: $(tail -3 "$scratch/replay-trace.txt")"
grep -q "^reproduced: the same trace, event for event$" "$scratch/replay-trace.txt" ||
  fail "the trace file did not reproduce: $(cat "$scratch/replay-trace.txt")"

"$bin" replay --scenario "$scratch/shrunk.json" --seed "$seed" >"$scratch/replay.txt" 2>&1
code=$?
[ "$code" -eq 1 ] || fail "replay of the shrunk file exited $code, want 1: $(tail -3 "$scratch/replay.txt")"
grep -q "^VIOLATION single-owner" "$scratch/replay.txt" || fail "replay did not repeat the violation: $(cat "$scratch/replay.txt")"
# The shrunk run is smaller than the original one.
before=$("$bin" replay --scenario "$scenario" --seed "$seed" | sed -n 's/.*: \([0-9]*\) events.*/\1/p')
after=$(sed -n 's/.*: \([0-9]*\) events.*/\1/p' "$scratch/replay.txt")
[ -n "$before" ] && [ -n "$after" ] && [ "$after" -lt "$before" ] || fail "shrunk run has $after events, original $before"
echo "ok: seed $seed, $before -> $after events"

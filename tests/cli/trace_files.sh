#!/usr/bin/env bash
# Trace files (issue 12): `spotcheck run` writes one for each of the first failing seeds into its
# results folder; `spotcheck replay FILE` reproduces it on this build (same trace hash), and on
# "another build" (the file's binary hash changed) replays from the file's decision log and says
# whether the runs part, and where. Bad files are one line and exit 2.
#   trace_files.sh <path to spotcheck> <scratch dir> <repository root>
set -u
bin="$1"
scratch="$2"
root="$3"
rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$bin" run --scenario "$root/scenarios/files/examples/planted-factory-before-verify.json" --seeds 25 --jobs 2 -q \
  --results "$scratch/results" >run.txt
[ $? -eq 1 ] || fail "the failing campaign did not exit 1"
count=$(ls results/*.trace.jsonl 2>/dev/null | wc -l)
[ "$count" -eq 20 ] || fail "$count trace files, want the first 20 failing seeds'"
grep -q "^  trace:  $scratch/results/planted-factory-before-verify-seed-1.trace.jsonl" run.txt || fail "the summary names no trace file"
file="results/planted-factory-before-verify-seed-1.trace.jsonl"
ls results/*.tmp* >/dev/null 2>&1 && fail "a temporary file was left behind"

"$bin" replay "$file" >same.txt
[ $? -eq 1 ] || fail "replaying a violating trace did not exit 1"
grep -q "^reproduced: the same trace, event for event$" same.txt || fail "same build: $(cat same.txt)"

sed '1s/"binarySha256":"[0-9a-f]*"/"binarySha256":"0"/' "$file" >other.jsonl
"$bin" replay other.jsonl >other.txt 2>other.err
[ $? -eq 1 ] || fail "another build: the violation is gone?"
grep -q "^spotcheck: warning: the trace file is of another build" other.err || fail "no warning: $(cat other.err)"
grep -q "^the two runs agree on every event$" other.txt || fail "another build: $(cat other.txt)"

# An event the file's run had otherwise: the runs part there (another build: not a failure in itself).
awk 'NR == 101 { print "\"an event this run never had\""; next } { print }' other.jsonl >edited.jsonl
"$bin" replay edited.jsonl >edited.txt 2>/dev/null
grep -q "^the runs part at event 99$" edited.txt || fail "edited event: $(head -5 edited.txt)"
awk 'NR == 101 { print "\"an event this run never had\""; next } { print }' "$file" >edited-same.jsonl
"$bin" replay edited-same.jsonl >edited-same.txt
[ $? -eq 1 ] || fail "same build, another trace: not exit 1"
grep -q "^NONDETERMINISM" edited-same.txt || fail "same build, another trace: $(cat edited-same.txt)"

expect_usage() {
  local want="$1"; shift
  local err code
  err=$("$bin" "$@" 2>&1 >/dev/null)
  code=$?
  [ "$code" -eq 2 ] || fail "$*: exit $code, want 2"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "$*: not one line: $err"
  [[ "$err" == $want ]] || fail "$*: '$err', want '$want'"
}
head -n 50 "$file" >truncated.jsonl
expect_usage "spotcheck: trace file 'truncated.jsonl' line 51: the file ends after 49 of * events (truncated?)" replay truncated.jsonl
printf 'not json\n' >garbage.jsonl
expect_usage "spotcheck: trace file 'garbage.jsonl' line 1: not a trace file header: *" replay garbage.jsonl
expect_usage "spotcheck: cannot read trace file 'missing.jsonl'" replay missing.jsonl
expect_usage "spotcheck: a trace file names its own scenario, seed and flags: give it alone" replay "$file" --seed 3
expect_usage "spotcheck: replay needs --seed (and --scenario), or a trace file" replay

echo "$failures failure(s)"
[ "$failures" -eq 0 ]

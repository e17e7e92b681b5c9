#!/usr/bin/env bash
# spotcheck regress: the corpus holds on this build; a regression and a stale entry are each found
# (exit 1, one FAIL line naming the file); bad input is one line and exit 2 (docs/replay.md).
#   regress_cli.sh <path to spotcheck> <corpus dir> <scratch dir>
set -u
bin="$1"
corpus="$2"
scratch="$3"
rm -rf "$scratch" && mkdir -p "$scratch"
fail() { echo "FAIL: $*"; exit 1; }

"$bin" regress "$corpus" >"$scratch/ok.txt" 2>&1 || fail "the corpus does not hold: $(cat "$scratch/ok.txt")"
grep -q "^every entry holds$" "$scratch/ok.txt" || fail "no verdict line: $(cat "$scratch/ok.txt")"

# A regression: the entry's fixed run fails (its scenario's step budget cut to 20 steps).
entry="$corpus/planted-admit-past-deadline-seed-2-shrunk.trace.jsonl"
mkdir -p "$scratch/regressed" "$scratch/stale" "$scratch/empty"
python3 - "$entry" "$scratch/regressed/x.trace.jsonl" "$scratch/stale/y.trace.jsonl" <<'PY'
import json, sys
src, regressed, stale = sys.argv[1:4]
lines = open(src).read().splitlines()
header = json.loads(lines[0])
scenario = json.loads(header["scenario"]["fileText"])
scenario["maxSteps"] = 20
h = dict(header); h["scenario"] = dict(header["scenario"]); h["scenario"]["fileText"] = json.dumps(scenario)
open(regressed, "w").write("\n".join([json.dumps(h)] + lines[1:]) + "\n")
h = dict(header); h["verdict"] = dict(header["verdict"]); h["verdict"]["property"] = "capacity"
open(stale, "w").write("\n".join([json.dumps(h)] + lines[1:]) + "\n")
PY
"$bin" regress "$scratch/regressed" >"$scratch/r.txt" 2>&1
code=$?
[ "$code" -eq 1 ] || fail "a regression exited $code: $(cat "$scratch/r.txt")"
grep -q "FAIL  $scratch/regressed/x.trace.jsonl: REGRESSION: the fixed run breaks (step budget" "$scratch/r.txt" ||
  fail "the regression is not named: $(cat "$scratch/r.txt")"

"$bin" regress "$scratch/stale" >"$scratch/s.txt" 2>&1
code=$?
[ "$code" -eq 1 ] || fail "a stale entry exited $code: $(cat "$scratch/s.txt")"
grep -q "STALE: with its bug planted the run violates single-owner, not capacity as recorded" "$scratch/s.txt" ||
  fail "the stale entry is not named: $(cat "$scratch/s.txt")"

"$bin" regress "$scratch/empty" >"$scratch/e.txt" 2>&1
[ $? -eq 2 ] && grep -q "holds no trace file" "$scratch/e.txt" || fail "an empty folder: $(cat "$scratch/e.txt")"
"$bin" regress "$scratch/missing" >"$scratch/m.txt" 2>&1
[ $? -eq 2 ] && grep -q "cannot read the corpus folder" "$scratch/m.txt" || fail "a missing folder: $(cat "$scratch/m.txt")"
echo "not a trace file" >"$scratch/empty/bad.trace.jsonl"
"$bin" regress "$scratch/empty" >/dev/null 2>"$scratch/b.txt"
[ $? -eq 2 ] && [ "$(wc -l <"$scratch/b.txt")" -eq 1 ] && grep -q "bad.trace.jsonl" "$scratch/b.txt" ||
  fail "a bad file: $(cat "$scratch/b.txt")"
echo "ok"

#!/usr/bin/env bash
# `spotcheck shrink` refuses what it cannot shrink with one line and exit 2 (docs/replay.md).
#   shrink_cli_smoke.sh <path to spotcheck> <scratch dir>
set -u
bin="$1"
scratch="$2"
mkdir -p "$scratch"
failures=0
checks=0

expect() {  # expect <exit code> <stderr substring> -- args...
  local want_code="$1" want_text="$2"
  checks=$((checks + 1))
  shift 3
  local err code
  err=$("$bin" "$@" 2>&1 >/dev/null)
  code=$?
  # Sanitizer builds warn about makecontext/swapcontext on stderr; that is not the command's output.
  err=$(printf '%s\n' "$err" | grep -v '^==[0-9]*==WARNING: ASan' | sed '/^$/d')
  if [ "$code" -ne "$want_code" ]; then
    echo "FAIL: spotcheck $* exited $code, want $want_code ($err)"
    failures=$((failures + 1))
  elif [[ "$err" != *"$want_text"* ]]; then
    echo "FAIL: spotcheck $* said '$err', want '$want_text'"
    failures=$((failures + 1))
  elif [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then
    echo "FAIL: spotcheck $* error is not one line: $err"
    failures=$((failures + 1))
  fi
}

expect 2 "--seed is required" -- shrink
expect 2 "unknown scenario 'nope'" -- shrink --scenario nope --seed 1
expect 2 "does not support scenario 'synthetic' yet" -- shrink --scenario synthetic --seed 1
expect 2 "does not support scenario 'create-storm' yet" -- shrink --scenario create-storm --seed 1
expect 2 "--max-runs must be at least 2" -- shrink --scenario lease-pause --seed 1 --max-runs 1
expect 2 "cannot be read" -- shrink --scenario "$scratch/missing.json" --seed 1
# The real protocol passes lease-pause seed 1 (tests/campaign): nothing to shrink, no file written.
expect 2 "seed 1 of lease-pause passes: there is no failure to shrink" -- shrink --scenario lease-pause --seed 1 --out "$scratch/x.json"
checks=$((checks + 1))
if [ -e "$scratch/x.json" ]; then echo "FAIL: a file was written for a passing seed"; failures=$((failures + 1)); fi

passed=$((checks - failures))
echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# What `spotcheck run` leaves behind when it is interrupted, and the commands it prints (issue 9):
#   - SIGINT/SIGTERM stop the campaign: the summary of the seeds that finished is printed, the
#     JUnit and HTML reports are written for them, the exit status is 130/143;
#   - until then an earlier report at the same path stays whole (reports are renamed into place);
#   - memory does not grow with the seed count;
#   - a printed replay command pastes back into a shell even when the path holds a space or '<'.
#   run_outputs.sh <path to spotcheck> <scratch dir>
set -u
set -m  # background jobs keep the default SIGINT disposition
bin="$1"
scratch="$2"
rm -rf "$scratch"
mkdir -p "$scratch"
failures=0
checks=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
check() { checks=$((checks + 1)); }

# Waits until the file exists and holds a line matching the pattern (at most ~30 s).
wait_for_line() {
  local file="$1" pattern="$2"
  for _ in $(seq 300); do
    grep -q -- "$pattern" "$file" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

interrupt_case() {
  local signal="$1" want_code="$2"
  local dir="$scratch/$signal"
  mkdir -p "$dir"
  echo "OLD REPORT" > "$dir/j.xml"
  echo "OLD REPORT" > "$dir/h.html"
  "$bin" run --scenario default --seeds 1000000 --jobs 2 --junit "$dir/j.xml" --html "$dir/h.html" \
    >"$dir/out" 2>"$dir/err" &
  local pid=$!
  wait_for_line "$dir/err" "seeds [1-9]" || fail "$signal: no progress line before the signal"
  check
  [ "$(cat "$dir/j.xml")" = "OLD REPORT" ] || fail "$signal: the earlier JUnit report was touched while the run went on"
  [ "$(cat "$dir/h.html")" = "OLD REPORT" ] || fail "$signal: the earlier HTML report was touched while the run went on"
  kill -s "$signal" "$pid"
  wait "$pid"
  local code=$?
  check
  [ "$code" -eq "$want_code" ] || fail "$signal: exit $code, want $want_code ($(tail -3 "$dir/err"))"
  check
  grep -q "^interrupted     by signal" "$dir/out" || fail "$signal: the summary does not say it was interrupted"
  grep -q "^INTERRUPTED" "$dir/out" || fail "$signal: the summary has no INTERRUPTED verdict"
  local run
  run=$(sed -n 's/^seeds           \([0-9]*\) of 1000000.*/\1/p' "$dir/out")
  check
  if [ -z "$run" ] || [ "$run" -lt 1 ] || [ "$run" -ge 1000000 ]; then fail "$signal: seeds run '$run'"; fi
  check
  grep -q "<testsuite name=\"spotcheck.default\" tests=\"$run\" failures=\"0\"" "$dir/j.xml" ||
    fail "$signal: the JUnit report does not count the $run finished seeds: $(head -c 300 "$dir/j.xml")"
  grep -q "<testcase classname=\"spotcheck.default\" name=\"seed $run\"/>" "$dir/j.xml" ||
    fail "$signal: the JUnit report lacks the last finished seed $run"
  tail -1 "$dir/j.xml" | grep -q "</testsuites>" || fail "$signal: the JUnit report is not complete"
  check
  grep -q "<h1 class=\"passed\">spotcheck default: INTERRUPTED</h1>" "$dir/h.html" ||
    fail "$signal: the HTML report does not say it was interrupted"
  tail -1 "$dir/h.html" | grep -q "</html>" || fail "$signal: the HTML report is not complete"
  check
  [ -z "$(find "$dir" -name '.*.tmp-*')" ] || fail "$signal: temporary files left: $(ls -a "$dir")"
}

interrupt_case INT 130
interrupt_case TERM 143

# A campaign's memory does not grow with its seed count: 100 million seeds hold no per-seed state.
"$bin" run --scenario default --seeds 100000000 --jobs 2 --quiet >"$scratch/big.out" 2>"$scratch/big.err" &
pid=$!
sleep 3
rss_kb=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
kill -s INT "$pid"
wait "$pid"
code=$?
check
[ "$code" -eq 130 ] || fail "100M seeds: exit $code, want 130 ($(tail -2 "$scratch/big.err"))"
check
if [ "$rss_kb" -eq 0 ] || [ "$rss_kb" -gt 300000 ]; then fail "100M seeds: resident set ${rss_kb} kB after 3 s (want < 300 MB)"; fi

# A printed replay command pastes back into a shell: the scenario path holds a space and a '<'.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mkdir -p "$scratch/my dir"
odd="$scratch/my dir/a b<c.json"
cp "$root/scenarios/files/examples/planted-admit-past-deadline.json" "$odd"
"$bin" run --scenario "$odd" --seeds 20 --jobs 2 --quiet >"$scratch/odd.out" 2>&1
code=$?
check
[ "$code" -eq 1 ] || fail "the planted scenario at an odd path exited $code, want 1"
line=$(grep -m1 '^  replay: spotcheck replay' "$scratch/odd.out" | sed 's/^  replay: spotcheck //')
check
if [ -z "$line" ]; then
  fail "no replay command printed: $(head -20 "$scratch/odd.out")"
else
  out=$(eval "\"\$bin\" $line" 2>&1)
  code=$?
  [ "$code" -eq 1 ] && grep -q '^VIOLATION' <<<"$out" || fail "pasting '$line' back gave exit $code: $(tail -2 <<<"$out")"
fi

passed=$((checks - failures))
echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]

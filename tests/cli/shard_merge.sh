#!/usr/bin/env bash
# A campaign split over 4 machines (issue 12): `spotcheck run --shard K/N --summary-json --junit`
# on each, then `spotcheck merge`, equals the unsharded run seed for seed — the summary (but its
# wall time, speed and job count), the JUnit test cases and the exit status — for a failing
# campaign (a planted bug from a file) and a passing one; a missing or foreign shard is one line
# and exit 2.
#   shard_merge.sh <path to spotcheck> <scratch dir> <repository root> <planted bugs compiled: 1|0>
set -u
bin="$1"
scratch="$2"
root="$3"
planted="${4:-0}"
rm -rf "$scratch"
mkdir -p "$scratch"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
steady() { grep -v -e '^wall time' -e '^speed' "$1"; }

one_campaign() {
  local name="$1" scenario="$2" seeds="$3" first="$4" want="$5"
  local dir="$scratch/$name"
  mkdir -p "$dir"
  "$bin" run --scenario "$scenario" --seeds "$seeds" --seed "$first" --jobs 2 -q \
    --junit "$dir/all.xml" --summary-json "$dir/all.json" >"$dir/all.txt"
  local code=$?
  [ "$code" -eq "$want" ] || fail "$name: unsharded run exited $code, want $want"
  local junit_in=()
  for k in 1 2 3 4; do
    "$bin" run --scenario "$scenario" --seeds "$seeds" --seed "$first" --shard "$k/4" --jobs 1 -q \
      --junit "$dir/s$k.xml" --summary-json "$dir/s$k.json" >/dev/null
    junit_in+=(--junit-in "$dir/s$k.xml")
  done
  "$bin" merge "$dir/s4.json" "$dir/s2.json" "$dir/s1.json" "$dir/s3.json" "${junit_in[@]}" \
    --junit "$dir/m.xml" --summary-json "$dir/m.json" >"$dir/m.txt"
  code=$?
  [ "$code" -eq "$want" ] || fail "$name: merge exited $code, want $want"
  diff <(steady "$dir/all.txt") <(steady "$dir/m.txt") >"$dir/summary.diff" ||
    fail "$name: merged summary differs: $(head -c 600 "$dir/summary.diff")"
  # Each shard tells the stories of its own first failing seeds, so the merge may carry more of them:
  # the cases are compared without their <system-out>, and every story of the unsharded run must be
  # in the merge as it is.
  diff <(grep -v -e ' time="' -e '<system-out>' "$dir/all.xml") <(grep -v -e ' time="' -e '<system-out>' "$dir/m.xml") \
    >"$dir/junit.diff" || fail "$name: merged JUnit differs: $(head -c 600 "$dir/junit.diff")"
  local missing
  missing=$(comm -23 <(grep '<system-out>' "$dir/all.xml" | sort) <(grep '<system-out>' "$dir/m.xml" | sort) | wc -l)
  [ "$missing" -eq 0 ] || fail "$name: $missing stories of the unsharded run are not in the merge"
  grep -q '<testcase' "$dir/m.xml" || fail "$name: no test case in the merged JUnit"
}

if [ "$planted" = 1 ]; then
  one_campaign failing "$root/scenarios/files/examples/planted-factory-before-verify.json" 22 5 1
fi
one_campaign passing default 30 1 0

# A missing shard, a shard twice, a shard of another campaign: one line, exit 2.
dir="$scratch/passing"
"$bin" run --scenario default --seeds 29 --seed 1 --shard 1/4 -q --summary-json "$dir/other.json" >/dev/null
expect_usage() {
  local want="$1"; shift
  local err
  err=$("$bin" merge "$@" 2>&1 >/dev/null)
  local code=$?
  [ "$code" -eq 2 ] || fail "merge $*: exit $code, want 2"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "merge $*: not one line: $err"
  [[ "$err" == $want ]] || fail "merge $*: '$err', want '$want'"
}
expect_usage "spotcheck: shard 4/4 is missing" "$dir/s1.json" "$dir/s2.json" "$dir/s3.json"
expect_usage "spotcheck: shard 2/4 is given twice" "$dir/s1.json" "$dir/s2.json" "$dir/s2.json" "$dir/s3.json" "$dir/s4.json"
expect_usage "spotcheck: shard 1/4 is of another campaign than shard 1/4 (seed range differs)" "$dir/other.json" "$dir/s1.json"
printf '{"spotcheckCampaign": 1, "scenario": "x"}' >"$dir/bad.json"
expect_usage "spotcheck: campaign summary '$dir/bad.json': lacks field 'shard'" "$dir/bad.json"
expect_usage "spotcheck: cannot read campaign summary '$dir/none.json'" "$dir/none.json"
expect_usage "spotcheck: summaries is required*"
"$bin" run --seeds 3 --shard 4/4 -q >/dev/null 2>"$dir/err"; [ $? -eq 2 ] || fail "run --shard 4/4 of 3 seeds: not exit 2"
grep -q "^spotcheck: --shard 4/4 runs no seed of the 3 asked for$" "$dir/err" || fail "run --shard 4/4: $(cat "$dir/err")"
"$bin" run --seeds 3 --shard 2 -q >/dev/null 2>"$dir/err"; [ $? -eq 2 ] || fail "run --shard 2: not exit 2"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]

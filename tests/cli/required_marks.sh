#!/usr/bin/env bash
# Coverage marks (docs/marks.md): a short plain campaign of every built-in scenario reaches every
# mark the scenario requires (`spotcheck run --require-marks` passes), the scenarios together
# require every mark there is, and a campaign too short to reach a required mark fails naming it.
set -euo pipefail
bin="$1"
fail() { echo "required_marks: $*" >&2; exit 1; }

seeds=60
required_all=""
for scenario in default authority-race lease-pause store-outage churn create-storm message-storm instance-route synthetic; do
  out="$("$bin" run --scenario "$scenario" --seeds "$seeds" --jobs 2 --quiet --require-marks)" ||
    fail "$scenario: --require-marks failed in $seeds seeds: $(grep -E '^(required marks|violations|run failures)' <<< "$out" | tr '\n' ' ')"
  grep -q '^required marks  all [0-9]* fired$' <<< "$out" || fail "$scenario: no 'required marks' line: $out"
done

# Every mark is required by some built-in scenario: `spotcheck list` names each mark with the
# scenarios that require it.
marks="$("$bin" list | sed -n '/^Coverage marks/,/^$/p')"
count="$(grep -c '^  [a-z]' <<< "$marks" || true)"
(( count >= 10 )) || fail "spotcheck list shows $count coverage marks: $marks"
if grep -q 'required by no built-in scenario' <<< "$marks"; then
  fail "a mark is required by no built-in scenario: $(grep -B1 'required by no built-in' <<< "$marks" | head -1)"
fi

# Too short a campaign: one seed of default does not reach all six of its required marks.
set +e
out="$("$bin" run --scenario default --seeds 1 --quiet --require-marks)"
code=$?
set -e
[ "$code" -eq 1 ] || fail "a required mark that never fired should exit 1, got $code"
grep -qE '^required marks  MISSING [a-z-]+( [a-z-]+)* \(never fired in 1 seeds\)$' <<< "$out" ||
  fail "the missing mark is not named: $out"
grep -q '^FAILED$' <<< "$out" || fail "the campaign did not report FAILED: $out"
# A scenario file requires its own marks: instance-route's marks on the default base never fire.
scratch="$(mktemp -d)"; trap 'rm -rf "$scratch"' EXIT
printf '{"scenarioVersion": 1, "name": "wants-routes", "requireMarks": ["capacity-full", "instance-route"]}\n' \
  > "$scratch/wants-routes.json"
set +e
out="$("$bin" run --scenario "$scratch/wants-routes.json" --seeds 5 --quiet --require-marks)"
code=$?
set -e
[ "$code" -eq 1 ] || fail "a file's unreachable required mark should exit 1, got $code: $out"
grep -q '^required marks  MISSING instance-route (never fired in 5 seeds)$' <<< "$out" ||
  fail "the file's missing mark is not named: $out"
echo "required_marks: every built-in scenario reaches its required marks in $seeds seeds; every mark is required"

#!/usr/bin/env bash
# The HTML reports in a real browser (issue 12, "A picture of the failure"): a campaign of a
# planted-bug scenario file fails and writes its report (--html), its first failing seed is shrunk
# and the shrunk failure's page written (shrink --html). Headless Chromium (Debian's `chromium`,
# installed by scripts/setup) builds each page's DOM, which must hold every sequence diagram whole
# (lanes, arrows, lease and admission bars, marks, the highlighted violating event and the
# property's sentence) and the record-versions table, in a self-contained page; its screenshots of
# the campaign page and of the shrunk story must not be blank, and the story's must show the
# diagram's lanes, admission bars and violation band in their colours.
# Without chromium (or python3) the test is skipped (exit 77, ctest's SKIP_RETURN_CODE) with a
# message, unless SPOTCHECK_REQUIRE_CHROMIUM=1 (CI sets it: .ci/run), which makes it fail.
#   chromium_report.sh <spotcheck> <scenario file> <scratch dir>
set -u
bin="$1"
scenario="$2"
scratch="$3"
checker="$(cd "$(dirname "$0")" && pwd)/check_rendered_report.py"
rm -rf "$scratch"
mkdir -p "$scratch"
fail() { echo "FAIL: $*"; exit 1; }

browser=""
for candidate in chromium chromium-browser; do
  if command -v "$candidate" >/dev/null 2>&1; then browser="$candidate"; break; fi
done
if [ -z "$browser" ] || ! command -v python3 >/dev/null 2>&1; then
  missing="$([ -z "$browser" ] && echo chromium || echo python3)"
  if [[ ${SPOTCHECK_REQUIRE_CHROMIUM:-0} == 1 ]]; then
    fail "no $missing on PATH and SPOTCHECK_REQUIRE_CHROMIUM=1 (scripts/setup installs it)"
  fi
  echo "SKIPPED: no $missing on PATH, the HTML report was not rendered (scripts/setup installs it)"
  exit 77
fi

uri() { python3 -c 'import pathlib, sys; print(pathlib.Path(sys.argv[1]).resolve().as_uri())' "$1"; }
# Each run gets its own profile in the scratch folder; its chatter (D-Bus, GPU) goes to a log.
browse() {
  timeout 60 "$browser" --headless --disable-gpu --no-sandbox --no-first-run --hide-scrollbars \
    --user-data-dir="$scratch/profile" "$@" 2>>"$scratch/chromium.log"
}
# shot <page> <png> <width> <height> [diagram]: a half-scale screenshot (small to decode), checked.
shot() {
  browse --force-device-scale-factor=0.5 --window-size="$3,$4" --screenshot="$2" "$(uri "$1")" >/dev/null ||
    fail "chromium --screenshot of $1 failed"
  [ -s "$2" ] || fail "chromium wrote no screenshot of $1: $(tail -3 "$scratch/chromium.log")"
  python3 "$checker" png "$2" ${5:-} || exit 1
}
# dom <page>: Chromium's DOM of the page holds its diagrams and tables whole.
dom() {
  browse --dump-dom "$(uri "$1")" >"$1.dom" || fail "chromium --dump-dom of $1 failed: $(tail -3 "$scratch/chromium.log")"
  python3 "$checker" dom "$1" "$1.dom" || exit 1
}

"$bin" run --scenario "$scenario" --seeds 20 --html "$scratch/report.html" --results "$scratch/results" -q \
  >"$scratch/run.out" 2>&1
code=$?
[ "$code" -eq 1 ] || fail "the planted-bug campaign exited $code, want 1: $(tail -3 "$scratch/run.out")"
seed=$(sed -n 's/.*shrink: spotcheck shrink .*--seed \([0-9]*\).*/\1/p' "$scratch/run.out" | head -1)
[ -n "$seed" ] || fail "the campaign printed no shrink command: $(head -5 "$scratch/run.out")"
"$bin" shrink --scenario "$scenario" --seed "$seed" --results "$scratch/results" --html "$scratch/shrunk.html" \
  >"$scratch/shrink.out" 2>&1
code=$?
[ "$code" -eq 0 ] || fail "shrink of seed $seed exited $code: $(tail -3 "$scratch/shrink.out")"

dom "$scratch/report.html"
dom "$scratch/shrunk.html"
shot "$scratch/report.html" "$scratch/page.png" 1200 900
height="$(python3 "$checker" story-page "$scratch/shrunk.html" "$scratch/story.html")" || { echo "$height"; exit 1; }
shot "$scratch/story.html" "$scratch/story.png" 1100 "$height" diagram
echo "PASS: seed $seed's diagrams render in $("$browser" --version 2>/dev/null | head -1)"

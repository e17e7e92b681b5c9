#!/usr/bin/env bash
# scripts/mutate --check passes on this tree's catalogue (at least 30 mutants), and refuses a mutant
# without its header, one outside impl/, one that no longer applies, one that applies only with an
# offset, and two mutants sharing a number.
set -euo pipefail
mutate="$1"; source_dir="$2"
out="$("$mutate" --check)"
count="$(ls "$source_dir"/tests/mutants/*.patch | wc -l)"
if [ "$count" -lt 30 ]; then
  echo "mutant_catalogue_test: the catalogue holds $count mutants; the issue asks for at least 30" >&2
  exit 1
fi
grep -q "$count mutants" <<< "$out"

tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
# A real file of impl/ and its first three lines, to build patches against this tree.
file=impl/check/check.cpp
mapfile -t head < <(head -3 "$source_dir/$file")
hunk() {  # $1: the line number the hunk claims; prints a patch replacing line 2
  printf 'diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -%d,3 +%d,3 @@\n %s\n-%s\n+%s // mutated\n %s\n' \
    "$1" "$1" "$1" "$1" "$2" "$2" "${head[0]}" "${head[1]}" "${head[1]}" "${head[2]}"
}
good_header=$'Slip: a test slip.\nSpec: §1\nExpect: nothing\n'
expect_refusal() {  # $1: expected exit code, $2: text the one-line error must hold, rest: mutants
  local code="$1" text="$2" rc=0 err
  shift 2
  err="$("$mutate" --check "$@" 2>&1 >/dev/null)" || rc=$?
  if [ "$rc" -ne "$code" ] || ! grep -q -- "$text" <<< "$err" || [ "$(wc -l <<< "$err")" -ne 1 ]; then
    echo "mutant_catalogue_test: expected exit $code with one line holding '$text', got exit $rc: $err" >&2
    exit 1
  fi
}
{ echo "$good_header"; hunk "$file" 1; } > "$tmp/90-fine.patch"
"$mutate" --check "$tmp/90-fine.patch" > /dev/null

hunk "$file" 1 > "$tmp/91-no-header.patch"
expect_refusal 2 "no 'Slip:' line" "$tmp/91-no-header.patch"

{ echo "$good_header"; hunk "$file" 1; hunk sim/world.cpp 1; } > "$tmp/92-outside.patch"
expect_refusal 2 "outside impl/" "$tmp/92-outside.patch"

{ echo "$good_header"; hunk "$file" 1 | awk '/^-/ && !/^---/ { $0 = $0 "not in the tree" } { print }'; } > "$tmp/93-stale.patch"
expect_refusal 1 "no longer applies" "$tmp/93-stale.patch"

{ echo "$good_header"; hunk "$file" 5; } > "$tmp/94-offset.patch"
expect_refusal 1 "offset or fuzz" "$tmp/94-offset.patch"

cp "$tmp/90-fine.patch" "$tmp/90-twin.patch"
expect_refusal 2 "share a number" "$tmp/90-fine.patch" "$tmp/90-twin.patch"
echo "mutant_catalogue_test: $count mutants pass the check; each kind of bad mutant is refused"

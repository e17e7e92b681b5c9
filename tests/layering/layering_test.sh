#!/usr/bin/env bash
# scripts/check-layering passes on this tree, and fails (exit 1, naming the breach) on small trees
# that break each of its three rules.
set -euo pipefail
check="$1"; source_dir="$2"
"$check" "$source_dir"

tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
expect_breach() {  # $1: tree, $2: text the breach line must hold
  local out rc=0
  out="$("$check" "$1" 2>&1)" || rc=$?
  if [ "$rc" -ne 1 ] || ! grep -q -- "$2" <<< "$out"; then
    echo "layering_test: expected a breach with '$2' in $1, got exit $rc: $out" >&2
    exit 1
  fi
}
tree() { rm -rf "$tmp/$1"; mkdir -p "$tmp/$1"; echo "$tmp/$1"; }
put() {  # $1: file, rest: the paths it includes
  local file="$1"; shift
  mkdir -p "$(dirname "$file")"
  : > "$file"
  for inc in "$@"; do echo "#include \"$inc\"" >> "$file"; done
}

t="$(tree up)"      # a lower floor includes a higher one
put "$t/impl/a/a.h"; put "$t/sim/s.h" impl/a/a.h; put "$t/impl/a/a.cpp" impl/a/a.h sim/s.h
expect_breach "$t" "impl/a/a.cpp includes sim/s.h"

t="$(tree same)"    # two rooms on one floor
put "$t/impl/a.h"; put "$t/model/m.h" impl/a.h; put "$t/sim/s.cpp" model/m.h
expect_breach "$t" "sim/s.cpp includes model/m.h"

t="$(tree folders)" # sibling folders in a loop, through .cpp files
put "$t/impl/x/x.h"; put "$t/impl/y/y.h"
put "$t/impl/x/x.cpp" impl/x/x.h impl/y/y.h; put "$t/impl/y/y.cpp" impl/y/y.h impl/x/x.h
expect_breach "$t" "folders include each other in a loop"

t="$(tree files)"   # two headers of one folder in a loop
put "$t/impl/p.h" impl/q.h; put "$t/impl/q.h" impl/p.h
expect_breach "$t" "files include each other in a loop"

t="$(tree fine)"    # callbacks inside one folder (x.cpp -> y.h -> x.h) are no loop
put "$t/impl/k/x.h"; put "$t/impl/k/y.h" impl/k/x.h; put "$t/impl/k/x.cpp" impl/k/x.h impl/k/y.h
"$check" "$t" > /dev/null
echo "layering_test: the tree passes; each of the four breaches is caught"

#!/usr/bin/env bash
# The real `spotcheck redis` binary (docs/integration.md).
#   cli_binary_test.sh unreachable SPOTCHECK      exit 2 and exactly one line for a dead server
#   cli_binary_test.sh run SPOTCHECK URL_FILE     a short passing run against the fixture's server
set -uo pipefail
mode=${1:?mode}
spotcheck=${2:?spotcheck binary}

case $mode in
  unreachable)
    out=$("$spotcheck" redis --url redis://127.0.0.1:1 --scenario contention --duration 1 2>&1)
    rc=$?
    echo "$out"
    [[ $rc -eq 2 ]] || { echo "expected exit 2, got $rc"; exit 1; }
    [[ $(printf '%s\n' "$out" | wc -l) -eq 1 ]] || { echo "expected one line"; exit 1; }
    [[ $out == "spotcheck redis: "* ]] || { echo "expected 'spotcheck redis: ...'"; exit 1; }
    ;;
  run)
    url_file=${3:?url file}
    if [[ ! -s $url_file ]]; then
      echo "no redis server URL in $url_file (the redis_server fixture writes it)"
      [[ ${SPOTCHECK_ALLOW_NO_REDIS:-0} == 1 ]] && exit 0
      exit 1
    fi
    out=$("$spotcheck" redis --url "$(cat "$url_file")" --scenario lease-expiry --duration 2 --seed 7 2>&1)
    rc=$?
    echo "$out"
    [[ $rc -eq 0 ]] || { echo "expected exit 0, got $rc"; exit 1; }
    grep -q '^verdict: PASS$' <<<"$out" || { echo "no 'verdict: PASS'"; exit 1; }
    grep -q '^namespace: removed$' <<<"$out" || { echo "the namespace was not removed"; exit 1; }
    ;;
  *)
    echo "unknown mode $mode"
    exit 2
    ;;
esac

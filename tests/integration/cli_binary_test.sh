#!/usr/bin/env bash
# The real `spotcheck redis` binary (docs/integration.md).
#   cli_binary_test.sh unreachable SPOTCHECK             exit 2 and exactly one line for a dead server
#   cli_binary_test.sh run SPOTCHECK URL_FILE            a short passing run against the fixture's server
#   cli_binary_test.sh signal SPOTCHECK URL_FILE INT|TERM
#       a long run, sent the signal once it printed its namespace: exit 130 / 143, the summary so
#       far, one line on stderr, and no key of that namespace left on the server (SCAN)
#   cli_binary_test.sh cluster-untagged SPOTCHECK URLS_FILE
#       every node of the fixture's Redis Cluster: an untagged --namespace is exit 2 and one line
#   cli_binary_test.sh locate SPOTCHECK URL_FILE
#       `spotcheck locate` (spec §7.4) on a namespace a kept `spotcheck redis` run left: lookups,
#       a list walked page by page equals the one-page list, bad input is exit 2 and one line, an
#       empty namespace is refused, and no record key or value changes (read-only)
#   cli_binary_test.sh password SPOTCHECK REDIS_TEST_SERVER
#       a private password-protected redis-server: the password from --url-file and from
#       REDISCLI_AUTH (never on the command line) works, and is never printed
set -uo pipefail
mode=${1:?mode}
spotcheck=${2:?spotcheck binary}

fail() {
  echo "FAIL: $*"
  exit 1
}

need_url_file() {
  url_file=${1:?url file}
  if [[ ! -s $url_file ]]; then
    echo "no redis server URL in $url_file (the redis_server fixture writes it)"
    [[ ${SPOTCHECK_ALLOW_NO_REDIS:-0} == 1 ]] && exit 0
    exit 1
  fi
  url=$(cat "$url_file")
  port=${url##*:}
}

case $mode in
  unreachable)
    out=$("$spotcheck" redis --url redis://127.0.0.1:1 --scenario contention --duration 1 2>&1)
    rc=$?
    echo "$out"
    [[ $rc -eq 2 ]] || fail "expected exit 2, got $rc"
    [[ $(printf '%s\n' "$out" | wc -l) -eq 1 ]] || fail "expected one line"
    [[ $out == "spotcheck redis: "* ]] || fail "expected 'spotcheck redis: ...'"
    ;;
  run)
    need_url_file "${3:-}"
    out=$("$spotcheck" redis --url "$url" --scenario lease-expiry --duration 2 --seed 7 2>&1)
    rc=$?
    echo "$out"
    [[ $rc -eq 0 ]] || fail "expected exit 0, got $rc"
    grep -q '^start: namespace '"'"'{spotcheck:it:[0-9a-f]*}:'"'"' on redis://127.0.0.1:' <<<"$out" || fail "no start line"
    grep -q '^verdict: PASS$' <<<"$out" || fail "no 'verdict: PASS'"
    grep -q '^namespace: removed ([0-9]* keys)$' <<<"$out" || fail "the namespace was not removed"
    ;;
  signal)
    need_url_file "${3:-}"
    signal=${4:?INT or TERM}
    case $signal in
      INT) want_rc=130 ;;
      TERM) want_rc=143 ;;
      *) fail "unknown signal $signal" ;;
    esac
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/spotcheck-signal.XXXXXX")
    trap 'rm -rf "$scratch"' EXIT
    "$spotcheck" redis --url "$url" --scenario owner-change --duration 300 --seed 11 \
      >"$scratch/out" 2>"$scratch/err" &
    pid=$!
    # Bounded wait (20 s) for the namespace line, which comes before any key is written.
    for _ in $(seq 1 200); do
      grep -q '^start: namespace ' "$scratch/out" && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    ns=$(sed -n "s/^start: namespace '\\([^']*\\)' on .*/\\1/p" "$scratch/out")
    [[ -n $ns ]] || { kill -KILL "$pid" 2>/dev/null; cat "$scratch/out" "$scratch/err"; fail "no start line"; }
    sleep 2.5  # let it write: leases, records, a kill
    keys_before=$(redis-cli -p "$port" --scan --pattern "${ns}*" | wc -l)
    kill "-$signal" "$pid"
    # Bounded wait (20 s) for the exit.
    for _ in $(seq 1 200); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid"
      fail "still running 20 s after SIG$signal"
    fi
    wait "$pid"
    rc=$?
    cat "$scratch/out" "$scratch/err"
    [[ $rc -eq $want_rc ]] || fail "expected exit $want_rc after SIG$signal, got $rc"
    [[ $keys_before -gt 0 ]] || fail "the run had written no key before the signal"
    grep -q "^interrupted: SIG$signal at t=" "$scratch/out" || fail "no 'interrupted:' line"
    grep -q '^requests: ' "$scratch/out" || fail "no summary so far"
    grep -q "^namespace: removed ([0-9]* keys)$" "$scratch/out" || fail "no 'namespace: removed'"
    grep -q "^verdict: INTERRUPTED (SIG$signal)$" "$scratch/out" || fail "no INTERRUPTED verdict"
    [[ $(wc -l <"$scratch/err") -eq 1 ]] || fail "stderr is not one line"
    grep -q "^spotcheck redis: interrupted by SIG$signal; namespace '$ns': removed (" "$scratch/err" ||
      fail "stderr does not say what was cleaned"
    left=$(redis-cli -p "$port" --scan --pattern "${ns}*" | wc -l)
    [[ $left -eq 0 ]] || fail "$left keys of $ns left on the server"
    echo "ok: SIG$signal: exit $rc, $keys_before keys before the signal, none left"
    ;;
  locate)
    need_url_file "${3:-}"
    ns="{spotcheck:locate:$RANDOM$RANDOM}:"
    trap 'redis-cli -p "$port" --scan --pattern "${ns}*" | xargs -r redis-cli -p "$port" UNLINK >/dev/null' EXIT
    "$spotcheck" redis --url "$url" --namespace "$ns" --keep --scenario contention --duration 2 --seed 5 >/dev/null 2>&1 ||
      fail "the run that fills the namespace failed"
    # The state (Ready / Unavailable) may change between two commands as the run's leases expire.
    stateless() { grep '^actor ' | sed 's/: [A-Za-z]*, /: /'; }
    snapshot() {  # every key but the provider's scan bookkeeping, with its value
      redis-cli -p "$port" --scan --pattern "${ns}*" | grep -v ':scan' | sort | while read -r key; do
        printf '%s %s\n' "$key" "$(redis-cli -p "$port" --no-raw DUMP "$key" | sha256sum | cut -c1-16)"
      done
    }
    before=$(snapshot)
    [[ -n $before ]] || fail "the run left no keys"
    one=$("$spotcheck" locate --url "$url" --namespace "$ns" --kind actor --page-size 1000)
    rc=$?
    echo "$one"
    [[ $rc -eq 0 ]] || fail "list: expected exit 0, got $rc"
    [[ $(tail -1 <<<"$one") == *"; the end of the list" ]] || fail "one page of 1000 did not reach the end"
    entries=$(grep -c '^actor ' <<<"$one")
    [[ $entries -ge 2 ]] || fail "expected at least 2 actors, got $entries"
    paged=$("$spotcheck" locate --url "$url" --namespace "$ns" --kind actor --page-size 1 --pages 1000)
    [[ $(stateless <<<"$paged") == "$(stateless <<<"$one")" ]] || fail "pages of 1 differ from one page"
    first=$("$spotcheck" locate --url "$url" --namespace "$ns" --kind actor --page-size 1)
    token=$(tail -1 <<<"$first" | sed -n 's/.*; more: --continuation //p')
    [[ -n $token ]] || fail "no continuation after a page of 1"
    second=$("$spotcheck" locate --url "$url" --namespace "$ns" --kind actor --page-size 1 --continuation "$token")
    [[ $(stateless <<<"$second") == "$(stateless <<<"$one" | sed -n 2p)" ]] || fail "the continuation did not resume after the first entry"
    id=$(grep '^actor ' <<<"$one" | head -1 | sed 's/^actor \([^:]*:[^:]*\): .*/\1/')
    looked=$("$spotcheck" locate --url "$url" --namespace "$ns" actor "$id")
    [[ $(stateless <<<"$looked") == "$(stateless <<<"$one" | head -1)" ]] || fail "lookup '$looked' differs from the list's entry"
    [[ $("$spotcheck" locate --url "$url" --namespace "$ns" spot "$id") == "spot $id: no record" ]] || fail "a Spot lookup found the Actor"
    for bad in "--kind blob" "actor" "--kind actor --page-size 0" "--kind actor --continuation lq1.x" "actor a --kind actor"; do
      # shellcheck disable=SC2086
      out=$("$spotcheck" locate --url "$url" --namespace "$ns" $bad 2>&1)
      rc=$?
      [[ $rc -eq 2 ]] || fail "'$bad': expected exit 2, got $rc"
      [[ $(printf '%s\n' "$out" | wc -l) -eq 1 && $out == "spotcheck locate: "* ]] || fail "'$bad': not one line: $out"
    done
    empty_ns="{spotcheck:locate-empty:$RANDOM$RANDOM}:"
    out=$("$spotcheck" locate --url "$url" --namespace "$empty_ns" actor a 2>&1)
    [[ $? -eq 2 && $out == *"holds no keys"* ]] || fail "an empty namespace was not refused: $out"
    [[ $(redis-cli -p "$port" --scan --pattern "${empty_ns}*" | wc -l) -eq 0 ]] || fail "keys written into $empty_ns"
    [[ $(snapshot) == "$before" ]] || fail "locate changed keys of $ns"
    echo "ok: $entries actors listed in one page and in pages of 1; lookups; refusals; nothing written"
    ;;
  cluster-untagged)
    need_url_file "${3:-}"
    while read -r node; do
      out=$("$spotcheck" redis --url "$node" --scenario contention --duration 1 --namespace zlink:v11: 2>&1)
      rc=$?
      echo "$out"
      [[ $rc -eq 2 ]] || fail "$node: expected exit 2, got $rc"
      [[ $(printf '%s\n' "$out" | wc -l) -eq 1 ]] || fail "$node: expected one line"
      [[ $out == 'spotcheck redis: redis cluster needs a hash-tagged namespace such as "{zlink:v11}:"; got "zlink:v11:"' ]] ||
        fail "$node: not the cluster namespace error"
    done <"$url_file"
    echo "ok: every node refuses an untagged namespace in one line"
    ;;
  password)
    server_script=${3:?redis-test-server script}
    if ! command -v redis-server >/dev/null 2>&1 && [[ ${SPOTCHECK_ALLOW_NO_REDIS:-0} == 1 ]]; then
      echo "no redis-server (SPOTCHECK_ALLOW_NO_REDIS=1): skipped"
      exit 0
    fi
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/spotcheck-password.XXXXXX")
    password="pw-$RANDOM-$RANDOM-secret"
    trap '"$server_script" stop "$scratch/server" >/dev/null 2>&1; rm -rf "$scratch"' EXIT
    "$server_script" start "$scratch/server" --requirepass "$password" >/dev/null || fail "no private redis-server"
    port=$(cat "$scratch/server/port")
    printf 'redis://:%s@127.0.0.1:%s\n' "$password" "$port" >"$scratch/url"
    chmod 600 "$scratch/url"
    check_no_password() {
      ! grep -q -- "$password" "$scratch/out" "$scratch/err" || fail "the password was printed"
    }
    "$spotcheck" redis --url-file "$scratch/url" --duration 1 --seed 3 >"$scratch/out" 2>"$scratch/err"
    rc=$?
    cat "$scratch/out" "$scratch/err"
    [[ $rc -eq 0 ]] || fail "--url-file: expected exit 0, got $rc"
    grep -q '^verdict: PASS$' "$scratch/out" || fail "--url-file: no 'verdict: PASS'"
    check_no_password
    REDISCLI_AUTH=$password "$spotcheck" redis --url "redis://127.0.0.1:$port" --duration 1 --seed 3 \
      >"$scratch/out" 2>"$scratch/err"
    rc=$?
    cat "$scratch/out" "$scratch/err"
    [[ $rc -eq 0 ]] || fail "REDISCLI_AUTH: expected exit 0, got $rc"
    check_no_password
    REDISCLI_AUTH="x$password" "$spotcheck" redis --url "redis://127.0.0.1:$port" --duration 1 \
      >"$scratch/out" 2>"$scratch/err"
    rc=$?
    cat "$scratch/out" "$scratch/err"
    [[ $rc -eq 2 ]] || fail "a wrong REDISCLI_AUTH: expected exit 2, got $rc"
    [[ $(wc -l <"$scratch/err") -eq 1 ]] || fail "a wrong REDISCLI_AUTH: stderr is not one line"
    check_no_password
    "$spotcheck" redis --url "redis://127.0.0.1:$port" --duration 1 >"$scratch/out" 2>"$scratch/err"
    rc=$?
    [[ $rc -eq 2 ]] || fail "no password: expected exit 2, got $rc"
    grep -q 'NOAUTH' "$scratch/err" || fail "no password: no NOAUTH"
    echo "ok: the password from --url-file and REDISCLI_AUTH, never printed"
    ;;
  *)
    echo "unknown mode $mode"
    exit 2
    ;;
esac

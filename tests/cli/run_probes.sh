#!/usr/bin/env bash
# The CLI regression probes (issue 9): every file tests/cli/probes/*.sh lists probes, each a
# command with its expected exit code and the expected first line of what it prints on stderr.
#   run_probes.sh <path to spotcheck> <scratch dir>
# A probe file calls
#   probe <exit code> <first-line glob> -- <spotcheck args...>
#   probe_stdin <file> <exit code> <first-line glob> -- <spotcheck args...>   (stdin from file)
#   probe_stdout <file> <exit code> <first-line glob> -- <spotcheck args...>  (stdout to file)
# The glob is matched against the first non-empty stderr line (bash [[ == ]] pattern; quote
# literal '*' or '?'). An error (exit 2 or 3) must be exactly one line, prefixed "spotcheck".
# Each probe runs under a 60 s timeout; a timeout or a signal death is a failure.
set -u
bin="$1"
scratch="$2"
rm -rf "$scratch"
mkdir -p "$scratch"
probes_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/probes" && pwd)"
failures=0
checks=0

_probe_check() {
  local want_code="$1" want_first="$2" code="$3" err="$4" what="$5"
  checks=$((checks + 1))
  err=$(printf '%s\n' "$err" | grep -v '^==[0-9]*==WARNING: ASan' | sed '/^$/d')
  local first
  first=$(printf '%s\n' "$err" | head -n 1)
  if [ "$code" -ne "$want_code" ]; then
    echo "FAIL [$probe_file]: $what exited $code, want $want_code (stderr: ${err:0:300})"
    failures=$((failures + 1))
  elif [[ "$first" != $want_first ]]; then
    echo "FAIL [$probe_file]: $what first line '${first:0:300}', want '$want_first'"
    failures=$((failures + 1))
  elif { [ "$want_code" -eq 2 ] || [ "$want_code" -eq 3 ]; } && [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then
    echo "FAIL [$probe_file]: $what error is not one line: ${err:0:500}"
    failures=$((failures + 1))
  elif { [ "$want_code" -eq 2 ] || [ "$want_code" -eq 3 ]; } && [[ "$first" != spotcheck* ]]; then
    echo "FAIL [$probe_file]: $what error is not prefixed 'spotcheck': $first"
    failures=$((failures + 1))
  fi
}

# Runs one probe with the given standard input and output: _probe <stdin> <stdout> <exit> <glob> -- args
_probe() {
  local input="$1" output="$2" want_code="$3" want_first="$4"
  shift 5
  local err code
  err=$(timeout 60 "$bin" "$@" 2>&1 >"$output" <"$input")
  code=$?
  _probe_check "$want_code" "$want_first" "$code" "$err" "spotcheck $* < $input > $output"
}
probe() { _probe /dev/null /dev/null "$@"; }
probe_stdin() { local input="$1"; shift; _probe "$input" /dev/null "$@"; }
probe_stdout() { local output="$1"; shift; _probe /dev/null "$output" "$@"; }

for probe_file in "$probes_dir"/*.sh; do
  [ -e "$probe_file" ] || continue
  # shellcheck disable=SC1090
  source "$probe_file"
done

passed=$((checks - failures))
echo "$passed passed, $failures failed"
[ "$checks" -gt 0 ] && [ "$failures" -eq 0 ]

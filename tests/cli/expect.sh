# Sourced by the CLI smoke scripts: expect <exit code> <stderr substring or ""> -- spotcheck args...
# Needs $bin (the spotcheck binary) and counts into $checks and $failures. An error (exit 2) must
# be one line. Sanitizer builds warn about makecontext/swapcontext on stderr; that is not the
# command's output.
expect() {
  local want_code="$1" want_text="$2"
  checks=$((checks + 1))
  shift 3
  local err code
  err=$("$bin" "$@" 2>&1 >/dev/null)
  code=$?
  err=$(printf '%s\n' "$err" | grep -v '^==[0-9]*==WARNING: ASan' | sed '/^$/d')
  if [ "$code" -ne "$want_code" ]; then
    echo "FAIL: spotcheck $* exited $code, want $want_code ($err)"
    failures=$((failures + 1))
  elif [ -n "$want_text" ] && [[ "$err" != *"$want_text"* ]]; then
    echo "FAIL: spotcheck $* said '$err', want '$want_text'"
    failures=$((failures + 1))
  elif [ "$want_code" -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then
    echo "FAIL: spotcheck $* error is not one line: $err"
    failures=$((failures + 1))
  fi
}

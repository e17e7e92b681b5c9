# Probes of replay's decision log files (issue 10 item 4): a recorded log replays the run under any
# seed (stdout compared), a file that is not a whole decision log is refused with one line, exit 2.
# Sourced by tests/cli/run_probes.sh; $scratch is a scratch folder.

probe_stdout "$scratch/seed7.out" 0 "" -- replay --scenario lease-pause --seed 7 --decision-log-out "$scratch/seed7.log"
probe_stdout "$scratch/seed9.out" 0 "" -- replay --scenario lease-pause --seed 9
probe_stdout "$scratch/seed9-from-7.out" 0 "" -- replay --scenario lease-pause --seed 9 --decision-log "$scratch/seed7.log"
checks=$((checks + 1))
hash_of() { sed -n 's/.*trace hash \([0-9a-f]*\).*/\1/p' "$1"; }
if [ -z "$(hash_of "$scratch/seed7.out")" ] || [ "$(hash_of "$scratch/seed7.out")" != "$(hash_of "$scratch/seed9-from-7.out")" ] ||
   [ "$(hash_of "$scratch/seed7.out")" = "$(hash_of "$scratch/seed9.out")" ]; then
  echo "FAIL [$probe_file]: seed 9 replayed from seed 7's decision log is not seed 7's run"
  failures=$((failures + 1))
fi
# Written whole: a second recording replaces the file through a temporary name.
probe 0 "" -- replay --scenario lease-pause --seed 7 --decision-log-out "$scratch/seed7.log"
probe 3 "spotcheck: writing decision log to '/dev/full' failed: No space left on device" -- replay --seed 3 --decision-log-out /dev/full

# Refused inputs: one line, exit 2, before anything runs.
head -c 300 "$scratch/seed7.log" > "$scratch/truncated.log"
probe 2 "spotcheck: --decision-log $scratch/truncated.log: decision log line * (a truncated file?)" -- replay --seed 7 --decision-log "$scratch/truncated.log"
printf 'spotcheck-decision-log 1\nstreams 1\nscheduler\ndecisions 1\n0 3 3\nend\n' > "$scratch/out-of-range.log"
probe 2 "spotcheck: --decision-log $scratch/out-of-range.log: decision log line 5: the index picked is not below the count" -- replay --seed 7 --decision-log "$scratch/out-of-range.log"
printf '{"scenario": 1}\n' > "$scratch/not-a-log.log"
probe 2 "spotcheck: --decision-log $scratch/not-a-log.log: decision log line 1: expected * (not a decision log)" -- replay --seed 7 --decision-log "$scratch/not-a-log.log"
probe 2 "spotcheck: --decision-log /dev/zero: larger than 268435456 bytes" -- replay --seed 7 --decision-log /dev/zero
probe 2 "spotcheck: --decision-log $scratch/missing.log: cannot be read" -- replay --seed 7 --decision-log "$scratch/missing.log"
probe 2 "spotcheck: --decision-log-out and --decision-log cannot be used together" -- replay --seed 7 --decision-log "$scratch/seed7.log" --decision-log-out "$scratch/other.log"
probe 2 "spotcheck: --decision-log-out '$scratch/seed7.log' would overwrite the --decision-log input file" -- replay --seed 7 --decision-log "$scratch/seed7.log" --decision-log-out "$scratch/seed7.log"
# A log of another scenario is refused by the run itself, naming the decision: exit 1.
probe_stdout "$scratch/wrong.out" 1 "" -- replay --scenario churn --seed 7 --decision-log "$scratch/seed7.log"
checks=$((checks + 1))
if ! grep -q "RUN FAILURE: replay refused: " "$scratch/wrong.out"; then
  echo "FAIL [$probe_file]: a log of another scenario was not refused: $(head -c 300 "$scratch/wrong.out")"
  failures=$((failures + 1))
fi

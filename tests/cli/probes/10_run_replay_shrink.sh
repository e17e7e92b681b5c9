# Probes of run, replay and shrink (issue 9): seeds, output paths, failed writes.
# Sourced by tests/cli/run_probes.sh; $scratch is a scratch folder.

# Seeds are plain decimal numbers in range; everything else is refused before anything runs.
probe 2 "spotcheck: --seeds must be a plain decimal number from 0 to 18446744073709551615 (got '-1')" -- run --seeds -1
probe 2 "spotcheck: --seeds must be a plain decimal number * (got '99999999999999999999': too large)" -- run --seeds 99999999999999999999
probe 2 "spotcheck: --seeds must be at least 1" -- run --seeds 0
probe 2 "spotcheck: --seeds must be a plain decimal number *" -- run --seeds 1e3
probe 2 "spotcheck: --seeds must be a plain decimal number *" -- run --seeds ' 5'
probe 2 "spotcheck: --seed must be a plain decimal number * (got '-5')" -- run --seed -5 --seeds 1
probe 2 "spotcheck: --seed must be a plain decimal number * (got '010': no leading zeros)" -- run --seed 010 --seeds 1
probe 2 "spotcheck: --seed must be a plain decimal number * (got '18446744073709551616': too large)" -- run --seed 18446744073709551616
probe 2 "spotcheck: --seed must be a plain decimal number *" -- run --seed 0x10
probe 2 "spotcheck: --seed 18446744073709551615 with --seeds 2 runs past the last seed, 18446744073709551615" -- run --seed 18446744073709551615 --seeds 2
probe 0 "" -- run --seed 18446744073709551615 --seeds 1 --quiet
probe 2 "spotcheck: --seed must be a plain decimal number * (got '-5')" -- replay --seed -5
probe 2 "spotcheck: --seed must be a plain decimal number * (got '010': no leading zeros)" -- replay --seed 010
probe 2 "spotcheck: --seed must be a plain decimal number *" -- shrink --seed +3
probe 2 "spotcheck: --seed must be a plain decimal number * (got '99999999999999999999': too large)" -- shrink --seed 99999999999999999999

# Output paths that cannot be what the user meant.
probe 2 "spotcheck: --html: needs a file name, not an empty string*" -- run --seeds 1 --html ''
probe 2 "spotcheck: --junit: needs a file name, not an empty string*" -- run --seeds 1 --junit ''
probe 2 "spotcheck: --html: needs a file name, not '--quiet'*" -- run --seeds 1 --html --quiet
probe 2 "spotcheck: --junit: needs a file name, not '-x'*" -- run --seeds 1 --junit -x
probe 2 "spotcheck: --junit and --html name the same file '$scratch/same.xml'" -- run --seeds 1 --junit "$scratch/same.xml" --html "$scratch/same.xml"
probe 2 "spotcheck: --junit and --html name the same file *" -- run --seeds 1 --junit "$scratch/same.xml" --html "$scratch/../$(basename "$scratch")/same.xml"
cp "$(dirname "$probes_dir")/../../scenarios/files/examples/long-pauses.json" "$scratch/v.json"
probe 2 "spotcheck: --junit '$scratch/v.json' would overwrite the --scenario input file" -- run --scenario "$scratch/v.json" --seeds 1 --junit "$scratch/v.json"
probe 2 "spotcheck: --html '$scratch/v.json' would overwrite the --scenario input file" -- run --scenario "$scratch/v.json" --seeds 1 --html "$scratch/v.json"
probe 2 "spotcheck: --trace-out '$scratch/v.json' would overwrite the --scenario input file" -- replay --scenario "$scratch/v.json" --seed 1 --trace-out "$scratch/v.json"
probe 2 "spotcheck: --out '$scratch/v.json' would overwrite the --scenario input file" -- shrink --scenario "$scratch/v.json" --seed 1 --out "$scratch/v.json"
probe 2 "spotcheck: cannot write JUnit report to '$scratch/missing/x.xml': No such file or directory" -- run --seeds 1 --junit "$scratch/missing/x.xml"
probe 2 "spotcheck: cannot write HTML report to '$scratch': it is a directory" -- run --seeds 1 --html "$scratch"
probe 2 "spotcheck: --html '$scratch/v.json' would overwrite the --scenario input file" -- shrink --scenario "$scratch/v.json" --seed 1 --html "$scratch/v.json"
probe 2 "spotcheck: cannot write HTML report to '$scratch/missing/x.html': No such file or directory" -- shrink --seed 1 --html "$scratch/missing/x.html"

# Every write is checked: a full device is one line and exit 3, never a silent exit 0.
probe 3 "spotcheck: writing JUnit report to '/dev/full' failed: No space left on device" -- run --seeds 2 --quiet --junit /dev/full
probe 3 "spotcheck: writing HTML report to '/dev/full' failed: No space left on device" -- run --seeds 2 --quiet --html /dev/full
probe 3 "spotcheck: writing trace to '/dev/full' failed: No space left on device" -- replay --seed 3 --trace-out /dev/full
probe_stdout /dev/full 3 "spotcheck: writing standard output failed*" -- run --seeds 2 --quiet
probe_stdout /dev/full 3 "spotcheck: writing standard output failed*" -- replay --seed 3 --trace
probe_stdout /dev/full 3 "spotcheck: writing standard output failed*" -- list
probe 2 "spotcheck: --trace-out: needs a file name, not an empty string*" -- replay --seed 1 --trace-out ''
probe 2 "spotcheck: --out: needs a file name, not an empty string*" -- shrink --seed 1 --out ''
probe 2 "spotcheck: --html: needs a file name, not an empty string*" -- shrink --seed 1 --html ''

# Out-of-contract faults (faults/out_of_contract.h): a bad kind list or a scenario that runs no
# protocol is one line and exit 2; a campaign with them on passes while its only failures need them,
# and replay with the flag names the assumption.
probe 2 "spotcheck: --out-of-contract: unknown out-of-contract fault kind 'store-outage' (expected all, or a comma list of *)" -- run --seeds 1 --out-of-contract store-outage
probe 2 "spotcheck: --out-of-contract: unknown out-of-contract fault kind '' *" -- run --seeds 1 --out-of-contract ''
probe 2 "spotcheck: --out-of-contract: unknown out-of-contract fault kind 'a?b' *" -- replay --seed 1 --out-of-contract "a
b"
probe 2 "spotcheck: --out-of-contract: scenario 'synthetic' runs no protocol against the simulated store; use a Location scenario" -- run --scenario synthetic --seeds 1 --out-of-contract all
probe 0 "" -- run --seeds 3 --quiet --out-of-contract store-clock-jump
probe 1 "" -- replay --seed 1 --out-of-contract store-clock-jump
probe 2 "spotcheck: --determinism-sample: Value 2 not in range *" -- run --seeds 1 --determinism-sample 2
probe 2 "spotcheck: --determinism-sample: *" -- run --seeds 1 --determinism-sample -0.5

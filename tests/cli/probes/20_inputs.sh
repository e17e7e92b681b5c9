# Issue 9: hostile input to the readers of untrusted input (record canon, key, scenario files)
# gets one line "spotcheck: ..." and exit 2, never a crash, a hang or a second line.
# Sourced by tests/cli/run_probes.sh; $scratch is a scratch dir.

# ---- record canon --------------------------------------------------------------------------
# repeat <count> <text>: the text <count> times (no python needed).
repeat() { head -c "$1" /dev/zero | tr '\0' '\n' | sed "s/^/$2/" | tr -d '\n'; }
{ repeat 100000 '['; repeat 100000 ']'; } > "$scratch/deep-arrays.json"
{ repeat 100000 '{"a":'; printf 1; repeat 100000 '}'; } > "$scratch/deep-objects.json"
for deep in deep-arrays deep-objects; do
  probe_stdin "$scratch/$deep.json" 2 "spotcheck: kTooLarge: JSON nested deeper than the limit of 64 levels*" -- record canon
  probe_stdin "$scratch/$deep.json" 2 "spotcheck: kTooLarge: JSON nested deeper than the limit of 64 levels*" -- record canon --strict
done
printf '{"ownerId":"a","ownerId":"b"}' > "$scratch/dup-record.json"
probe_stdin "$scratch/dup-record.json" 2 'spotcheck: kNotCanonical: duplicate key "ownerId" in the document' -- record canon
printf '{"recordVersion": 99999999999999999999, "ownerId": "a"}' > "$scratch/huge-version.json"
probe_stdin "$scratch/huge-version.json" 2 "spotcheck: kUnknownRecordVersion: recordVersion 99999999999999999999 is not 1*" -- record canon
probe_stdin "$scratch/huge-version.json" 2 "spotcheck: kUnknownRecordVersion: recordVersion 99999999999999999999 is not 1*" -- record canon --type owner-lease --strict
printf '{not json' > "$scratch/not-json.json"
probe_stdin "$scratch/not-json.json" 2 "spotcheck: kMalformedJson: *" -- record canon
probe_stdin "$scratch/not-json.json" 2 "spotcheck: kMalformedJson: *" -- record canon --strict
probe_stdin /dev/zero 2 "spotcheck: kTooLarge: input exceeds 8388608 bytes*" -- record canon

# ---- key -----------------------------------------------------------------------------------
probe 2 "spotcheck: kInvalidIdentity: --namespace must not contain control characters*" -- key --namespace $'a\nb' authority actor x
probe 2 "spotcheck: kInvalidIdentity: --namespace must not contain control characters*" -- key -n $'a\tb' owner-lease o
probe 2 "spotcheck: kInvalidEnum: authority kind must be actor or spot*" -- key authority robot x
probe 2 'spotcheck: kInvalidEnum: authority kind must be actor or spot, got "ro\\nbot"' -- key authority $'ro\nbot' x
probe 0 "" -- key -- authority actor -x
probe 0 "" -- key -n ns: -- owner-lease --owner
probe 2 "spotcheck: The following argument was not expected: -x*" -- key authority actor -x

# ---- scenario files ------------------------------------------------------------------------
printf '{"scenarioVersion":1,"name":"a","name":"b"}' > "$scratch/dup.json"
probe 2 "spotcheck: $scratch/dup.json: duplicate key \"name\" in the document" -- run --scenario "$scratch/dup.json"
printf '{"scenarioVersion":1,"name":"a","workload":{"objects":2,"objects":3}}' > "$scratch/dup-nested.json"
probe 2 "spotcheck: $scratch/dup-nested.json: duplicate key \"objects\" in workload" -- run --scenario "$scratch/dup-nested.json"
{ printf '{"scenarioVersion":1,"name":"a","workload":'; repeat 100000 '['; repeat 100000 ']'; printf '}'; } > "$scratch/deep.json"
probe 2 "spotcheck: $scratch/deep.json: JSON nested deeper than the limit of 64 levels*" -- run --scenario "$scratch/deep.json"
probe 2 "spotcheck: /dev/zero: larger than 1048576 bytes (the scenario file limit)" -- run --scenario /dev/zero
probe 2 "spotcheck: /dev/zero: larger than 1048576 bytes (the scenario file limit)" -- shrink --scenario /dev/zero --seed 1
# A fifo is not a regular file either: the reader stops at the limit + 1 bytes.
rm -f "$scratch/big.fifo"
mkfifo "$scratch/big.fifo"
(timeout 60 head -c 3000000 /dev/zero > "$scratch/big.fifo" 2>/dev/null &)
probe 2 "spotcheck: $scratch/big.fifo: larger than 1048576 bytes (the scenario file limit)" -- run --scenario "$scratch/big.fifo"
printf '{"scenarioVersion":1,"name":"x","nodes":1e999}' > "$scratch/huge-number.json"
probe 2 "spotcheck: $scratch/huge-number.json: not valid JSON (*number overflow*" -- run --scenario "$scratch/huge-number.json"
printf '{"scenarioVersion":1,"name":"x","a\\nb":1}' > "$scratch/control-key.json"
probe 2 "spotcheck: $scratch/control-key.json: a\\\\nb is not a known key" -- run --scenario "$scratch/control-key.json"

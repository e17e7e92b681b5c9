# Probes of `spotcheck redis` that need no server (sourced by tests/cli/run_probes.sh; $scratch is a
# scratch dir). Port 1 on loopback: nothing listens there, so a flag that is wrongly accepted ends
# in "cannot connect" instead of its own error.
dead=redis://127.0.0.1:1

# Issue 9 item 4: numbers are plain decimal and in range; --nodes 0 used to run 4 nodes.
probe 2 "spotcheck redis: --nodes must be a decimal number 1..64, got '0'" -- redis --url $dead --nodes 0
probe 2 "spotcheck redis: --nodes must be a decimal number 1..64, got '65'" -- redis --url $dead --nodes 65
probe 2 "spotcheck redis: --nodes must be *got '010'" -- redis --url $dead --nodes 010
probe 2 "spotcheck redis: --nodes must be *got '-1'" -- redis --url $dead --nodes -1
probe 2 "spotcheck redis: --nodes must be *got '4294967297'" -- redis --url $dead --nodes 4294967297
probe 2 "spotcheck redis: --seed must be a plain decimal number *got '-1'" -- redis --url $dead --seed -1
probe 2 "spotcheck redis: --seed must be *got '010'" -- redis --url $dead --seed 010
probe 2 "spotcheck redis: --seed must be *got '0x10'" -- redis --url $dead --seed 0x10
probe 2 "spotcheck redis: --seed must be *got '18446744073709551616'" -- redis --url $dead --seed 18446744073709551616
probe 2 "spotcheck redis: --seed must be *got ''" -- redis --url $dead --seed ""
probe 2 "spotcheck redis: cannot connect to redis://127.0.0.1:1*" -- redis --url $dead --seed 18446744073709551615
probe 2 "spotcheck redis: --duration must be a decimal number of seconds in (0, 3600], got '0'" -- redis --url $dead --duration 0
probe 2 "spotcheck redis: --duration must be *got '-1'" -- redis --url $dead --duration -1
probe 2 "spotcheck redis: --duration must be *got '3601'" -- redis --url $dead --duration 3601
probe 2 "spotcheck redis: --duration must be *got 'nan'" -- redis --url $dead --duration nan
probe 2 "spotcheck redis: --duration must be *got 'inf'" -- redis --url $dead --duration inf
probe 2 "spotcheck redis: --duration must be *got '1e3'" -- redis --url $dead --duration 1e3
probe 2 "spotcheck redis: --duration must be *got '0x10'" -- redis --url $dead --duration 0x10
probe 2 "spotcheck redis: --duration must be *got '0.0000001'" -- redis --url $dead --duration 0.0000001
probe 2 "spotcheck redis: cannot connect to redis://127.0.0.1:1*" -- redis --url $dead --duration 0.5 --nodes 64
probe 2 "spotcheck redis: --namespace must not be empty" -- redis --url $dead --namespace ""
probe 2 "spotcheck redis: unknown integration scenario 'nope'*" -- redis --url $dead --scenario nope

# Issue 9 item 3: the URL from a file; one-line errors that never show the file's content.
printf 'redis://:probe-secret-pw@127.0.0.1:1\n' >"$scratch/redis-url"
printf '\n \n' >"$scratch/redis-url-empty"
printf 'redis://:probe-secret-pw@127.0.0.1:1\nsecond line\n' >"$scratch/redis-url-two"
printf 'redis//probe-secret-pw.example:1\n' >"$scratch/redis-url-bad"
head -c 5000 /dev/zero | tr '\0' a >"$scratch/redis-url-big"
probe 2 "spotcheck redis: give --url or --url-file, not both" -- redis --url $dead --url-file "$scratch/redis-url"
probe 2 "spotcheck redis: cannot read --url-file '$scratch/missing': No such file or directory" -- redis --url-file "$scratch/missing"
probe 2 "spotcheck redis: cannot read --url-file '$scratch': Is a directory" -- redis --url-file "$scratch"
probe 2 "spotcheck redis: --url-file '$scratch/redis-url-empty' is empty*" -- redis --url-file "$scratch/redis-url-empty"
probe 2 "spotcheck redis: --url-file '$scratch/redis-url-two' must hold one redis URL on one line*" -- redis --url-file "$scratch/redis-url-two"
probe 2 "spotcheck redis: --url-file '$scratch/redis-url-big' is larger than 4096 bytes*" -- redis --url-file "$scratch/redis-url-big"
probe 2 "spotcheck redis: --url-file '$scratch/redis-url-bad': malformed redis URL: the scheme*" -- redis --url-file "$scratch/redis-url-bad"
probe 2 "spotcheck redis: cannot connect to redis://127.0.0.1:1: Connection refused" -- redis --url-file "$scratch/redis-url"
# A FIFO nobody writes does not hang; a pipe is read to its end.
mkfifo "$scratch/redis-url-fifo"
probe 2 "spotcheck redis: --url-file '$scratch/redis-url-fifo' is empty*" -- redis --url-file "$scratch/redis-url-fifo"
probe 2 "spotcheck redis: cannot connect to redis://127.0.0.1:1: Connection refused" -- redis --url-file <(printf 'redis://:probe-secret-pw@127.0.0.1:1\n')
probe 2 "spotcheck redis: --url-file '/dev/zero' is larger than 4096 bytes*" -- redis --url-file /dev/zero
probe 2 "spotcheck redis: malformed redis URL: the port must be*" -- redis --url "redis://:probe-secret-pw@127.0.0.1:x"

# No error above may show the password (the runner checks first lines only: look at all of it).
checks=$((checks + 1))
leaked=$( { timeout 60 "$bin" redis --url-file "$scratch/redis-url-two"
            timeout 60 "$bin" redis --url-file "$scratch/redis-url-bad"
            timeout 60 "$bin" redis --url-file "$scratch/redis-url"
            REDISCLI_AUTH=probe-secret-pw timeout 60 "$bin" redis --url $dead
            timeout 60 "$bin" redis --url "redis://:probe-secret-pw@127.0.0.1:x"; } 2>&1 </dev/null | grep -c probe-secret-pw)
if [ "$leaked" -ne 0 ]; then
  echo "FAIL [$probe_file]: a redis error printed the password ($leaked lines)"
  failures=$((failures + 1))
fi
probe 2 "spotcheck redis: --seed must be a plain decimal number*got '1?n2'" -- redis --url redis://127.0.0.1:1 --seed $'1\n2'

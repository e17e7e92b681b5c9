# Probes of the basic command line (sourced by tests/cli/run_probes.sh; $scratch is a scratch dir).
probe 2 "spotcheck: A subcommand is required*" -- 
probe 2 "spotcheck: unknown scenario 'nope'*" -- run --scenario nope

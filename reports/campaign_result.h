// What one campaign found: the input to every report (text summary, JUnit XML, HTML).
// A campaign's memory does not grow with its seed count: outcomes are folded in one at a time
// (add(), in seed order) and only what the reports need is kept — counts, the first failing
// seeds, and one entry per distinct failure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/registry/divergence.h"
#include "scenarios/registry/scenario.h"

namespace spotcheck::reports {

struct DeterminismMismatch {
  std::uint64_t seed = 0;
  scenarios::Divergence divergence;
};

// One distinct failure: a property that was violated, or a run failure (an assertion that fired,
// an exception, a budget spent), with how many seeds showed it and the first of them.
struct FailureKind {
  bool run_failure = false;
  std::string signature;  // the property, or the run failure's text with its numbers folded to '#'
  std::string first_message;
  std::uint64_t first_seed = 0;
  std::uint64_t seeds = 0;
};

inline constexpr std::size_t kFailuresKeptMax = 1'000;       // failing seeds kept in full
inline constexpr std::size_t kFailureKindsKeptMax = 1'000;   // distinct failures kept
inline constexpr std::size_t kMismatchesKeptMax = 1'000;
inline constexpr std::size_t kTraceFilesMax = 20;  // trace files of the first failing seeds (run --results)

// A campaign split over machines (`spotcheck run --shard K/N`): shard K of N runs the seeds
// first_seed + K-1, first_seed + K-1 + N, ... of the whole range [first_seed, first_seed + seeds).
struct Shard {
  std::uint32_t index = 1;  // K, 1..count
  std::uint32_t count = 1;  // N
  std::uint64_t first_seed = 0;  // the whole range's
  std::uint64_t seeds = 0;

  // This shard's first seed and how many seeds it runs (`seeds` 0: none).
  std::uint64_t own_first_seed() const { return first_seed + (index - 1); }
  std::uint64_t own_seeds() const { return seeds > index - 1 ? (seeds - (index - 1) + count - 1) / count : 0; }
};

struct CampaignResult {
  std::string scenario;        // as given on the command line (a name or a scenario file)
  Shard shard;                 // the whole campaign unless --shard
  std::uint64_t first_seed = 0;
  std::uint64_t seeds_requested = 0;
  std::uint64_t seeds_run = 0;
  bool swarm = false;
  bool checked_determinism = false;
  // Without checked_determinism, the share of passing seeds run again (every failing one is).
  double determinism_sample = 0.0;
  std::uint64_t determinism_rechecked = 0;  // seeds run again to check determinism
  unsigned jobs = 1;
  std::uint64_t events_total = 0;
  std::int64_t simulated_us_total = 0;
  double wall_seconds = 0.0;
  // The signal that stopped the campaign early (SIGINT, SIGTERM), or 0 when it ran to the end.
  int interrupted_by = 0;

  std::uint64_t violating_seeds = 0;
  std::uint64_t run_failure_seeds = 0;
  std::uint64_t mismatching_seeds = 0;
  // The first kFailuresKeptMax seeds that did not pass, in seed order, without traces.
  std::vector<scenarios::SeedOutcome> failures;
  // Distinct failures in order of their first seed; a failure past kFailureKindsKeptMax distinct
  // ones is still counted, in other_failure_seeds.
  std::vector<FailureKind> failure_kinds;
  std::uint64_t other_failure_seeds = 0;
  std::vector<DeterminismMismatch> mismatches;  // the first kMismatchesKeptMax
  std::map<std::string, std::uint64_t> violations_per_property;
  // Coverage marks (impl/platform/marks.h): how often each fired, and in how many seeds.
  platform::MarkCounts mark_hits{};
  platform::MarkCounts mark_seeds{};
  // The scenario's required marks when the campaign was asked to hold it to them
  // (--require-marks; nothing otherwise); a required mark that fired in no seed fails it.
  std::optional<std::vector<platform::Mark>> required_marks;
  // Out-of-contract faults (faults/out_of_contract.h): the kinds the campaign turned on (comma
  // list, empty: none) and the assumption each breaks. A seed that failed only because of them
  // (SeedOutcome::failed_only_out_of_contract) is not a failure of the campaign: it is counted
  // here, per kind it needed, and the first kFailuresKeptMax are kept.
  std::string out_of_contract;
  std::map<std::string, std::string> out_of_contract_assumptions;
  std::uint64_t out_of_contract_seeds = 0;
  std::map<std::string, std::uint64_t> out_of_contract_per_kind;
  std::vector<scenarios::SeedOutcome> out_of_contract_failures;
  // The trace files written for failing seeds (spotcheck run --results), by seed.
  std::map<std::uint64_t, std::string> trace_files;

  // Folds in one finished seed. Seeds arrive in seed order.
  void add(const scenarios::SeedOutcome& outcome, std::optional<DeterminismMismatch> mismatch, bool rechecked = false);
  void add_out_of_contract(const scenarios::SeedOutcome& outcome);

  std::uint64_t failing_seeds() const { return violating_seeds + run_failure_seeds; }
  // The required marks that fired in no seed (empty unless required_marks holds a list).
  std::vector<platform::Mark> missing_marks() const;
  bool passed() const { return failing_seeds() == 0 && mismatching_seeds == 0 && missing_marks().empty(); }
  // Violating seeds per property (run failures are counted apart, in run_failure_seeds).
  const std::map<std::string, std::uint64_t>& violations_by_property() const { return violations_per_property; }
};

// A run failure's text with every run of digits folded to '#': the same assertion at the same
// place is one distinct failure whatever ids, times or generations it printed.
std::string run_failure_signature(const std::string& failure);

// The one command that reproduces a seed exactly (every word shell-quoted), with the campaign's
// out-of-contract kinds when it had some.
std::string replay_command(const std::string& scenario, std::uint64_t seed, bool swarm,
                           const std::string& out_of_contract = "");
// The command that shrinks a violating seed (Location scenarios; docs/replay.md).
std::string shrink_command(const std::string& scenario, std::uint64_t seed, bool swarm);

}  // namespace spotcheck::reports

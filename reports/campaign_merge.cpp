#include "reports/campaign_merge.h"

#include <algorithm>
#include <iterator>
#include <set>

namespace spotcheck::reports {

namespace {

std::string shard_text(const Shard& shard) {
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

// Why `shard` is not a shard of the same campaign as `first`, or "".
std::string mismatch(const CampaignResult& first, const CampaignResult& shard) {
  const auto differs = [&](const char* what) {
    return "shard " + shard_text(shard.shard) + " is of another campaign than shard " + shard_text(first.shard) +
           " (" + what + " differs)";
  };
  if (shard.scenario != first.scenario) return differs("scenario");
  if (shard.shard.count != first.shard.count) return differs("shard count");
  if (shard.shard.first_seed != first.shard.first_seed || shard.shard.seeds != first.shard.seeds) {
    return differs("seed range");
  }
  if (shard.swarm != first.swarm) return differs("--swarm");
  if (shard.out_of_contract != first.out_of_contract) return differs("--out-of-contract");
  if (shard.checked_determinism != first.checked_determinism || shard.determinism_sample != first.determinism_sample) {
    return differs("determinism checking");
  }
  return {};
}

// Concatenated in seed order, at most `max` kept.
template <class T, class Seed>
std::vector<T> joined(const std::vector<CampaignResult>& shards, std::vector<T> CampaignResult::*list, Seed seed_of,
                      std::size_t max) {
  std::vector<T> all;
  for (const CampaignResult& shard : shards) {
    all.insert(all.end(), (shard.*list).begin(), (shard.*list).end());
  }
  std::stable_sort(all.begin(), all.end(), [&](const T& a, const T& b) { return seed_of(a) < seed_of(b); });
  if (all.size() > max) {
    all.resize(max);
  }
  return all;
}

template <class Map>
void add_into(Map& into, const Map& from) {
  for (const auto& [key, count] : from) {
    into[key] += count;
  }
}

// One entry per distinct failure, its seeds summed and its first seed the earliest.
std::vector<FailureKind> joined_kinds(const std::vector<CampaignResult>& shards, std::uint64_t& other_seeds) {
  std::vector<FailureKind> kinds;
  for (const CampaignResult& shard : shards) {
    other_seeds += shard.other_failure_seeds;
    for (const FailureKind& kind : shard.failure_kinds) {
      auto same = std::find_if(kinds.begin(), kinds.end(), [&](const FailureKind& k) {
        return k.run_failure == kind.run_failure && k.signature == kind.signature;
      });
      if (same == kinds.end()) {
        kinds.push_back(kind);
        continue;
      }
      same->seeds += kind.seeds;
      if (kind.first_seed < same->first_seed) {
        same->first_seed = kind.first_seed;
        same->first_message = kind.first_message;
      }
    }
  }
  std::stable_sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.first_seed < b.first_seed; });
  while (kinds.size() > kFailureKindsKeptMax) {
    other_seeds += kinds.back().seeds;
    kinds.pop_back();
  }
  return kinds;
}

void sum_counts(CampaignResult& whole, const CampaignResult& shard) {
  whole.seeds_requested += shard.seeds_requested;
  whole.seeds_run += shard.seeds_run;
  whole.jobs += shard.jobs;
  whole.events_total += shard.events_total;
  whole.simulated_us_total += shard.simulated_us_total;
  whole.wall_seconds = std::max(whole.wall_seconds, shard.wall_seconds);  // the machines ran side by side
  whole.interrupted_by = whole.interrupted_by != 0 ? whole.interrupted_by : shard.interrupted_by;
  whole.determinism_rechecked += shard.determinism_rechecked;
  whole.violating_seeds += shard.violating_seeds;
  whole.run_failure_seeds += shard.run_failure_seeds;
  whole.mismatching_seeds += shard.mismatching_seeds;
  add_into(whole.violations_per_property, shard.violations_per_property);
  for (std::size_t i = 0; i < platform::kMarkCount; ++i) {
    whole.mark_hits[i] += shard.mark_hits[i];
    whole.mark_seeds[i] += shard.mark_seeds[i];
  }
  if (!whole.required_marks.has_value()) {
    whole.required_marks = shard.required_marks;
  }
  whole.out_of_contract_assumptions.insert(shard.out_of_contract_assumptions.begin(),
                                           shard.out_of_contract_assumptions.end());
  whole.out_of_contract_seeds += shard.out_of_contract_seeds;
  add_into(whole.out_of_contract_per_kind, shard.out_of_contract_per_kind);
  whole.trace_files.insert(shard.trace_files.begin(), shard.trace_files.end());
}

}  // namespace

std::variant<CampaignResult, std::string> merge_campaigns(std::vector<CampaignResult> shards) {
  if (shards.empty()) {
    return std::string("no shard to merge");
  }
  std::sort(shards.begin(), shards.end(), [](const auto& a, const auto& b) { return a.shard.index < b.shard.index; });
  const CampaignResult& first = shards.front();
  std::set<std::uint32_t> seen;
  for (const CampaignResult& shard : shards) {
    if (std::string problem = mismatch(first, shard); !problem.empty()) {
      return problem;
    }
    if (!seen.insert(shard.shard.index).second) {
      return "shard " + shard_text(shard.shard) + " is given twice";
    }
  }
  for (std::uint32_t k = 1; k <= first.shard.count; ++k) {
    if (seen.count(k) == 0) {
      return "shard " + std::to_string(k) + "/" + std::to_string(first.shard.count) + " is missing";
    }
  }
  CampaignResult whole;
  whole.scenario = first.scenario;
  whole.shard = Shard{1, 1, first.shard.first_seed, first.shard.seeds};
  whole.first_seed = first.shard.first_seed;
  whole.swarm = first.swarm;
  whole.checked_determinism = first.checked_determinism;
  whole.determinism_sample = first.determinism_sample;
  whole.jobs = 0;
  whole.out_of_contract = first.out_of_contract;
  for (const CampaignResult& shard : shards) {
    sum_counts(whole, shard);
  }
  const auto outcome_seed = [](const scenarios::SeedOutcome& o) { return o.seed; };
  whole.failures = joined(shards, &CampaignResult::failures, outcome_seed, kFailuresKeptMax);
  whole.out_of_contract_failures = joined(shards, &CampaignResult::out_of_contract_failures, outcome_seed, kFailuresKeptMax);
  whole.mismatches = joined(shards, &CampaignResult::mismatches, [](const DeterminismMismatch& m) { return m.seed; },
                            kMismatchesKeptMax);
  whole.failure_kinds = joined_kinds(shards, whole.other_failure_seeds);
  while (whole.trace_files.size() > kTraceFilesMax) {  // the first failing seeds', as one machine keeps
    whole.trace_files.erase(std::prev(whole.trace_files.end()));
  }
  return whole;
}

}  // namespace spotcheck::reports

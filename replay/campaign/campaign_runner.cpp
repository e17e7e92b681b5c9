#include "replay/campaign/campaign_runner.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "faults/out_of_contract.h"
#include "impl/check/check.h"

namespace spotcheck::cli {

namespace {

using WallClock = std::chrono::steady_clock;

double seconds_since(WallClock::time_point start) {
  return std::chrono::duration<double>(WallClock::now() - start).count();
}

// One seed's verdict, as the worker thread leaves it.
struct FinishedSeed {
  scenarios::SeedOutcome outcome;
  std::optional<reports::DeterminismMismatch> mismatch;
  bool rechecked = false;  // run again to check determinism
};

// One more untraced run of a seed, held to the first run's trace hash and event count; a
// difference is localized with traced runs (check_seed_determinism).
std::optional<reports::DeterminismMismatch> recheck(const scenarios::Scenario& scenario,
                                                    const scenarios::SeedRequest& request,
                                                    const scenarios::SeedOutcome& first) {
  scenarios::SeedRequest again = request;
  again.keep_trace = false;
  const scenarios::SeedOutcome second = scenario.run(again);
  if (second.trace_hash == first.trace_hash && second.events == first.events) {
    return std::nullopt;
  }
  if (auto localized = check_seed_determinism(scenario, request)) {
    return localized;
  }
  return reports::DeterminismMismatch{
      request.seed,
      scenarios::Divergence{std::min(first.events, second.events),
                            "(trace hash " + std::to_string(first.trace_hash) + ", " + std::to_string(first.events) + " events)",
                            "(trace hash " + std::to_string(second.trace_hash) + ", " + std::to_string(second.events) +
                                " events; the traced reruns agreed)"}};
}

// The seeds handed out and the finished ones waiting to be folded in seed order. Guarded by mutex.
class SeedQueue {
 public:
  SeedQueue(const CampaignOptions& options, unsigned jobs)
      : _options(options), _window(kReorderWindowPerJob * jobs) {}

  // The next seed index to run, or nullopt when the range is done or the campaign stops.
  std::optional<std::uint64_t> take() {
    std::unique_lock lock(_mutex);
    _room.wait(lock, [&] { return _stopping || _next_index - _next_to_fold < _window; });
    if (_stopping || _next_index == _options.seeds) {
      return std::nullopt;
    }
    ++_in_flight;
    return _next_index++;
  }

  void finish(std::uint64_t index, FinishedSeed seed) {
    std::lock_guard lock(_mutex);
    SPOTCHECK_ASSERT_ABORT(_in_flight > 0);
    --_in_flight;
    _finished.emplace(index, std::move(seed));
    _ready.notify_one();
  }

  void stop() {
    std::lock_guard lock(_mutex);
    _stopping = true;
    _room.notify_all();
    _ready.notify_one();
  }

  // Waits up to `wait` for finished seeds; returns the ones that are next in seed order.
  std::vector<FinishedSeed> next_in_order(std::chrono::milliseconds wait) {
    std::unique_lock lock(_mutex);
    _ready.wait_for(lock, wait, [&] { return _finished.contains(_next_to_fold) || all_done_locked(); });
    std::vector<FinishedSeed> batch;
    for (auto it = _finished.find(_next_to_fold); it != _finished.end(); it = _finished.find(_next_to_fold)) {
      batch.push_back(std::move(it->second));
      _finished.erase(it);
      ++_next_to_fold;
    }
    if (!batch.empty()) {
      _room.notify_all();
    }
    return batch;
  }

  bool all_done() {
    std::lock_guard lock(_mutex);
    return all_done_locked();
  }

 private:
  bool all_done_locked() const {
    return _in_flight == 0 && _finished.empty() && (_stopping || _next_index == _options.seeds);
  }

  const CampaignOptions& _options;
  const std::uint64_t _window;
  std::mutex _mutex;
  std::condition_variable _room;   // a worker waits for the reorder window to move
  std::condition_variable _ready;  // the folding thread waits for finished seeds
  std::uint64_t _next_index = 0;
  std::uint64_t _next_to_fold = 0;
  std::uint64_t _in_flight = 0;
  bool _stopping = false;
  std::map<std::uint64_t, FinishedSeed> _finished;
};

FinishedSeed run_one(const CampaignOptions& options, std::uint64_t index) {
  scenarios::SeedRequest request;
  request.seed = options.first_seed + index * (options.shard.has_value() ? options.shard->count : 1);
  request.swarm = options.swarm;
  request.out_of_contract = options.out_of_contract;
  FinishedSeed finished;
  try {
    finished.outcome = options.scenario->run(request);
  } catch (const std::exception& e) {
    // Out of memory or another escape from the world's own catch: the seed is a run failure and
    // the campaign goes on (an exception leaving a worker thread would abort the process).
    finished.outcome = scenarios::SeedOutcome{};
    finished.outcome.seed = request.seed;
    finished.outcome.failure = std::string("the run threw: ") + e.what();
  }
  SPOTCHECK_ASSERT_ABORT(finished.outcome.seed == request.seed);
  if (!finished.outcome.ok() && request.out_of_contract != 0) {
    finished.outcome.out_of_contract_needed = out_of_contract_needed(*options.scenario, request);
  }
  if (options.check_determinism) {
    finished.mismatch = check_seed_determinism(*options.scenario, request);
    finished.rechecked = true;
  } else if (!finished.outcome.ok() || in_determinism_sample(request.seed, options.determinism_sample)) {
    try {
      finished.mismatch = recheck(*options.scenario, request, finished.outcome);
    } catch (const std::exception& e) {
      finished.mismatch = reports::DeterminismMismatch{
          request.seed, scenarios::Divergence{0, "(the first run)", std::string("(the second run threw: ") + e.what() + ")"}};
    }
    finished.rechecked = true;
  }
  return finished;
}

int stop_signal(const CampaignOptions& options) {
  return options.stop_requested ? options.stop_requested() : 0;
}

}  // namespace

bool in_determinism_sample(std::uint64_t seed, double share) {
  // splitmix64's finalizer: consecutive seeds spread evenly.
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z % 1'000'000) < share * 1e6;
}

std::vector<std::string> out_of_contract_needed(const scenarios::Scenario& scenario,
                                                const scenarios::SeedRequest& request) {
  SPOTCHECK_ASSERT_ABORT(request.out_of_contract != 0);
  auto passes_with = [&](faults::OutOfContractSet set) {
    scenarios::SeedRequest rerun = request;
    rerun.keep_trace = false;
    rerun.record_decisions = false;
    rerun.replay_decisions = nullptr;
    rerun.out_of_contract = set;
    try {
      return scenario.run(rerun).ok();
    } catch (const std::exception&) {
      return false;
    }
  };
  if (!passes_with(0)) {
    return {};  // an in-contract failure
  }
  std::vector<std::string> needed;
  std::vector<std::string> all;
  for (const faults::OutOfContractInfo& info : faults::out_of_contract_kinds()) {
    const faults::OutOfContractSet bit = faults::out_of_contract_bit(info.kind);
    if ((request.out_of_contract & bit) == 0) {
      continue;
    }
    all.emplace_back(faults::to_string(info.kind));
    if (passes_with(request.out_of_contract & ~bit)) {
      needed.emplace_back(faults::to_string(info.kind));
    }
  }
  return needed.empty() ? all : needed;  // none alone: only together
}

std::optional<reports::DeterminismMismatch> check_seed_determinism(const scenarios::Scenario& scenario,
                                                                   const scenarios::SeedRequest& request) {
  // Cheap first: two untraced runs compared by hash. Only a mismatch pays for full traces.
  scenarios::SeedRequest untraced = request;
  untraced.keep_trace = false;
  const auto a = scenario.run(untraced);
  const auto b = scenario.run(untraced);
  if (a.trace_hash == b.trace_hash && a.events == b.events) {
    return std::nullopt;
  }
  scenarios::SeedRequest traced = request;
  traced.keep_trace = true;
  const auto ta = scenario.run(traced);
  const auto tb = scenario.run(traced);
  if (auto divergence = scenarios::first_divergence(ta, tb)) {
    return reports::DeterminismMismatch{request.seed, *divergence};
  }
  // The traced reruns agreed: report the hashes of the untraced pair.
  return reports::DeterminismMismatch{
      request.seed,
      scenarios::Divergence{std::min(a.events, b.events),
                            "(trace hash " + std::to_string(a.trace_hash) + ", " + std::to_string(a.events) + " events)",
                            "(trace hash " + std::to_string(b.trace_hash) + ", " + std::to_string(b.events) +
                                " events; traced reruns agreed)"}};
}

reports::CampaignResult run_campaign(const CampaignOptions& options) {
  SPOTCHECK_ASSERT_ABORT(options.scenario != nullptr);
  SPOTCHECK_ASSERT_ABORT(options.jobs >= 1);
  SPOTCHECK_ASSERT_ABORT(!options.shard.has_value() ||
                         (options.first_seed == options.shard->own_first_seed() && options.seeds == options.shard->own_seeds()));
  SPOTCHECK_ASSERT_ABORT(options.seeds == 0 || options.shard.has_value() ||
                         options.first_seed <= UINT64_MAX - (options.seeds - 1));
  const auto start = WallClock::now();
  const unsigned jobs = static_cast<unsigned>(std::min<std::uint64_t>(options.jobs, std::max<std::uint64_t>(options.seeds, 1)));

  reports::CampaignResult result;
  result.scenario = options.scenario_label;
  result.first_seed = options.first_seed;
  result.shard = options.shard.value_or(reports::Shard{1, 1, options.first_seed, options.seeds});
  result.seeds_requested = options.seeds;
  result.swarm = options.swarm;
  result.checked_determinism = options.check_determinism;
  result.determinism_sample = options.check_determinism ? 1.0 : options.determinism_sample;
  result.jobs = jobs;
  result.out_of_contract = faults::out_of_contract_text(options.out_of_contract);
  for (const faults::OutOfContractInfo& info : faults::out_of_contract_kinds()) {
    if ((options.out_of_contract & faults::out_of_contract_bit(info.kind)) != 0) {
      result.out_of_contract_assumptions[faults::to_string(info.kind)] = info.assumption;
    }
  }

  SeedQueue queue(options, jobs);
  auto worker = [&] {
    while (const auto index = queue.take()) {
      queue.finish(*index, run_one(options, *index));
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(jobs);
  for (unsigned i = 0; i < jobs; ++i) {
    threads.emplace_back(worker);
  }

  auto progress = [&] {
    return CampaignProgress{result.seeds_run, options.seeds, result.failing_seeds() + result.mismatching_seeds,
                            result.events_total, seconds_since(start)};
  };
  auto last_progress = WallClock::now();
  bool stopping = false;
  while (!queue.all_done()) {
    for (FinishedSeed& finished : queue.next_in_order(std::chrono::milliseconds(50))) {
      if (options.on_seed) {
        options.on_seed(finished.outcome);
      }
      result.add(finished.outcome, std::move(finished.mismatch), finished.rechecked);
    }
    if (!stopping && stop_signal(options) != 0) {
      stopping = true;
      queue.stop();
    }
    if (options.on_progress && seconds_since(last_progress) >= 0.5) {
      last_progress = WallClock::now();
      options.on_progress(progress());
    }
  }
  for (auto& t : threads) {
    t.join();
  }
  SPOTCHECK_ASSERT_ABORT(stopping || result.seeds_run == options.seeds);
  result.interrupted_by = stopping ? stop_signal(options) : 0;
  result.wall_seconds = seconds_since(start);
  if (options.on_progress) {
    options.on_progress(progress());
  }
  return result;
}

}  // namespace spotcheck::cli

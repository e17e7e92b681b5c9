#include "cli/campaign/campaign_runner.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace spotcheck::cli {

namespace {

using WallClock = std::chrono::steady_clock;

double seconds_since(WallClock::time_point start) {
  return std::chrono::duration<double>(WallClock::now() - start).count();
}

// One seed's verdict, as the worker thread leaves it.
struct SeedSlot {
  scenarios::SeedOutcome outcome;
  std::optional<reports::DeterminismMismatch> mismatch;
};

}  // namespace

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
  assert(options.scenario != nullptr);
  assert(options.jobs >= 1);
  const auto start = WallClock::now();

  std::vector<SeedSlot> slots(options.seeds);
  std::atomic<std::uint64_t> next_index{0};
  std::atomic<std::uint64_t> done{0};
  std::atomic<std::uint64_t> failures{0};
  std::atomic<std::uint64_t> events{0};

  auto worker = [&] {
    for (;;) {
      const std::uint64_t index = next_index.fetch_add(1);
      if (index >= options.seeds) {
        return;
      }
      scenarios::SeedRequest request;
      request.seed = options.first_seed + index;
      request.swarm = options.swarm;
      SeedSlot& slot = slots[index];
      slot.outcome = options.scenario->run(request);
      assert(slot.outcome.seed == request.seed);
      if (options.check_determinism) {
        slot.mismatch = check_seed_determinism(*options.scenario, request);
      }
      events.fetch_add(slot.outcome.events);
      if (!slot.outcome.ok() || slot.mismatch.has_value()) {
        failures.fetch_add(1);
      }
      done.fetch_add(1);
    }
  };

  const unsigned jobs = static_cast<unsigned>(std::min<std::uint64_t>(options.jobs, std::max<std::uint64_t>(options.seeds, 1)));
  std::vector<std::thread> threads;
  threads.reserve(jobs);
  for (unsigned i = 0; i < jobs; ++i) {
    threads.emplace_back(worker);
  }

  auto progress = [&] {
    return CampaignProgress{done.load(), options.seeds, failures.load(), events.load(), seconds_since(start)};
  };
  if (options.on_progress) {
    // Report while the workers run; stop as soon as every seed is done.
    auto last = WallClock::now();
    while (done.load() < options.seeds) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (std::chrono::duration<double>(WallClock::now() - last).count() >= 0.5) {
        last = WallClock::now();
        options.on_progress(progress());
      }
    }
  }
  for (auto& t : threads) {
    t.join();
  }
  if (options.on_progress) {
    options.on_progress(progress());
  }

  reports::CampaignResult result;
  result.scenario = options.scenario_label;
  result.first_seed = options.first_seed;
  result.seeds_requested = options.seeds;
  result.seeds_run = done.load();
  result.swarm = options.swarm;
  result.checked_determinism = options.check_determinism;
  result.jobs = jobs;
  result.wall_seconds = seconds_since(start);
  result.outcomes.reserve(slots.size());
  for (auto& slot : slots) {
    result.events_total += slot.outcome.events;
    result.simulated_us_total += slot.outcome.simulated_us;
    if (!slot.outcome.ok()) {
      result.failures.push_back(slot.outcome);
    }
    if (slot.mismatch.has_value()) {
      result.mismatches.push_back(std::move(*slot.mismatch));
    }
    result.outcomes.push_back(std::move(slot.outcome));
  }
  return result;
}

}  // namespace spotcheck::cli

// Settings the checkers need from the scenario (the store clock, liveness tolerances, the
// capacity limits the nodes publish).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "impl/platform/time.h"

namespace spotcheck::properties {

using platform::TimeUs;

struct LivenessOptions {
  // A request end this much (virtual time) after its deadline is still on time: the node's own
  // timer wakes exactly at its local deadline and emits in the same step, so 1 ms is generous.
  TimeUs slack_us = platform::millis(1);
  // Local clocks run at (1 + drift/1e6) of virtual speed: a local timeout of d lasts at most
  // d * (1 + drift_max/1e6) of virtual time. Match sim::WorldConfig::clock_drift_ppm_max.
  std::int64_t clock_drift_ppm_max = 1'000;
  // Timeout used when a request.start carries neither now_us nor a way to read the node's clock
  // (PropertySuite::attach gives one). 0: such a request is judged only by its end (late, now_us).
  TimeUs default_timeout_us = 0;
  // Also judge requests already open when faults stopped (they may have been hit by a fault).
  bool judge_requests_open_at_stop = false;
};

// The capacity limits every node of the scenario publishes in its MeshNode descriptor (spec
// §3.3; 0 = unlimited). The capacity property holds the counter value the store answers to each
// secure to them: a full node refuses a new allocation.
struct CapacityLimits {
  std::uint32_t actors = 0;
  std::uint32_t spots = 0;
  // By "<spotKind>/<stableType>", e.g. "userSpot/Room".
  std::map<std::string, std::uint32_t, std::less<>> spot_types;
};

// Property creation-liveness: an uncontended GetOrCreate that begins settle_us or more after
// faults stopped answers with the object. settle_us must cover what a healed world still owes
// from the faulty phase: a creation record orphaned then is cancelled only once its request's
// deadline has passed by CreationConfig::abandoned_after_ms. 0: nothing is judged.
struct CreationLivenessOptions {
  TimeUs settle_us = 0;
};

struct PropertyOptions {
  // StoreNow (Unix epoch ms) at virtual time 0: the simulated store's clock is
  // epoch_ms + virtual_us / 1000 (sim::StoreServerConfig::epoch_ms; keep the two equal).
  std::int64_t store_epoch_ms = 1'764'417'600'000;
  LivenessOptions liveness;
  CreationLivenessOptions creation_liveness;
  CapacityLimits capacity;
  // The store records store.applied for every write it applies (the simulated store host does).
  // A run against a real Redis has no such account: false, and store-truth judges nothing.
  bool store_ground_truth = true;
};

}  // namespace spotcheck::properties

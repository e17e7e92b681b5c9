// How a protocol scenario's node main ends: it watches its host run's owner lease and keeps its
// descriptor published; once the lease is lost for good (§5: this host run never admits work
// again) it says so (`node.gave_up`), asks the world to restart the process as a new host run, and
// parks. Shared by the creation and Instance Spot scenario programs.
#pragma once

#include <functional>
#include <memory>
#include <string_view>

#include "impl/platform/event_sink.h"
#include "impl/platform/platform.h"
#include "impl/platform/event_kinds.h"
#include "sim/events/harness_events.h"

namespace spotcheck::scenarios {

// Parks the calling task until its process dies.
inline void park_forever(platform::Platform& platform) {
  constexpr int kWaitsMax = 1'000;  // a gate nobody opens: every wait ends only with the process
  std::unique_ptr<platform::Gate> never = platform.tasks.make_gate();
  for (int i = 0; i < kWaitsMax; ++i) {
    never->wait_until(platform::kNever);
  }
}

// `Node` has lease() (with lost() and host_run().owner_id) and ensure_published().
template <class Node>
void supervise_node(platform::Platform& platform, Node& node, const std::function<void()>& request_restart) {
  constexpr int kRoundsMax = 1'000'000;
  constexpr platform::TimeUs kRoundUs = platform::millis(500);
  for (int round = 0; round < kRoundsMax; ++round) {
    if (node.lease().lost()) {
      platform::emit_event(platform.events, kinds::kNodeGaveUp,
                           sim::events::NodeGaveUp{.owner = node.lease().host_run().owner_id});
      request_restart();
      park_forever(platform);
    }
    node.ensure_published();
    platform.clock.sleep_for(kRoundUs);
  }
  park_forever(platform);
}

}  // namespace spotcheck::scenarios

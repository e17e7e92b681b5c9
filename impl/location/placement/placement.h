// Choosing the node for a new object (spec §4, §7): among the nodes of one same-point-in-time
// descriptor list, the candidates are Serving object servers with a valid owner lease, a placement
// weight above 0, the requested (kind, stable type) registered, and remaining capacity by the
// store counters (current usage and reservations other operations secured, read from the store).
// One candidate is drawn with probability weight / total weight from platform::Random, walking
// the candidates in list (key byte) order, so one seed always gives the same choice. Weight 0 is
// never chosen. The Reserve that follows re-checks capacity with bounded counters, descriptor and
// lease versions; a candidate that failed there can be excluded by host run and the choice redone.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "impl/location/config/location_config.h"
#include "impl/location/descriptor/node_view.h"
#include "impl/location/errors.h"
#include "impl/platform/platform.h"
#include "impl/records/enums.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

struct PlacementRequest {
  records::ObjectKind object_kind = records::ObjectKind::kActor;
  std::string stable_type;
  std::vector<HostRun> excluded;  // host runs a failed Reserve ruled out
};

// Slots in use or reserved on one node, from the store counters (absent = 0).
struct NodeUsage {
  std::int64_t actors = 0;
  std::int64_t spots = 0;
  std::int64_t spot_type = 0;  // of the requested (kind, stable type); 0 for an actor
};

// Everything except capacity: Serving, server role, valid lease, weight > 0, capability
// registered, not excluded.
bool is_placement_candidate(const NodeView& node, const PlacementRequest& request);
// One more object of the requested kind fits under the node's limits.
bool has_remaining_capacity(const NodeView& node, const PlacementRequest& request,
                            const NodeUsage& usage);
// Index drawn with probability weights[i] / sum(weights); weights[i] == 0 is never drawn.
// nullopt when every weight is 0.
std::optional<std::size_t> choose_weighted(std::span<const std::uint32_t> weights,
                                           platform::Random& random);

Result<NodeUsage> read_node_usage(store::LocationStore& store, platform::Platform& platform,
                                  const LocationConfig& config, const NodeView& node,
                                  const PlacementRequest& request);

// Picks a target among `nodes`. kNoCandidate when none qualifies.
Result<NodeView> choose_placement_target(store::LocationStore& store, platform::Platform& platform,
                                         const LocationConfig& config,
                                         const std::vector<NodeView>& nodes,
                                         const PlacementRequest& request);

}  // namespace spotcheck::location

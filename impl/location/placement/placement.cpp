#include "impl/location/placement/placement.h"

#include <algorithm>
#include <variant>

#include "impl/location/authority/capacity.h"
#include "impl/check/check.h"
#include "impl/location/events/descriptor_events.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/generation/generation_counter.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/records/limits.h"
#include "impl/store/spi/counter_text.h"

namespace spotcheck::location {


bool is_placement_candidate(const NodeView& node, const PlacementRequest& request) {
  const records::MeshNodeDescriptorRecord& descriptor = node.descriptor;
  SPOTCHECK_ASSERT(descriptor.placement_weight <= records::kWeightMax);
  if (!node.lease_valid || descriptor.state != records::DescriptorState::kServing ||
      descriptor.object_role != records::ObjectRole::kServer || descriptor.placement_weight == 0) {
    return false;
  }
  if (!has_capability(descriptor, request.object_kind, request.stable_type)) {
    return false;
  }
  const HostRun run = node.host_run();
  return std::find(request.excluded.begin(), request.excluded.end(), run) == request.excluded.end();
}

bool has_remaining_capacity(const NodeView& node, const PlacementRequest& request,
                            const NodeUsage& usage) {
  const records::MeshNodeDescriptorRecord& descriptor = node.descriptor;
  if (request.object_kind == records::ObjectKind::kActor) {
    return usage.actors < actors_limit(descriptor);
  }
  return usage.spots < spots_limit(descriptor) &&
         usage.spot_type < spot_type_limit(descriptor, request.object_kind, request.stable_type);
}

std::optional<std::size_t> choose_weighted(std::span<const std::uint32_t> weights,
                                           platform::Random& random) {
  std::uint64_t total = 0;
  for (const std::uint32_t weight : weights) {
    SPOTCHECK_ASSERT(weight <= records::kWeightMax);
    total += weight;
  }
  if (total == 0) {
    return std::nullopt;
  }
  std::uint64_t point = random.below(total);
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (point < weights[i]) {
      SPOTCHECK_ASSERT(weights[i] > 0);
      return i;
    }
    point -= weights[i];
  }
  SPOTCHECK_ASSERT(false && "the drawn point lies inside the total weight");
  return std::nullopt;
}

Result<NodeUsage> read_node_usage(store::LocationStore& store, platform::Platform& platform,
                                  const LocationConfig& config, const NodeView& node,
                                  const PlacementRequest& request) {
  const records::MeshNodeDescriptorRecord& descriptor = node.descriptor;
  auto read_counter = [&](const store::Key& key) -> Result<std::int64_t> {
    const store::ReadResult read =
        store.read(key, platform.clock.now_us() + config.store_request_timeout_us);
    if (std::holds_alternative<store::Missing>(read)) {
      return std::int64_t{0};
    }
    if (const auto* error = std::get_if<store::StoreError>(&read)) {
      return Error::of(ErrorKind::kStoreError,
                       std::string("reading a capacity counter: ") + store::to_string(error->kind));
    }
    const std::optional<std::int64_t> value = store::parse_counter(std::get<store::Found>(read).value);
    if (!value.has_value() || *value < 0) {
      return Error::of(ErrorKind::kRecordInvalid, "a capacity counter is not a count");
    }
    return *value;
  };
  NodeUsage usage;
  if (request.object_kind == records::ObjectKind::kActor) {
    Result<std::int64_t> actors =
        read_counter(keys::capacity_actors(descriptor.mesh_name, descriptor.routing_id_hex));
    if (!actors.ok()) {
      return actors.error();
    }
    usage.actors = actors.value();
    return usage;
  }
  Result<std::int64_t> spots =
      read_counter(keys::capacity_spots(descriptor.mesh_name, descriptor.routing_id_hex));
  if (!spots.ok()) {
    return spots.error();
  }
  Result<std::int64_t> spot_type = read_counter(keys::capacity_spot_type(
      descriptor.mesh_name, descriptor.routing_id_hex, request.object_kind, request.stable_type));
  if (!spot_type.ok()) {
    return spot_type.error();
  }
  usage.spots = spots.value();
  usage.spot_type = spot_type.value();
  return usage;
}

Result<NodeView> choose_placement_target(store::LocationStore& store, platform::Platform& platform,
                                         const LocationConfig& config,
                                         const std::vector<NodeView>& nodes,
                                         const PlacementRequest& request) {
  std::vector<std::size_t> candidates;
  std::vector<std::uint32_t> weights;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!is_placement_candidate(nodes[i], request)) {
      continue;
    }
    Result<NodeUsage> usage = read_node_usage(store, platform, config, nodes[i], request);
    if (!usage.ok()) {
      return usage.error();
    }
    if (!has_remaining_capacity(nodes[i], request, usage.value())) {
      continue;
    }
    candidates.push_back(i);
    weights.push_back(nodes[i].descriptor.placement_weight);
  }
  const std::optional<std::size_t> chosen = choose_weighted(weights, platform.random);
  if (!chosen.has_value()) {
    platform::emit_event(platform.events, kinds::kPlacementNoCandidate,
                         events::PlacementNoCandidate{records::to_string(request.object_kind), request.stable_type,
                                                      static_cast<std::int64_t>(nodes.size())});
    return Error::of(ErrorKind::kNoCandidate, "no Serving node with lease, weight and capacity for " +
                                                  request.stable_type);
  }
  const NodeView& target = nodes[candidates[*chosen]];
  SPOTCHECK_ASSERT(target.lease_valid);
  SPOTCHECK_ASSERT(target.descriptor.placement_weight > 0);
  std::int64_t total_weight = 0;
  for (const std::uint32_t weight : weights) {
    total_weight += weight;
  }
  platform::emit_event(platform.events, kinds::kPlacementChosen,
                       events::PlacementChosen{target.descriptor.mesh_name, target.descriptor.routing_id_hex,
                                               target.descriptor.owner_id,
                                               static_cast<std::int64_t>(target.descriptor.lease_generation),
                                               target.descriptor.placement_weight,
                                               static_cast<std::int64_t>(candidates.size()), total_weight,
                                               records::to_string(request.object_kind), request.stable_type});
  return target;
}

}  // namespace spotcheck::location

#include "model/capacity_counters.h"

#include <algorithm>

namespace spotcheck::model {

namespace {

std::string node_prefix(std::string_view mesh, std::string_view rid) {
  return "capacity/" + std::string(mesh) + "/" + std::string(rid) + "/";
}

}  // namespace

std::string actors_counter(std::string_view mesh, std::string_view rid) { return node_prefix(mesh, rid) + "actors"; }

std::string spots_counter(std::string_view mesh, std::string_view rid) { return node_prefix(mesh, rid) + "spots"; }

std::string spot_type_counter(std::string_view mesh, std::string_view rid, std::string_view spot_kind,
                              std::string_view stable_type) {
  return node_prefix(mesh, rid) + "spot-type/" + std::string(spot_kind) + "/" + std::string(stable_type);
}

std::vector<CounterMove> capacity_moves(const AllocationSlots& slots, int sign) {
  std::vector<CounterMove> moves;
  if (slots.actors != 0) {
    moves.push_back({actors_counter(slots.mesh, slots.rid), sign * slots.actors});
  }
  if (slots.spots != 0) {
    moves.push_back({spots_counter(slots.mesh, slots.rid), sign * slots.spots});
  }
  if (slots.spot_type != 0) {
    moves.push_back({spot_type_counter(slots.mesh, slots.rid, slots.spot_kind, slots.stable_type),
                     sign * slots.spot_type});
  }
  std::sort(moves.begin(), moves.end());
  return moves;
}

std::vector<CounterLimit> counter_limits(const NodeLimits& limits) {
  std::vector<CounterLimit> out;
  if (limits.actors > 0) {
    out.push_back({actors_counter(limits.mesh, limits.rid), limits.actors});
  }
  if (limits.spots > 0) {
    out.push_back({spots_counter(limits.mesh, limits.rid), limits.spots});
  }
  for (const NodeLimits::SpotType& type : limits.spot_types) {
    if (type.limit > 0) {
      out.push_back({spot_type_counter(limits.mesh, limits.rid, type.spot_kind, type.stable_type), type.limit});
    }
  }
  std::sort(out.begin(), out.end(), [](const CounterLimit& a, const CounterLimit& b) { return a.key < b.key; });
  return out;
}

std::optional<std::string> counter_limit_problem(std::int64_t delta, std::int64_t after, std::int64_t limit) {
  if (delta <= 0 || limit <= 0 || after <= limit) {
    return std::nullopt;
  }
  return "securing " + std::to_string(delta) + " slot(s) took the counter to " + std::to_string(after) +
         ", past the limit of " + std::to_string(limit) +
         " the node's stored descriptor states (§3.3: a full node refuses a new allocation)";
}

}  // namespace spotcheck::model

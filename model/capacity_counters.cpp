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

}  // namespace spotcheck::model

// The capacity counters of the reference model (spec §3.3, §4, §6.1): which counter one
// allocation occupies and how an authority transition moves them. A checker holds every applied
// write's counter increments against these, so the names are derived here, from the layout
// docs/protocol.md gives, never by calling the protocol's own key code (a key built wrong in
// impl/ then shows as a write that moved the wrong counter).
//
// Counters, one per node (mesh, routing id) and category, printed as store.applied prints keys
// (NUL separators shown as '/'):
//   capacity/<mesh>/<rid>/actors
//   capacity/<mesh>/<rid>/spots
//   capacity/<mesh>/<rid>/spot-type/<spot kind>/<stable type>    (one per Spot kind and type)
// Reserve secures an allocation's slots, Abort and Delete return them, Commit and Preserve move
// nothing; a slot count of 0 moves no counter.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spotcheck::model {

// The slots one allocation holds on one node.
struct AllocationSlots {
  std::string mesh;
  std::string rid;
  std::int64_t actors = 0;
  std::int64_t spots = 0;
  std::string spot_kind;    // userSpot | instanceSpot; empty for an actor
  std::string stable_type;  // of the Spot kind; empty for an actor
  std::int64_t spot_type = 0;
};

struct CounterMove {
  std::string key;
  std::int64_t delta = 0;
  friend auto operator<=>(const CounterMove&, const CounterMove&) = default;
};

std::string actors_counter(std::string_view mesh, std::string_view rid);
std::string spots_counter(std::string_view mesh, std::string_view rid);
std::string spot_type_counter(std::string_view mesh, std::string_view rid, std::string_view spot_kind,
                              std::string_view stable_type);

// The moves of securing (sign +1) or returning (sign -1) `slots`, in key order.
std::vector<CounterMove> capacity_moves(const AllocationSlots& slots, int sign);

}  // namespace spotcheck::model

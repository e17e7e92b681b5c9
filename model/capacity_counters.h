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
// nothing; a slot count of 0 moves no counter. A securing move (delta > 0) never leaves a counter
// above the limit the node's stored MeshNode descriptor states for it (§3.3: a full node refuses
// a new allocation; 0 = unlimited): every write that secures slots is conditioned on the version
// of that descriptor, so the descriptor the store holds when it applies is the one the bound came
// from.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
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

// A node's limits as its descriptor states them (0 = unlimited).
struct NodeLimits {
  struct SpotType {
    std::string spot_kind;  // userSpot | instanceSpot
    std::string stable_type;
    std::int64_t limit = 0;
  };
  std::string mesh;
  std::string rid;
  std::int64_t actors = 0;
  std::int64_t spots = 0;
  std::vector<SpotType> spot_types;
};

// The bound of one counter.
struct CounterLimit {
  std::string key;
  std::int64_t limit = 0;  // > 0: counters with no limit are not listed
};

// The counters `limits` bound, in key order.
std::vector<CounterLimit> counter_limits(const NodeLimits& limits);

// What a move of `delta` that left the counter at `after` breaks against `limit` (0 = unlimited),
// or nullopt. Only a securing move (delta > 0) is bounded: a return never is, whatever the limit
// became since the slots were secured.
std::optional<std::string> counter_limit_problem(std::int64_t delta, std::int64_t after, std::int64_t limit);

}  // namespace spotcheck::model

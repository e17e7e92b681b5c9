// The create-storm workload: every node's clients Create / GetOrCreate the same few Actor and
// User Spot IDs, find them and destroy / close them again (so IDs are re-created under new
// generations), while the factories sometimes reject, sometimes throw, sometimes take long. Some
// destroys use a ref kept from an earlier answer, which may name an older generation by then; some
// creations bring the client's own OperationId and are retried with it later, before or after the
// node restarts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "impl/platform/time.h"

namespace spotcheck::scenarios::creation {

struct CreationWorkload {
  // The Meshes (§7 InMesh): node k publishes its descriptor in mesh_names[RoutingId % size]; every
  // node takes part in all of them as an object-role host (CreationConfig::object_meshes). With two
  // or more, each creation names a Mesh, or (omit_mesh_probability) names none, which must be
  // InvalidOperation, or (unknown_mesh_probability) names one no host has, which must be NotFound.
  std::vector<std::string> mesh_names{"sim"};
  double omit_mesh_probability = 0.05;
  double unknown_mesh_probability = 0.03;
  std::uint32_t actor_ids = 3;        // "player:0" ..
  std::uint32_t spot_ids = 2;         // "room:0" .. (User Spots of type Room)
  std::uint32_t clients_per_node = 2;  // concurrent client tasks per host run
  platform::TimeUs think_min_us = platform::millis(10);
  platform::TimeUs think_max_us = platform::millis(300);
  platform::TimeUs request_deadline_us = platform::seconds(5);
  // Operation mix (weights, any scale).
  std::uint32_t get_or_create_actor_weight = 30;
  std::uint32_t create_actor_weight = 15;
  std::uint32_t get_or_create_spot_weight = 15;
  std::uint32_t create_spot_weight = 5;
  std::uint32_t destroy_weight = 15;  // find + destroy an actor / close a spot
  std::uint32_t find_weight = 10;
  // A creation call again with an OperationId the client chose for an earlier one (kept in its own
  // records across restarts): in the same host run it is the same request, answered from its
  // stored final result or carried on; after a restart it is a new request (§7: the request
  // identifier holds the source host run generation) and must not meet the earlier one's result.
  std::uint32_t retry_own_operation_weight = 10;
  // The share of creation calls that bring their own OperationId (and are kept to retry).
  double own_operation_id_probability = 0.5;
  // A destroy / close that uses a ref the node kept from an earlier answer (a client holding an
  // ActorRef / SpotRef for a while): by then the ID may hold another generation (§7.2).
  double kept_ref_probability = 0.3;
  // The capacity limits every node publishes (§3.3; 0 = unlimited): actor slots, and slots of
  // the Room User Spot type.
  std::uint32_t actors_limit = 0;
  std::uint32_t room_limit = 0;
  // Factories.
  double reject_probability = 0.1;
  double throw_probability = 0.1;
  platform::TimeUs factory_delay_max_us = platform::millis(400);
  // Regular messages (§7.3, the object runtime): a client sends one to an actor or a room by its
  // ID, over the location cache or a fresh read. The handler takes up to handler_delay_max_us and,
  // with timer_probability, starts a timer callback 100 ms .. timer_delay_max_us later. Off (0) in
  // create-storm, whose draws stay as they were; message-storm turns them on.
  std::uint32_t send_message_weight = 0;
  platform::TimeUs handler_delay_max_us = 0;
  double timer_probability = 0.0;
  platform::TimeUs timer_delay_max_us = platform::seconds(3);
  // With this probability a message turn's handler Sends (no reply, §9.3) "relay <payload>" to an
  // actor of the pool (itself too, sometimes), numbered in its instance's own stream.
  double post_probability = 0.0;
  // Clients issue requests only before this time (the end of traffic).
  platform::TimeUs traffic_stop_us = platform::seconds(60);
};

}  // namespace spotcheck::scenarios::creation

// The instance-route workload: client nodes send Instance Spot requests (fresh OperationIds) to a
// few SpotIds of one stable type hosted by server nodes; the application closes a Spot now and
// then after its first message ran. (Lost, delayed and partitioned messages and slow Deletes are
// the fault plan's: faults/, carried out by sim::Network and the store host.)
#pragma once

#include <cstdint>
#include <string>

#include "impl/platform/time.h"

namespace spotcheck::scenarios::instance {

struct InstanceWorkload {
  std::string mesh_name = "sim";
  std::string stable_type = "Chat";
  // A second Instance Spot type every server publishes too (no request names it): with two types
  // available, a request that omits the type is InvalidOperation (§7.1).
  std::string second_type = "Lobby";
  // The chance a request omits its type (InstanceCall::stable_type empty).
  double omit_type_probability = 0.05;
  std::uint32_t spot_ids = 2;            // "chat-0" ..
  std::uint32_t clients_per_node = 2;    // client tasks per client node
  platform::TimeUs think_min_us = platform::millis(200);
  platform::TimeUs think_max_us = platform::seconds(2);
  platform::TimeUs request_deadline_us = platform::seconds(10);
  // Clients start requests only before this time.
  platform::TimeUs traffic_stop_us = platform::seconds(40);
  // The application's Close after a first message ran: with this
  // probability per incarnation, uniform in [0, close_delay_max_us] later.
  double close_after_first_probability = 0.6;
  // A later message ends its Spot (a "goodbye"): its handler asks for Close at once, so the Close
  // begins while the message's reply is still to leave (the target answers it
  // request_target_not_found: the message ran, no instance is left to reply from).
  double close_on_message_probability = 0.1;
  platform::TimeUs close_delay_max_us = platform::millis(1'500);
  // The share of those delayed Closes that are Close with Reincarnate (framework 0.27): the next
  // incarnation is activated on the same node at once, its first message the "initialize" payload.
  // A Close is one with Reincarnate when its drawn delay falls in the first share of
  // [0, close_delay_max_us] (no draw of its own, so the runs without one are unchanged).
  double reincarnate_share = 0.3;
};

}  // namespace spotcheck::scenarios::instance

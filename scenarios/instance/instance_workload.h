// The instance-route workload: client nodes send Instance Spot requests (fresh OperationIds) to a
// few SpotIds of one stable type hosted by server nodes; the application closes a Spot now and
// then after its first message ran; answers are lost or delayed on the way back to the source
// and the target's Delete of a closed Spot's row is slow, until faults stop.
#pragma once

#include <cstdint>
#include <string>

#include "impl/platform/time.h"

namespace spotcheck::scenarios::instance {

struct InstanceWorkload {
  std::string mesh_name = "sim";
  std::string stable_type = "Chat";
  std::uint32_t spot_ids = 2;            // "chat-0" ..
  std::uint32_t clients_per_node = 2;    // client tasks per client node
  platform::TimeUs think_min_us = platform::millis(200);
  platform::TimeUs think_max_us = platform::seconds(2);
  platform::TimeUs request_deadline_us = platform::seconds(10);
  // Clients start requests only before this time.
  platform::TimeUs traffic_stop_us = platform::seconds(40);
  // The application's Close (without Reincarnate) after a first message ran: with this
  // probability per incarnation, uniform in [0, close_delay_max_us] later.
  double close_after_first_probability = 0.6;
  platform::TimeUs close_delay_max_us = platform::millis(1'500);
};

// Faults of the simulated delivery (drawn from the world's "instance-faults" stream) and of the
// closing Delete, all healed at faults_stop_us.
struct DeliveryFaults {
  double lose_reply_probability = 0.25;                  // the target ran it; the answer is lost
  platform::TimeUs request_delay_max_us = platform::millis(30);   // before the target takes it
  platform::TimeUs reply_delay_max_us = platform::millis(100);    // on the answer's way back
  platform::TimeUs reply_timeout_us = platform::seconds(1);       // the source's send timeout
  platform::TimeUs spot_delete_delay_max_us = platform::millis(400);  // before a Spot row Delete
};

}  // namespace spotcheck::scenarios::instance

// How simulated links behave. Latency is drawn uniformly from [latency_min_us, latency_max_us] per
// message from the "network" stream; a connection stays FIFO (an arrival is never earlier than the
// previous arrival on the same connection).
#pragma once

#include "sim/ids.h"

namespace spotcheck::sim {

struct LinkConfig {
  TimeUs latency_min_us = 100;
  TimeUs latency_max_us = 1'000;
  double loss_probability = 0.0;  // per message, decided at send time
};

struct NetworkConfig {
  LinkConfig link;  // every connection unless overridden with Network::set_link_config
};

}  // namespace spotcheck::sim

// How simulated links behave. Latency is drawn uniformly from [latency_min_us, latency_max_us] per
// message from the "network" stream — or, with tail_probability, from a long tail above it; a
// connection stays FIFO (an arrival is never earlier than the previous arrival on the same
// connection).
#pragma once

#include "sim/ids.h"

namespace spotcheck::sim {

struct LinkConfig {
  TimeUs latency_min_us = 100;
  TimeUs latency_max_us = 1'000;
  double loss_probability = 0.0;  // per message, decided at send time
  // A heavy tail: with this probability a message's latency is drawn log-uniformly from
  // [latency_max_us, tail_max_us] instead (a power of two doubling picked uniformly, then a point
  // in it: as many messages between 1 and 2 ms as between 100 and 200 ms). Integers only, so a
  // replay on any machine draws the same. 0: no tail, and no draw.
  double tail_probability = 0.0;
  TimeUs tail_max_us = 0;
};

struct NetworkConfig {
  LinkConfig link;  // every connection unless overridden with Network::set_link_config
};

}  // namespace spotcheck::sim

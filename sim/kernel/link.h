// One direction of a connection (private to the kernel's Network).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>

#include "sim/ids.h"
#include "sim/network_config.h"

namespace spotcheck::sim {

struct InFlight {
  std::uint64_t message = 0;
  std::uint64_t epoch = 0;          // connection epoch at send; a disconnect bumps the link's epoch
  std::uint32_t destination_run = 0;  // receiver's host run at send
  std::string bytes;
  std::function<void()> on_arrival;  // set for typed deliveries
};

struct Link {
  std::uint32_t index = 0;
  RoutingId from = 0;
  RoutingId to = 0;
  LinkConfig config;
  bool partitioned = false;
  bool disconnected = false;
  std::uint64_t epoch = 0;
  TimeUs last_arrival_us = 0;
  TimeUs stalled_until_us = 0;  // a message sent before this arrives no earlier (Network::stall)
  std::deque<InFlight> in_flight;  // FIFO; one arrival entry is scheduled per element
};

}  // namespace spotcheck::sim

// How the simulated link to the store misbehaves (spec §10's cases). Probabilities per request.
#pragma once

#include "sim/ids.h"

namespace spotcheck::sim {

struct StoreFaults {
  double request_loss = 0.0;  // the request never reaches the store: nothing applied
  double reply_loss = 0.0;    // the store applied the request; its reply is lost
  double reply_delay = 0.0;   // the reply arrives only after the caller's deadline
  // A Location Store write whose mutations include a Delete is held at the store for a delay
  // uniform in [0, delete_hold_max_us] before it applies (0: never held). A slow Delete, e.g. a
  // Close's, widens the window where a request meets a record about to go.
  TimeUs delete_hold_max_us = 0;
};

}  // namespace spotcheck::sim

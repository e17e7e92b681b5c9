// How the simulated link to the store misbehaves (spec §10's cases). Probabilities per request.
#pragma once

namespace spotcheck::sim {

struct StoreFaults {
  double request_loss = 0.0;  // the request never reaches the store: nothing applied
  double reply_loss = 0.0;    // the store applied the request; its reply is lost
  double reply_delay = 0.0;   // the reply arrives only after the caller's deadline
};

}  // namespace spotcheck::sim

// Everything one host process of the protocol may touch of the outside world.
#pragma once

#include "impl/platform/clock.h"
#include "impl/platform/event_sink.h"
#include "impl/platform/random.h"
#include "impl/platform/tasks.h"
#include "impl/platform/transport.h"

namespace spotcheck::platform {

struct Platform {
  Clock& clock;
  Tasks& tasks;
  Transport& transport;
  Random& random;
  EventSink& events;
};

}  // namespace spotcheck::platform

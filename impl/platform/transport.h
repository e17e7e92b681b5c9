// Seam: ordered byte connections between node routing ids (the Core transport carries bytes only).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "impl/platform/time.h"

namespace spotcheck::platform {

using RoutingId = std::uint64_t;

struct Envelope {
  RoutingId from = 0;
  std::string bytes;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual RoutingId self() const = 0;
  // Queues bytes on the ordered connection to `to`. Delivery is not guaranteed
  // (loss, partition, disconnect, peer death); order per connection is.
  virtual void send(RoutingId to, std::string bytes) = 0;
  // Parks until a message arrives or deadline_us passes.
  virtual std::optional<Envelope> receive(TimeUs deadline_us) = 0;
};

}  // namespace spotcheck::platform

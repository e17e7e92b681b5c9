// Simulated links between RoutingIds. Each ordered pair (from, to) is one FIFO connection with a
// latency distribution and a loss probability. Partitions (symmetric or one-way) drop messages at
// send time and at arrival; disconnect breaks a connection (everything in flight is lost) until
// reconnect. A message addressed to a process is dropped if that process is down at arrival or
// has restarted since the send (a new host run does not inherit its predecessor's connections).
//
// Two payloads share the same links: bytes for node Transports (queued in the receiver's inbox)
// and typed deliveries, a callback run at arrival on the world context, for sim-hosted services
// that carry C++ objects (e.g. the store server). A typed arrival at a paused process waits for
// the pause to end.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sim/ids.h"
#include "sim/network_config.h"

namespace spotcheck::sim {

class Kernel;
class Stream;
struct Link;
struct Process;

class Network {
 public:
  Network(Kernel& kernel, NetworkConfig config);
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  void set_link_config(RoutingId from, RoutingId to, const LinkConfig& config);

  // Every pair (a in side_a, b in side_b) loses both directions until healed.
  void partition(std::span<const RoutingId> side_a, std::span<const RoutingId> side_b);
  // `from` can no longer reach `to`; the other direction is untouched.
  void partition_one_way(RoutingId from, RoutingId to);
  // The from→to link holds every message sent until `until_us` (virtual) and delivers them then,
  // in order: a stalled connection, nothing lost. A later stall extends it, never shortens it.
  void stall(RoutingId from, RoutingId to, TimeUs until_us);
  // Lifts partitions between a and b, both directions.
  void heal(RoutingId a, RoutingId b);
  void heal_all();

  // Breaks the connection a<->b: in-flight messages are lost and sends fail until reconnect.
  void disconnect(RoutingId a, RoutingId b);
  void reconnect(RoutingId a, RoutingId b);

  // True when a message sent now from `from` would not be refused by a partition or disconnect.
  bool can_reach(RoutingId from, RoutingId to) const;

  // Bytes for the receiver's Transport inbox. Returns false when dropped at send time.
  bool send(RoutingId from, RoutingId to, std::string bytes);
  // Typed delivery: `on_arrival` runs on the world context when (and only if) the message
  // arrives. It must not block; to block, spawn a task (World::spawn). It must not touch memory of
  // the sender unless that memory outlives a kill. Returns false when dropped at send time.
  bool deliver(RoutingId from, RoutingId to, std::function<void()> on_arrival);

  std::uint64_t messages_in_flight() const { return in_flight_; }

 private:
  friend class Kernel;
  Link& link(RoutingId from, RoutingId to);
  const Link* find_link(RoutingId from, RoutingId to) const;
  bool enqueue(RoutingId from, RoutingId to, std::string bytes, std::function<void()> on_arrival);
  void arrive(std::uint32_t link_index);
  void drop(std::int32_t node, RoutingId from, RoutingId to, std::uint64_t message, std::string_view why);

  Kernel& kernel_;
  NetworkConfig config_;
  Stream& random_;
  std::vector<std::unique_ptr<Link>> links_;  // by index, in creation order
  std::map<std::pair<RoutingId, RoutingId>, std::uint32_t> link_index_;
  std::uint64_t next_message_id_ = 1;
  std::uint64_t in_flight_ = 0;
};

}  // namespace spotcheck::sim

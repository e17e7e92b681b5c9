#include "sim/kernel/network.h"
#include "impl/platform/event_kinds.h"

#include <algorithm>
#include <utility>

#include "impl/check/check.h"
#include "sim/events/sim_events.h"
#include "sim/kernel/kernel.h"
#include "sim/kernel/link.h"

namespace spotcheck::sim {
namespace {

std::int32_t node_of(const Process* process) {
  return process != nullptr ? static_cast<std::int32_t>(process->id) : kWorldNode;
}

void check_link_config(const LinkConfig& config) {
  SPOTCHECK_ASSERT_ABORT(config.latency_min_us >= 0);
  SPOTCHECK_ASSERT_ABORT(config.latency_min_us <= config.latency_max_us);
  SPOTCHECK_ASSERT_ABORT(config.loss_probability >= 0.0);
  SPOTCHECK_ASSERT_ABORT(config.loss_probability <= 1.0);
  SPOTCHECK_ASSERT_ABORT(config.tail_probability >= 0.0 && config.tail_probability <= 1.0);
  SPOTCHECK_ASSERT_ABORT(config.tail_probability == 0.0 || config.tail_max_us >= config.latency_max_us);
}

// The latency of one message (LinkConfig): uniform, or now and then from the long tail.
TimeUs draw_latency_us(platform::Random& random, const LinkConfig& config) {
  if (config.tail_probability > 0.0 && random.chance(config.tail_probability)) {
    const TimeUs floor_us = std::max<TimeUs>(1, config.latency_max_us);
    int doublings = 0;
    while (doublings < 40 && (floor_us << (doublings + 1)) <= config.tail_max_us) {
      ++doublings;
    }
    const TimeUs low_us = floor_us << random.between(0, doublings);
    return random.between(low_us, std::min(config.tail_max_us, 2 * low_us));
  }
  return random.between(config.latency_min_us, config.latency_max_us);
}

// net.heal | net.disconnect | net.reconnect: both directions between a and b, on the world.
void record_pair(Kernel& kernel, std::string_view kind, RoutingId a, RoutingId b) {
  kernel.record_event(kWorldNode, kernel.current_task_id(), kind,
                      events::NetPair{.a = static_cast<std::int64_t>(a), .b = static_cast<std::int64_t>(b)});
}

// net.deliver | net.deferred: recorded on the receiver, outside any task.
void record_delivery(Kernel& kernel, std::int32_t node, std::string_view kind, RoutingId from, std::uint64_t message) {
  kernel.record_event(node, 0, kind,
                      events::NetDeliver{.from = static_cast<std::int64_t>(from),
                                         .message = static_cast<std::int64_t>(message)});
}

}  // namespace

Network::Network(Kernel& kernel, NetworkConfig config)
    : kernel_(kernel), config_(config), random_(kernel.stream("network")) {
  check_link_config(config_.link);
}

Network::~Network() = default;

Link& Network::link(RoutingId from, RoutingId to) {
  auto found = link_index_.find({from, to});
  if (found != link_index_.end()) {
    return *links_[found->second];
  }
  auto created = std::make_unique<Link>();
  created->index = static_cast<std::uint32_t>(links_.size());
  created->from = from;
  created->to = to;
  created->config = config_.link;
  link_index_.emplace(std::make_pair(from, to), created->index);
  links_.push_back(std::move(created));
  return *links_.back();
}

const Link* Network::find_link(RoutingId from, RoutingId to) const {
  auto found = link_index_.find({from, to});
  return found == link_index_.end() ? nullptr : links_[found->second].get();
}

void Network::set_link_config(RoutingId from, RoutingId to, const LinkConfig& config) {
  check_link_config(config);
  link(from, to).config = config;
  kernel_.record_event(kWorldNode, kernel_.current_task_id(), kinds::kNetLink,
                       events::NetLink{.from = static_cast<std::int64_t>(from),
                                       .to = static_cast<std::int64_t>(to),
                                       .latency_min_us = config.latency_min_us,
                                       .latency_max_us = config.latency_max_us});
}

void Network::partition(std::span<const RoutingId> side_a, std::span<const RoutingId> side_b) {
  for (const RoutingId a : side_a) {
    for (const RoutingId b : side_b) {
      SPOTCHECK_ASSERT_ABORT(a != b);
      partition_one_way(a, b);
      partition_one_way(b, a);
    }
  }
}

void Network::partition_one_way(RoutingId from, RoutingId to) {
  link(from, to).partitioned = true;
  kernel_.record_event(kWorldNode, kernel_.current_task_id(), kinds::kNetPartition,
                       events::NetPartition{.from = static_cast<std::int64_t>(from),
                                            .to = static_cast<std::int64_t>(to)});
}

void Network::stall(RoutingId from, RoutingId to, TimeUs until_us) {
  Link& connection = link(from, to);
  connection.stalled_until_us = std::max(connection.stalled_until_us, until_us);
  kernel_.record_event(kWorldNode, kernel_.current_task_id(), kinds::kNetStall,
                       events::NetStall{.from = static_cast<std::int64_t>(from),
                                        .to = static_cast<std::int64_t>(to),
                                        .until_us = connection.stalled_until_us});
}

void Network::heal(RoutingId a, RoutingId b) {
  for (const auto& [from, to] : {std::make_pair(a, b), std::make_pair(b, a)}) {
    link(from, to).partitioned = false;
  }
  record_pair(kernel_, kinds::kNetHeal, a, b);
}

void Network::heal_all() {
  for (auto& each : links_) {
    each->partitioned = false;
  }
  kernel_.record(kWorldNode, kernel_.current_task_id(), kinds::kNetHealAll, {});
}

void Network::disconnect(RoutingId a, RoutingId b) {
  for (const auto& [from, to] : {std::make_pair(a, b), std::make_pair(b, a)}) {
    Link& each = link(from, to);
    each.disconnected = true;
    ++each.epoch;  // everything in flight is lost at arrival
  }
  record_pair(kernel_, kinds::kNetDisconnect, a, b);
}

void Network::reconnect(RoutingId a, RoutingId b) {
  for (const auto& [from, to] : {std::make_pair(a, b), std::make_pair(b, a)}) {
    link(from, to).disconnected = false;
  }
  record_pair(kernel_, kinds::kNetReconnect, a, b);
}

bool Network::can_reach(RoutingId from, RoutingId to) const {
  const Link* found = find_link(from, to);
  return found == nullptr || (!found->partitioned && !found->disconnected);
}

bool Network::send(RoutingId from, RoutingId to, std::string bytes) {
  return enqueue(from, to, std::move(bytes), nullptr);
}

bool Network::deliver(RoutingId from, RoutingId to, std::function<void()> on_arrival) {
  SPOTCHECK_ASSERT_ABORT(on_arrival != nullptr);
  return enqueue(from, to, {}, std::move(on_arrival));
}

void Network::drop(std::int32_t node, RoutingId from, RoutingId to, std::uint64_t message, std::string_view why) {
  // `why` is always a literal here.
  kernel_.record_event(node, kernel_.current_task_id(), kinds::kNetDrop,
                       events::NetDrop{.from = static_cast<std::int64_t>(from),
                                       .to = static_cast<std::int64_t>(to),
                                       .message = static_cast<std::int64_t>(message),
                                       .why = why});
}

bool Network::enqueue(RoutingId from, RoutingId to, std::string bytes, std::function<void()> on_arrival) {
  const bool typed = on_arrival != nullptr;
  const std::uint64_t message = next_message_id_++;
  Process* sender = kernel_.process_by_routing_id(from);
  const std::int32_t node = node_of(sender);
  kernel_.record_event(node, kernel_.current_task_id(), typed ? kinds::kNetPost : kinds::kNetSend,
                       events::NetSend{.to = static_cast<std::int64_t>(to),
                                       .message = static_cast<std::int64_t>(message),
                                       .size_bytes = static_cast<std::int64_t>(bytes.size())});
  if (sender != nullptr && sender->state != ProcessState::running && sender->state != ProcessState::paused) {
    drop(node, from, to, message, "sender_down");
    return false;
  }
  if (sender != nullptr && sender->crashing) {
    drop(node, from, to, message, "sender_crashed");  // sent after its crash point: never leaves
    return false;
  }
  Link& connection = link(from, to);
  if (connection.disconnected) {
    drop(node, from, to, message, "disconnected");
    return false;
  }
  if (connection.partitioned) {
    drop(node, from, to, message, "partition");
    return false;
  }
  if (random_.chance(connection.config.loss_probability)) {
    drop(node, from, to, message, "loss");
    return false;
  }
  const TimeUs latency_us = draw_latency_us(random_, connection.config);
  // A stalled link holds what is sent until the stall ends (FIFO kept), then delivers it.
  const TimeUs arrival_us =
      std::max({kernel_.now_us() + latency_us, connection.last_arrival_us, connection.stalled_until_us});
  connection.last_arrival_us = arrival_us;
  const Process* receiver = kernel_.process_by_routing_id(to);
  connection.in_flight.push_back(InFlight{message, connection.epoch, receiver != nullptr ? receiver->run : 0,
                                          std::move(bytes), std::move(on_arrival)});
  ++in_flight_;
  kernel_.schedule(arrival_us, ReadyEntry{0, connection.index, EntryKind::arrival, WakeReason::message});
  return true;
}

void Network::arrive(std::uint32_t link_index) {
  SPOTCHECK_ASSERT_ABORT(link_index < links_.size());
  Link& connection = *links_[link_index];
  SPOTCHECK_ASSERT_ABORT(!connection.in_flight.empty());
  InFlight message = std::move(connection.in_flight.front());
  connection.in_flight.pop_front();
  SPOTCHECK_ASSERT_ABORT(in_flight_ > 0);
  --in_flight_;

  Process* receiver = kernel_.process_by_routing_id(connection.to);
  const std::int32_t node = node_of(receiver);
  std::string_view why;
  if (message.epoch != connection.epoch) {
    why = "disconnected";
  } else if (connection.partitioned) {
    why = "partition";
  } else if (receiver != nullptr &&
             receiver->state != ProcessState::running && receiver->state != ProcessState::paused) {
    why = "peer_down";
  } else if (receiver != nullptr && receiver->run != message.destination_run) {
    why = "peer_restarted";
  } else if (receiver == nullptr && !message.on_arrival) {
    why = "no_endpoint";
  } else if (receiver != nullptr && !message.on_arrival &&
             receiver->inbox.size() >= kernel_.config().max_inbox_messages) {
    why = "inbox_full";
  }
  if (!why.empty()) {
    drop(node, connection.from, connection.to, message.message, why);
    return;
  }
  if (message.on_arrival) {
    if (receiver != nullptr && receiver->state == ProcessState::paused) {
      record_delivery(kernel_, node, kinds::kNetDeferred, connection.from, message.message);
      receiver->deferred_arrivals.push_back(
          DeferredArrival{connection.from, message.message, std::move(message.on_arrival)});
      return;
    }
    record_delivery(kernel_, node, kinds::kNetDeliver, connection.from, message.message);
    kernel_.run_guarded("typed delivery", message.on_arrival);
    return;
  }
  record_delivery(kernel_, node, kinds::kNetDeliver, connection.from, message.message);
  receiver->inbox.push_back(platform::Envelope{connection.from, std::move(message.bytes)});
  kernel_.wake_all(receiver->inbox_waiters, WakeReason::message);
}

}  // namespace spotcheck::sim

// object-messages, the loss half (object_messages_checker.h): every regular message is followed
// from its send to the network message that carried it, to its delivery or its drop (a fault),
// and from its delivery to its turn or to the owner's answer that it did not run. A delivered
// message the owner neither ran nor answered is lost unless its process died or restarted since.
#include "impl/location/events/object_events.h"
#include "impl/location/events/relocation_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/checkers/object_messages_checker.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"
#include "sim/events/sim_events.h"

namespace spotcheck::properties {

namespace events = location::events;

namespace {

// (stream, receiving node): one FIFO queue's view of one sender stream.
std::string queue_key(const std::string& stream, std::int32_t node) {
  return stream + '\0' + std::to_string(node);
}

std::string instance_on_node(std::int32_t node, std::string_view kind, std::string_view id, std::int64_t object_gen) {
  return std::to_string(node) + '\0' + incarnation_key(object_key(kind, id), object_gen);
}

bool is_process_boundary(std::string_view kind) {
  return kind == kinds::kProcessStart || kind == kinds::kProcessKill || kind == kinds::kProcessCrash ||
         kind == kinds::kProcessExit;
}

}  // namespace

std::uint64_t ObjectMessagesChecker::node_run(std::int32_t node) const {
  auto it = _node_runs.find(node);
  return it == _node_runs.end() ? 0 : it->second;
}

std::optional<std::string> ObjectMessagesChecker::on_loss_event(const sim::TraceEvent& event) {
  if (event.kind == kinds::kObjectMessageSent) {
    on_sent(event);
  } else if (event.kind == kinds::kRelocationMessageMoved || event.kind == kinds::kRelocationWorkReturned) {
    return on_moved(event, event.kind == kinds::kRelocationWorkReturned);
  } else if (event.kind == kinds::kRelocationCancelled || event.kind == kinds::kRelocationFailed) {
    return on_cancelled(event);
  } else if (event.kind == kinds::kRelocationMessageLate) {
    const auto read = read_event<events::RelocationMessage>(event);
    if (!read.ok()) {
      return read.problem;
    }
    const events::RelocationMessage& late = read.event;
    _unordered.insert(object_message_key(
        object_stream_key(late.source_owner, late.source_lease_gen, late.stream, late.kind, late.id), late.seq));
  } else if (event.kind == kinds::kNetSend || event.kind == kinds::kNetPost) {
    on_wire(event);
  } else if (event.kind == kinds::kNetDrop) {
    if (const std::optional<std::int64_t> message = event.number("message")) {
      _on_wire.erase(*message);  // a fault (or a dead peer) lost it: allowed
    }
  } else if (event.kind == kinds::kNetDeliver) {
    on_delivered(event);
  } else if (is_process_boundary(event.kind)) {
    ++_node_runs[event.node];  // whatever that process had queued is gone with it: allowed
  } else if (event.kind == kinds::kObjectDeactivated) {
    const auto read = read_event<events::ObjectHosted>(event);
    if (!read.ok()) {
      return read.problem;
    }
    _deactivated[instance_on_node(event.node, read.event.kind, read.event.id, read.event.object_gen)] = event.index;
  } else if (event.kind == kinds::kObjectMessageRefused || event.kind == kinds::kObjectTurnRefused) {
    const auto read = read_event<events::ObjectRefused>(event);
    if (!read.ok()) {
      return read.problem;
    }
    const events::ObjectRefused& refused = read.event;
    if (refused.turn == "message") {
      const std::string stream = object_stream_key(refused.source_owner, refused.source_lease_gen, refused.stream,
                                                   refused.kind, refused.id);
      return resolve(event, stream, refused.seq, false);
    }
  }
  return std::nullopt;
}

// The sender's task sends the command right after this event: its next net.send carries it.
void ObjectMessagesChecker::on_sent(const sim::TraceEvent& event) {
  const auto read = read_event<events::ObjectMessageSent>(event);
  if (!read.ok()) {
    return;  // object.message_sent is judged nowhere else; a malformed one only loses its follow-up
  }
  const events::ObjectMessageSent& sent = read.event;
  _just_sent[{event.node, event.task}] = {
      InFlight{object_stream_key(sent.owner, sent.lease_gen, sent.stream, sent.kind, sent.id),
               std::string(sent.kind), std::string(sent.id), sent.seq, sent.object_gen, event.index, {}}};
}

// A moved message is accounted for where it was (it left unrun, like an answer) and, when it
// leaves for a target, followed there like a send: the next network message of this task carries it.
std::optional<std::string> ObjectMessagesChecker::on_moved(const sim::TraceEvent& event, bool returned) {
  const auto read = read_event<events::RelocationMessage>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const events::RelocationMessage& moved = read.event;
  const std::string stream =
      object_stream_key(moved.source_owner, moved.source_lease_gen, moved.stream, moved.kind, moved.id);
  std::optional<std::string> problem = resolve(event, stream, moved.seq, false);
  if (moved.via == "follow") {
    _unordered.insert(object_message_key(stream, moved.seq));  // it reached the previous owner after the move
  }
  if (!returned) {
    _just_sent[{event.node, event.task}].push_back(InFlight{stream, std::string(moved.kind), std::string(moved.id),
                                                            moved.seq, moved.object_gen, event.index,
                                                            std::string(moved.binding)});
  }
  return problem;
}

std::optional<std::string> ObjectMessagesChecker::on_cancelled(const sim::TraceEvent& event) {
  const auto read = read_event<events::RelocationProgress>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const std::string binding(read.event.binding);
  _cancelled.insert(binding);
  auto moved = _moved_deliveries.find(binding);
  if (moved != _moved_deliveries.end()) {
    for (const std::uint64_t delivery : moved->second) {
      forget_delivery(delivery);
    }
    _moved_deliveries.erase(moved);
  }
  return std::nullopt;
}

void ObjectMessagesChecker::forget_delivery(std::uint64_t delivery) {
  auto it = _delivered.find(delivery);
  if (it == _delivered.end()) {
    return;  // already accounted for
  }
  auto queue = _unresolved.find(queue_key(it->second.message.stream, it->second.node));
  if (queue != _unresolved.end()) {
    auto own = queue->second.find(it->second.message.seq);
    if (own != queue->second.end()) {
      std::erase(own->second, delivery);
      if (own->second.empty()) {
        queue->second.erase(own);
      }
    }
    if (queue->second.empty()) {
      _unresolved.erase(queue);
    }
  }
  _delivered.erase(it);
}

void ObjectMessagesChecker::on_wire(const sim::TraceEvent& event) {
  auto it = _just_sent.find({event.node, event.task});
  if (it == _just_sent.end()) {
    return;
  }
  if (const std::optional<std::int64_t> message = event.number("message")) {
    std::vector<InFlight>& carried = _on_wire[*message];
    for (InFlight& flight : it->second) {
      carried.push_back(std::move(flight));
    }
  }
  _just_sent.erase(it);
}

void ObjectMessagesChecker::on_delivered(const sim::TraceEvent& event) {
  const std::optional<std::int64_t> message = event.number("message");
  if (!message.has_value()) {
    return;
  }
  auto it = _on_wire.find(*message);
  if (it == _on_wire.end()) {
    return;
  }
  std::vector<InFlight> carried = std::move(it->second);
  _on_wire.erase(it);
  // One delivery event may carry several messages: each is its own delivery, keyed by the event's
  // index and its place in the carrier (_delivered holds them apart).
  for (std::size_t i = 0; i < carried.size(); ++i) {
    if (!carried[i].binding.empty() && _cancelled.count(carried[i].binding) != 0) {
      continue;  // its attempt was cancelled: the source runs it
    }
    const std::uint64_t delivery = delivery_id(event.index, i);
    if (!carried[i].binding.empty()) {
      _moved_deliveries[carried[i].binding].push_back(delivery);
    }
    _unresolved[queue_key(carried[i].stream, event.node)][carried[i].seq].push_back(delivery);
    _delivered.emplace(delivery, Delivered{std::move(carried[i]), event.node, node_run(event.node)});
  }
}

// Message `seq` of `stream` ran (`ran`) or was answered unrun on this event's node: its oldest
// delivery there is accounted for. A ran message's earlier deliveries of lower numbers in the same
// process must be accounted for too: the queue is FIFO.
std::optional<std::string> ObjectMessagesChecker::resolve(const sim::TraceEvent& event, const std::string& stream,
                                                          std::int64_t seq, bool ran) {
  auto queue = _unresolved.find(queue_key(stream, event.node));
  if (queue == _unresolved.end()) {
    return std::nullopt;
  }
  std::map<std::int64_t, std::vector<std::uint64_t>>& by_seq = queue->second;
  auto own = by_seq.find(seq);
  if (own == by_seq.end()) {
    return std::nullopt;  // its delivery was not seen (e.g. a copy the sender did not announce)
  }
  const std::uint64_t delivery = own->second.front();
  own->second.erase(own->second.begin());
  if (own->second.empty()) {
    by_seq.erase(own);
  }
  _delivered.erase(delivery);
  std::optional<std::string> problem;
  const std::uint64_t run = node_run(event.node);
  for (auto it = by_seq.begin(); ran && it != by_seq.end() && it->first < seq;) {
    for (const std::uint64_t earlier : it->second) {
      const Delivered& skipped = _delivered.at(earlier);
      if (!problem.has_value() && earlier < delivery && skipped.node_run == run) {
        problem = where(event) + " object.turn: message " + std::to_string(seq) + " to " +
                  describe_object(skipped.message.kind, skipped.message.id) + " ran, but message " +
                  std::to_string(skipped.message.seq) + " of the same sender stream (sent " +
                  cite(skipped.message.sent_event) +
                  ", delivered to this process " + cite(event_of(earlier)) +
                  ", before it) neither ran nor was answered: a FIFO queue lost it with no fault";
      }
      _delivered.erase(earlier);
    }
    it = by_seq.erase(it);
  }
  if (by_seq.empty()) {
    _unresolved.erase(queue);
  }
  return problem;
}

// A delivered message still neither run nor answered: lost if its instance was removed on that
// process after the delivery and the process lived on.
std::optional<std::string> ObjectMessagesChecker::finish(const RunEnd& end) {
  static_cast<void>(end);
  for (const auto& [delivery, delivered] : _delivered) {
    if (node_run(delivered.node) != delivered.node_run) {
      continue;
    }
    const InFlight& message = delivered.message;
    auto removed = _deactivated.find(instance_on_node(delivered.node, message.kind, message.id, message.object_gen));
    if (removed == _deactivated.end() || removed->second < event_of(delivery)) {
      continue;  // still hosted: it may still be queued
    }
    return "message " + std::to_string(message.seq) + " to " + describe_object(message.kind, message.id) +
           " ObjectGeneration " + std::to_string(message.object_gen) + " (sent " + cite(message.sent_event) +
           ", delivered to node " + std::to_string(delivered.node) + " " + cite(event_of(delivery)) +
           ") was neither run nor answered, and the instance was removed there " + cite(removed->second) +
           " with the process alive: a message lost with no fault (its sender waits out its deadline and never "
           "sends it to the ID's next instance)";
  }
  return std::nullopt;
}

}  // namespace spotcheck::properties

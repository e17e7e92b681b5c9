// Property `object-messages` (spec §5, §7.1, #13 "Per-object FIFO"): the regular messages one
// sender (one stream of sends of one host run, e.g. a client task) sends to one object run in the
// order it sent them, none twice, and never
// on an instance of another ObjectGeneration than the one they were sent to; and a send the
// sender reports `ran` did run.
//
// Judged from the object runtime's own events: object.turn (a message turn names its sender's
// host run and sequence number, the ObjectGeneration it was sent to and the instance's) and
// object.message_answered (the sender's account). Per (sender host run, kind, ID) the sequence
// numbers of the turns that ran strictly increase (per sender stream): a number again is a message run twice, a lower
// one a message run out of order.
//
// None lost unless a fault lost it (object_messages_loss.cpp): each object.message_sent is tied to
// the network message that carried it (the net.send its task made next) and followed to its
// net.drop (a fault lost it) or net.deliver. A delivered message must then run (object.turn) or be
// answered unrun by the owner (object.message_refused, object.turn_refused) — unless the receiving
// process died or restarted after the delivery. Two ways to lose one are judged: a later message
// of the same sender stream to the same object, delivered to the same process after it, ran while
// it had neither run nor been answered (the FIFO queue skipped it); or the instance it was for was
// removed on that process (object.deactivated) and, by the end of the run, it was still neither
// run nor answered (its sender waits out its deadline and never sends it to the next instance).
// A message still queued at the end of a run with its instance hosted is not lost.
//
// Online and linear: one entry per (sender host run, object) — its last sequence run — one per
// message that ran, until its sender's answer, and one per message between its send and its turn
// or answer.
#pragma once

#include <cstdint>
#include <optional>
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "properties/common/string_map.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

// The key of one sender stream's messages to one object: (sender host run, object, stream).
std::string object_stream_key(std::string_view owner, std::int64_t lease_gen, std::int64_t stream,
                              std::string_view kind, std::string_view id);

// The key of one message of one such stream: (stream key, sequence number).
std::string object_message_key(const std::string& stream, std::int64_t seq);

class ObjectMessagesChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "object-messages";

  explicit ObjectMessagesChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;
  std::optional<std::string> finish(const RunEnd& end) override;

 private:
  std::optional<std::string> on_turn(const sim::TraceEvent& event);
  std::optional<std::string> on_answered(const sim::TraceEvent& event);

  // object_messages_loss.cpp: where each message went after its send.
  std::optional<std::string> on_loss_event(const sim::TraceEvent& event);
  void on_sent(const sim::TraceEvent& event);
  // relocation.message_moved: the message leaves this node's queue for a target, with this task's
  // next net.send; relocation.work_returned: a target gives a moved message back unrun.
  std::optional<std::string> on_moved(const sim::TraceEvent& event, bool returned);
  // relocation.cancelled (the source runs the attempt's moved messages itself) and
  // relocation.failed (the target drops the attempt's payload and queues, §9.4, §10): wherever the
  // attempt's moved messages were delivered, the target's copy is accounted for — it never runs them.
  std::optional<std::string> on_cancelled(const sim::TraceEvent& event);
  void forget_delivery(std::uint64_t delivery);
  // A delivery's id: the delivery event's index and the message's place among those it carried.
  static constexpr std::uint64_t kCarriedMax = 4'096;
  static std::uint64_t delivery_id(std::uint64_t event_index, std::size_t place) {
    return event_index * kCarriedMax + std::min<std::uint64_t>(place, kCarriedMax - 1);
  }
  static std::uint64_t event_of(std::uint64_t delivery) { return delivery / kCarriedMax; }
  void on_wire(const sim::TraceEvent& event);
  void on_delivered(const sim::TraceEvent& event);
  std::optional<std::string> resolve(const sim::TraceEvent& event, const std::string& stream, std::int64_t seq,
                                     bool ran);

  struct InFlight {
    std::string stream;  // object_stream_key(): (sender host run, object, sender stream)
    std::string kind;
    std::string id;
    std::int64_t seq = 0;
    std::int64_t object_gen = 0;
    std::uint64_t sent_event = 0;
    std::string binding;  // a moved message: the relocation attempt that carries it
  };
  struct Delivered {
    InFlight message;
    std::int32_t node = 0;
    std::uint64_t node_run = 0;  // _node_runs[node] at the delivery
  };
  std::uint64_t node_run(std::int32_t node) const;

  // (node, task) -> the messages its next net.send carries (a send's one; a relocation's saved
  // work rides on its Restore request: several)
  std::map<std::pair<std::int32_t, std::uint64_t>, std::vector<InFlight>> _just_sent;
  std::map<std::int64_t, std::vector<InFlight>> _on_wire;  // network message -> the messages it carries
  std::map<std::uint64_t, Delivered> _delivered;  // delivery event -> a delivered message not yet run or answered
  // (stream, node) -> seq -> its unresolved deliveries (events), oldest first
  StringMap<std::map<std::int64_t, std::vector<std::uint64_t>>> _unresolved;
  std::map<std::int32_t, std::uint64_t> _node_runs;  // node -> process starts and ends seen
  StringMap<std::vector<std::uint64_t>> _moved_deliveries;  // relocation binding -> its moved messages' deliveries
  StringSet _cancelled;                                    // relocation bindings the source cancelled
  StringMap<std::uint64_t> _deactivated;             // (node, object, ObjectGeneration) -> last object.deactivated

  struct LastRun {
    std::int64_t seq = 0;
    std::uint64_t event = 0;
  };
  StringMap<LastRun> _last_run;  // (sender host run, kind, id) -> the last message turn of it
  StringSet _ran;                // (sender host run, kind, id, seq) that ran
  // (stream, seq) of messages whose order the spec does not keep: forwarded by Message Follow
  // (they reached the previous owner after the move, §7.3) or relayed late (relocation.message_late).
  StringSet _unordered;
};

}  // namespace spotcheck::properties

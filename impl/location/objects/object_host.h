// The object runtime of one host run (spec §5, §7.1): the Ready Actors and Spots this host run
// owns, each an instance with one FIFO queue that runs one application turn at a time, and its
// timers.
//
//   activate(hosted)      the creation target's factory approved the object: its instance exists,
//                         dispatch closed (messages that arrive are queued, none runs)
//   open(key, gen)        Ready is recorded: dispatch opens and the queue runs in order
//   hold(key, gen)        Closing: the owner is about to remove the row; no turn starts from now
//                         on (one running may finish) until every hold is released
//   release(key, gen)     that removal failed and the row is still this instance's: one hold less
//   deactivate(key, gen)  its row was removed (or not made Ready): queued messages are answered
//                         not_here, unrun
//   handle(from, 52)      the dispatcher's handler for a regular message: answered at once when
//                         no instance of that ObjectGeneration is hosted here (not_here /
//                         stale_generation, §7.1: a message never runs on an instance of another
//                         generation), else queued
//
// Relocation (§1.3, §9.2, §9.4; relocation/relocation_runtime.h drives these):
//   begin_move(key, gen)  the source's ingress hold: no turn starts from now on (the running one
//                         finishes); messages that arrive keep queueing, none is answered
//   turn_running(key)     whether a turn of the instance still runs (capture waits for it)
//   take_queued(key, gen) the queued messages, in order, removed: the saved work at capture, the
//                         ingress hold at the relay
//   take_timers(key, gen) the timer callbacks, removed: those due and queued (in queue order), then
//                         the pending ones by due time, each with its identity and time left
//   end_move(key, gen)    handed over: the instance goes with its queue empty; what arrives for it
//                         now is the forwarder's (Message Follow, §7.3)
//   cancel_move(key, gen, work, timers)  §9.4: `work` back at the front of the queue in its order,
//                         the timers re-armed, then dispatch as before
//   activate_moved(hosted, work, timers)  the target's CAS applied: the instance is hosted with
//                         `work` (saved work, pre-cutover relay, temporary work, in that order)
//                         queued, the moved timers armed, and dispatch open, in one step (§9.2)
//
// Each turn — a message or a timer callback — starts only if admission (§5) lets it: past the
// local admission deadline, or with the lease lost, the turn does not start (object.turn_refused;
// a message is answered not_admitted and never runs). A turn that started may finish: the
// handler makes no store change. A message is answered (command 53) after its turn, once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "impl/location/lease/owner_lease.h"
#include "impl/location/messaging/dispatcher.h"
#include "impl/location/objects/object_behaviors.h"
#include "impl/location/objects/object_key.h"
#include "impl/planted/planted_bugs.h"
#include "impl/platform/platform.h"

namespace spotcheck::location::objects {

struct HostedObject {
  ObjectKey key;
  std::uint64_t object_generation = 0;
  std::uint64_t owner_generation = 0;  // AuthorityOwnerGeneration of the row that made it Ready
  std::string stable_type;
};

// Where an instance's Sends go (ObjectClient::post / end_stream, wired by the node).
struct Outbox {
  std::function<bool(const ObjectKey& to, std::string payload, std::uint64_t stream)> post;
  std::function<void(std::uint64_t stream)> end_stream;
};

// A message queued on an instance: the connection its answer goes to, and its command.
struct QueuedMessage {
  platform::RoutingId from = 0;
  messaging::ObjectMessage message;
};

// A timer callback's identity (spec §1.3: a relocation moves the not-yet-executed timers): the host
// run that started it, its timer stream (the starting instance's incarnation) and its number there.
// A moved timer keeps it, so it runs once wherever the object is.
struct TimerId {
  std::string owner_id;
  std::uint64_t lease_generation = 0;
  std::uint64_t stream = 0;
  std::uint64_t number = 0;

  friend bool operator==(const TimerId&, const TimerId&) = default;
};

// A timer taken out of an instance by a relocation's capture: due `remaining_us` after the capture
// (0: it was due already and waited in the queue), re-armed that long after it is put back.
struct MovedTimer {
  TimerId id;
  platform::TimeUs remaining_us = 0;
  std::string payload;

  friend bool operator==(const MovedTimer&, const MovedTimer&) = default;
};

// Gets a message sent to this host run as the owner of an object it no longer hosts; true when
// it took the message (forwarded it, §7.3), false to answer not_here.
using Forwarder = std::function<bool(platform::RoutingId from, const messaging::ObjectMessage& message)>;

struct ObjectHostConfig {
  std::size_t instances_max = 100'000;  // hosted at once; past it a new activation is refused
  std::size_t queue_max = 1'024;        // queued turns per instance; past it: not_admitted
  std::size_t timers_max = 16;          // pending timers per instance
  planted::PlantedBugs planted_bugs;    // kDropQueueOnDeactivate is read here; empty in production
};

class ObjectHost {
 public:
  ObjectHost(platform::Platform& platform, OwnerLease& lease,
             messaging::Dispatcher& dispatcher, const ObjectBehaviors& behaviors, ObjectHostConfig limits = {});
  ObjectHost(const ObjectHost&) = delete;
  ObjectHost& operator=(const ObjectHost&) = delete;

  void activate(const HostedObject& hosted);
  void open(const ObjectKey& key, std::uint64_t object_generation);
  bool hold(const ObjectKey& key, std::uint64_t object_generation);  // false: no such instance
  void release(const ObjectKey& key, std::uint64_t object_generation);
  void deactivate(const ObjectKey& key, std::uint64_t object_generation);
  // Every hosted instance, as deactivate() does each (a host run shutting down, §11).
  void deactivate_all();
  void handle(platform::RoutingId from, messaging::ObjectMessage message);

  // A message that followed the object here (a relay or Message Follow, §7.3): queued on the
  // instance of its ObjectGeneration like handle() does, though it names the previous owner;
  // answered to `reply_to`.
  void handle_followed(platform::RoutingId reply_to, messaging::ObjectMessage message);

  bool begin_move(const ObjectKey& key, std::uint64_t object_generation);
  bool turn_running(const ObjectKey& key) const;
  std::vector<QueuedMessage> take_queued(const ObjectKey& key, std::uint64_t object_generation);
  std::vector<MovedTimer> take_timers(const ObjectKey& key, std::uint64_t object_generation);
  void end_move(const ObjectKey& key, std::uint64_t object_generation);
  void cancel_move(const ObjectKey& key, std::uint64_t object_generation, std::vector<QueuedMessage> work,
                   std::vector<MovedTimer> timers);
  // False when it could not host it (no room): `work` is answered not_here then, unrun.
  bool activate_moved(const HostedObject& hosted, std::vector<QueuedMessage> work, std::vector<MovedTimer> timers);
  // A message this host run will never run (a moved one whose attempt ended): answered not_here.
  void refuse_unrun(platform::RoutingId from, const messaging::ObjectMessage& message);
  void set_forwarder(Forwarder forwarder) { _forwarder = std::move(forwarder); }
  const ObjectBehaviors& behaviors() const { return _behaviors; }

  void set_outbox(Outbox outbox) { _outbox = std::move(outbox); }

  bool hosts(const ObjectKey& key) const { return _instances.count(key) != 0; }
  // The sender stream of an instance's Sends: one per incarnation, apart from client streams.
  static std::uint64_t post_stream(std::uint64_t incarnation) { return kPostStreamBase + incarnation; }
  std::size_t hosted() const { return _instances.size(); }

 private:
  struct Turn {
    bool timer = false;
    std::uint64_t seq = 0;  // message: the sender's number; timer: the timer's
    std::string payload;
    platform::RoutingId from = 0;
    messaging::ObjectMessage message;  // a message turn's command (for its reply)
    TimerId timer_id;                  // a timer turn's identity
  };
  // A timer armed on an instance, by its slot (this host run's number for it).
  struct PendingTimer {
    TimerId id;
    platform::TimeUs due_us = 0;
    std::string payload;
  };
  struct Instance {
    HostedObject hosted;
    std::uint64_t incarnation = 0;  // unique in this host run: a timer of a removed instance finds none
    std::deque<Turn> queue;
    bool ready = false;     // the host knows the row is Ready: turns may run
    std::uint32_t holds = 0;  // removals of the row in flight (Closing): no turn starts while any is
    bool running = false;
    std::map<std::uint64_t, PendingTimer> timers;  // armed, by slot; a slot gone is a timer taken
    std::uint64_t timer_slots = 0;
    bool posted = false;  // a handler Sent from it: its stream has a number to forget
    bool moving = false;  // a relocation's ingress hold: no turn starts
    bool dispatching() const { return ready && holds == 0 && !moving; }
  };
  static constexpr std::uint32_t kHoldsMax = 1'024;
  static constexpr std::uint64_t kPostStreamBase = std::uint64_t{1} << 48;
  class Context;

  // A message's turn, answered to `from`.
  static Turn message_turn(platform::RoutingId from, messaging::ObjectMessage message);
  Instance* find(const ObjectKey& key, std::uint64_t incarnation);
  void schedule(const ObjectKey& key);
  void drain(const ObjectKey& key, std::uint64_t incarnation);
  void run_turn(const ObjectKey& key, std::uint64_t incarnation, Turn turn);
  bool start_timer(const ObjectKey& key, std::uint64_t incarnation, platform::TimeUs after_us, std::string payload);
  // Arms `timer` on the instance `after_us` from now, in a new slot.
  void arm(Instance& instance, TimerId id, platform::TimeUs after_us, std::string payload);
  // A move's timers armed on the instance that takes them, each for the time it had left.
  void arm_moved(Instance& instance, std::vector<MovedTimer> timers);
  // A move's work and timers that no instance here will take: answered and refused, unrun.
  void refuse_moved(const ObjectKey& key, std::uint64_t object_generation, const std::vector<QueuedMessage>& work,
                    const std::vector<MovedTimer>& timers);
  bool post(const ObjectKey& key, std::uint64_t incarnation, const ObjectKey& to, std::string payload);
  void timer_due(const ObjectKey& key, std::uint64_t incarnation, std::uint64_t slot);
  void refuse_timer(const ObjectKey& key, std::uint64_t object_generation, const TimerId& id);
  void enqueue(Instance& instance, platform::RoutingId from, messaging::ObjectMessage message);
  void refuse(platform::RoutingId from, const messaging::ObjectMessage& message, messaging::MessageOutcome outcome,
              std::string_view event_kind);
  void answer(platform::RoutingId to, const messaging::ObjectMessage& message, messaging::MessageOutcome outcome,
              std::string reply);
  void emit_hosted(std::string_view kind, const HostedObject& hosted, std::string_view reason);

  platform::Platform& _platform;
  OwnerLease& _lease;
  messaging::Dispatcher& _dispatcher;
  const ObjectBehaviors& _behaviors;
  ObjectHostConfig _limits;
  std::map<ObjectKey, Instance> _instances;  // ordered: nothing depends on hash order
  std::uint64_t _next_incarnation = 1;
  Outbox _outbox;
  Forwarder _forwarder;
};

}  // namespace spotcheck::location::objects

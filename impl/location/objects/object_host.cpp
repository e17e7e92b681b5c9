#include "impl/location/objects/object_host.h"

#include <algorithm>
#include <utility>

#include "impl/check/check.h"
#include "impl/location/events/object_events.h"
#include "impl/platform/event_kinds.h"
#include "impl/platform/marks.h"

namespace spotcheck::location::objects {

using messaging::MessageOutcome;
using platform::as_i64;

namespace {

constexpr std::string_view kMessageTurn = "message";
constexpr std::string_view kTimerTurn = "timer";

}  // namespace

// The handler's view of one instance during one turn: it holds the instance's key and
// incarnation, never a reference into the map (the instance may go while the handler blocks).
class ObjectHost::Context final : public TurnContext {
 public:
  Context(ObjectHost& host, ObjectKey key, std::uint64_t incarnation, std::uint64_t object_generation)
      : _host(host), _key(std::move(key)), _incarnation(incarnation), _object_generation(object_generation) {}
  const ObjectKey& key() const override { return _key; }
  std::uint64_t object_generation() const override { return _object_generation; }
  bool start_timer(platform::TimeUs after_us, std::string payload) override {
    return _host.start_timer(_key, _incarnation, after_us, std::move(payload));
  }
  bool post(const ObjectKey& to, std::string payload) override {
    return _host.post(_key, _incarnation, to, std::move(payload));
  }

 private:
  ObjectHost& _host;
  ObjectKey _key;
  std::uint64_t _incarnation;
  std::uint64_t _object_generation;
};

ObjectHost::ObjectHost(platform::Platform& platform, OwnerLease& lease,
                       messaging::Dispatcher& dispatcher, const ObjectBehaviors& behaviors, ObjectHostConfig limits)
    : _platform(platform),
      _lease(lease),
      _dispatcher(dispatcher),
      _behaviors(behaviors),
      _limits(limits) {
  SPOTCHECK_ASSERT(_limits.instances_max > 0 && _limits.queue_max > 0);
}

void ObjectHost::activate(const HostedObject& hosted) {
  SPOTCHECK_ASSERT(hosted.object_generation > 0 && hosted.owner_generation > 0);
  SPOTCHECK_ASSERT(!hosted.key.id.empty());
  auto it = _instances.find(hosted.key);
  if (it != _instances.end()) {
    if (it->second.hosted.object_generation >= hosted.object_generation) {
      // The same incarnation again, or an older one whose factory returned late: its row was
      // cancelled for the newer one hosted here, so its own Commit cannot apply.
      return;
    }
    // A newer generation replaces an older one the row no longer names (§7.1).
    deactivate(hosted.key, it->second.hosted.object_generation);
  }
  if (_instances.size() >= _limits.instances_max) {
    emit_hosted(kinds::kObjectDeactivated, hosted, "instances_max");
    return;
  }
  Instance instance;
  instance.hosted = hosted;
  instance.incarnation = _next_incarnation++;
  _instances.emplace(hosted.key, std::move(instance));
  emit_hosted(kinds::kObjectActivated, hosted, "created");
}

void ObjectHost::open(const ObjectKey& key, std::uint64_t object_generation) {
  auto it = _instances.find(key);
  if (it == _instances.end() || it->second.hosted.object_generation != object_generation || it->second.ready) {
    return;
  }
  it->second.ready = true;
  schedule(key);
}

// Holds are counted: two removals of one instance may run at once (two Closes of the ID reach its
// owner), and one that failed must not reopen dispatch while the other's Delete is in flight.
bool ObjectHost::hold(const ObjectKey& key, std::uint64_t object_generation) {
  auto it = _instances.find(key);
  if (it == _instances.end() || it->second.hosted.object_generation != object_generation) {
    return false;
  }
  SPOTCHECK_ASSERT(it->second.holds < kHoldsMax);
  ++it->second.holds;
  return true;
}

void ObjectHost::release(const ObjectKey& key, std::uint64_t object_generation) {
  auto it = _instances.find(key);
  if (it == _instances.end() || it->second.hosted.object_generation != object_generation) {
    return;  // removed meanwhile: its holds went with it
  }
  SPOTCHECK_ASSERT(it->second.holds > 0);
  --it->second.holds;
  schedule(key);
}

void ObjectHost::deactivate(const ObjectKey& key, std::uint64_t object_generation) {
  auto it = _instances.find(key);
  if (it == _instances.end() || it->second.hosted.object_generation != object_generation) {
    return;
  }
  Instance gone = std::move(it->second);
  _instances.erase(it);
  emit_hosted(kinds::kObjectDeactivated, gone.hosted, "removed");
  if (gone.posted && _outbox.end_stream) {
    _outbox.end_stream(post_stream(gone.incarnation));  // no Send of it is numbered again
  }
  if (SPOTCHECK_PLANTED(_limits.planted_bugs, kDropQueueOnDeactivate)) {
    return;  // planted bug: the queued messages go unanswered
  }
  for (const Turn& turn : gone.queue) {
    if (!turn.timer) {
      refuse(turn.from, turn.message, MessageOutcome::kNotHere, kinds::kObjectTurnRefused);
    }
  }
}

void ObjectHost::deactivate_all() {
  while (!_instances.empty()) {
    const auto first = _instances.begin();
    deactivate(first->first, first->second.hosted.object_generation);
  }
}

void ObjectHost::handle(platform::RoutingId from, messaging::ObjectMessage message) {
  const ObjectKey key{message.kind, message.id};
  auto it = _instances.find(key);
  const HostRun& self = _lease.host_run();
  const bool to_self =
      message.target.owner_id == self.owner_id && message.target.lease_generation == self.lease_generation;
  if (it == _instances.end() && to_self && _forwarder && _forwarder(from, message)) {
    return;  // it moved on: Message Follow took it (§7.3)
  }
  if (it == _instances.end() || !to_self) {
    refuse(from, message, MessageOutcome::kNotHere, kinds::kObjectMessageRefused);
    return;
  }
  Instance& instance = it->second;
  if (instance.hosted.object_generation != message.object_generation) {
    refuse(from, message, MessageOutcome::kStaleGeneration, kinds::kObjectMessageRefused);
    return;
  }
  enqueue(instance, from, std::move(message));
}

void ObjectHost::handle_followed(platform::RoutingId reply_to, messaging::ObjectMessage message) {
  auto it = _instances.find(ObjectKey{message.kind, message.id});
  if (it == _instances.end()) {
    refuse(reply_to, message, MessageOutcome::kNotHere, kinds::kObjectMessageRefused);
    return;
  }
  if (it->second.hosted.object_generation != message.object_generation) {
    refuse(reply_to, message, MessageOutcome::kStaleGeneration, kinds::kObjectMessageRefused);
    return;
  }
  enqueue(it->second, reply_to, std::move(message));
}

void ObjectHost::enqueue(Instance& instance, platform::RoutingId from, messaging::ObjectMessage message) {
  if (_behaviors.find(instance.hosted.key.kind, instance.hosted.stable_type) == nullptr) {
    refuse(from, message, MessageOutcome::kNoHandler, kinds::kObjectMessageRefused);
    return;
  }
  if (instance.queue.size() >= _limits.queue_max) {
    refuse(from, message, MessageOutcome::kNotAdmitted, kinds::kObjectMessageRefused);
    return;
  }
  instance.queue.push_back(message_turn(from, std::move(message)));
  schedule(instance.hosted.key);
}

bool ObjectHost::begin_move(const ObjectKey& key, std::uint64_t object_generation) {
  auto it = _instances.find(key);
  if (it == _instances.end() || it->second.hosted.object_generation != object_generation ||
      !it->second.ready || it->second.moving || it->second.holds > 0) {
    return false;  // not Ready here, already moving, or being removed
  }
  it->second.moving = true;
  return true;
}

bool ObjectHost::turn_running(const ObjectKey& key) const {
  auto it = _instances.find(key);
  return it != _instances.end() && it->second.running;
}

std::vector<QueuedMessage> ObjectHost::take_queued(const ObjectKey& key, std::uint64_t object_generation) {
  std::vector<QueuedMessage> taken;
  auto it = _instances.find(key);
  if (it == _instances.end() || it->second.hosted.object_generation != object_generation || !it->second.moving) {
    return taken;  // only a held instance's queue leaves it (a newer incarnation replaced it: not this)
  }
  std::deque<Turn> timers;  // due timer callbacks stay queued: take_timers() takes them
  for (Turn& turn : it->second.queue) {
    if (turn.timer) {
      timers.push_back(std::move(turn));
    } else {
      taken.push_back(QueuedMessage{turn.from, std::move(turn.message)});
    }
  }
  it->second.queue = std::move(timers);
  return taken;
}

std::vector<MovedTimer> ObjectHost::take_timers(const ObjectKey& key, std::uint64_t object_generation) {
  std::vector<MovedTimer> taken;
  auto it = _instances.find(key);
  if (it == _instances.end() || it->second.hosted.object_generation != object_generation || !it->second.moving) {
    return taken;
  }
  Instance& instance = it->second;
  std::deque<Turn> messages;
  for (Turn& turn : instance.queue) {
    if (turn.timer) {
      taken.push_back(MovedTimer{std::move(turn.timer_id), 0, std::move(turn.payload)});
    } else {
      messages.push_back(std::move(turn));
    }
  }
  instance.queue = std::move(messages);
  std::vector<std::pair<platform::TimeUs, std::uint64_t>> by_due;  // (due, slot): deterministic order
  for (const auto& [slot, pending] : instance.timers) {
    by_due.emplace_back(pending.due_us, slot);
  }
  std::sort(by_due.begin(), by_due.end());
  const platform::TimeUs now = _platform.clock.now_us();
  for (const auto& [due_us, slot] : by_due) {
    PendingTimer& pending = instance.timers.at(slot);
    taken.push_back(MovedTimer{std::move(pending.id), std::max<platform::TimeUs>(0, due_us - now),
                               std::move(pending.payload)});
  }
  instance.timers.clear();  // their tasks find no slot: the timers left with the capture
  return taken;
}

void ObjectHost::end_move(const ObjectKey& key, std::uint64_t object_generation) {
  auto it = _instances.find(key);
  if (it == _instances.end() || it->second.hosted.object_generation != object_generation || !it->second.moving) {
    return;  // gone, or replaced by a newer incarnation hosted here since
  }
  SPOTCHECK_ASSERT(std::none_of(it->second.queue.begin(), it->second.queue.end(),
                               [](const Turn& turn) { return !turn.timer; }));  // the relay took the ingress hold
  Instance gone = std::move(it->second);
  _instances.erase(it);
  emit_hosted(kinds::kObjectDeactivated, gone.hosted, "moved");
  // The capture took the timers; one started by a turn that outlived the capture's wait goes here.
  for (const Turn& turn : gone.queue) {
    refuse_timer(key, object_generation, turn.timer_id);
  }
  for (const auto& [slot, pending] : gone.timers) {
    refuse_timer(key, object_generation, pending.id);
  }
  if (gone.posted && _outbox.end_stream) {
    _outbox.end_stream(post_stream(gone.incarnation));
  }
}

void ObjectHost::cancel_move(const ObjectKey& key, std::uint64_t object_generation, std::vector<QueuedMessage> work,
                             std::vector<MovedTimer> timers) {
  auto it = _instances.find(key);
  if (it == _instances.end() || it->second.hosted.object_generation != object_generation || !it->second.moving) {
    refuse_moved(key, object_generation, work, timers);
    return;
  }
  Instance& instance = it->second;
  for (auto back = work.rbegin(); back != work.rend(); ++back) {
    instance.queue.push_front(message_turn(back->from, std::move(back->message)));
  }
  arm_moved(instance, std::move(timers));
  instance.moving = false;
  schedule(key);
}

bool ObjectHost::activate_moved(const HostedObject& hosted, std::vector<QueuedMessage> work,
                                std::vector<MovedTimer> timers) {
  if (auto stale = _instances.find(hosted.key); stale != _instances.end()) {
    // An instance this host run kept from an earlier owner epoch: the row names the move's epoch now.
    deactivate(hosted.key, stale->second.hosted.object_generation);
  }
  activate(hosted);
  auto it = _instances.find(hosted.key);
  if (it == _instances.end() || it->second.hosted.object_generation != hosted.object_generation) {
    refuse_moved(hosted.key, hosted.object_generation, work, timers);
    return false;
  }
  for (QueuedMessage& queued : work) {
    it->second.queue.push_back(message_turn(queued.from, std::move(queued.message)));
  }
  arm_moved(it->second, std::move(timers));
  open(hosted.key, hosted.object_generation);
  return true;
}

void ObjectHost::refuse_unrun(platform::RoutingId from, const messaging::ObjectMessage& message) {
  refuse(from, message, MessageOutcome::kNotHere, kinds::kObjectTurnRefused);
}

ObjectHost::Turn ObjectHost::message_turn(platform::RoutingId from, messaging::ObjectMessage message) {
  Turn turn;
  turn.seq = message.sequence;
  turn.payload = message.payload;
  turn.from = from;
  turn.message = std::move(message);
  return turn;
}

ObjectHost::Instance* ObjectHost::find(const ObjectKey& key, std::uint64_t incarnation) {
  auto it = _instances.find(key);
  return it == _instances.end() || it->second.incarnation != incarnation ? nullptr : &it->second;
}

// One task per instance drains its queue, one turn at a time (FIFO).
void ObjectHost::schedule(const ObjectKey& key) {
  Instance& instance = _instances.at(key);
  if (!instance.dispatching() || instance.running || instance.queue.empty()) {
    return;
  }
  instance.running = true;
  const std::uint64_t incarnation = instance.incarnation;
  _platform.tasks.spawn("object-turns", [this, key, incarnation] { drain(key, incarnation); });
}

void ObjectHost::drain(const ObjectKey& key, std::uint64_t incarnation) {
  for (;;) {
    Instance* instance = find(key, incarnation);
    if (instance == nullptr) {
      return;  // removed while a turn ran: its queue was answered by deactivate()
    }
    if (instance->queue.empty() || !instance->dispatching()) {
      instance->running = false;  // drained, or held (Closing): open() / release() start a new drain
      return;
    }
    Turn turn = std::move(instance->queue.front());
    instance->queue.pop_front();
    run_turn(key, incarnation, std::move(turn));
  }
}

void ObjectHost::run_turn(const ObjectKey& key, std::uint64_t incarnation, Turn turn) {
  const HostedObject hosted = find(key, incarnation)->hosted;
  const HostRun& self = _lease.host_run();
  const std::string_view turn_kind = turn.timer ? kTimerTurn : kMessageTurn;
  // §5: starting a message or a timer callback is new work.
  if (Result<Done> admitted = _lease.admit(turn.timer ? "object_timer" : "object_message"); !admitted.ok()) {
    platform::sometimes(_platform.events, platform::Mark::kTurnRefusedAdmission);
    if (turn.timer) {
      refuse_timer(key, hosted.object_generation, turn.timer_id);
    } else {
      refuse(turn.from, turn.message, MessageOutcome::kNotAdmitted, kinds::kObjectTurnRefused);
    }
    return;
  }
  SPOTCHECK_ASSERT(turn.timer || turn.message.object_generation == hosted.object_generation);
  if (turn.timer) {
    platform::sometimes(_platform.events, platform::Mark::kTimerFired);
  } else if (turn.message.request == 0) {
    platform::sometimes(_platform.events, platform::Mark::kSendRan);
  }
  platform::emit_event(
      _platform.events, kinds::kObjectTurn,
      events::ObjectTurn{records::to_string(key.kind), key.id, as_i64(hosted.object_generation),
                         as_i64(hosted.owner_generation), turn_kind,
                         turn.timer ? turn.timer_id.owner_id : turn.message.source.owner_id,
                         as_i64(turn.timer ? turn.timer_id.lease_generation : turn.message.source.lease_generation),
                         as_i64(turn.timer ? turn.timer_id.stream : turn.message.stream), as_i64(turn.seq),
                         turn.timer ? 0 : as_i64(turn.message.object_generation),
                         turn.timer ? std::string() : turn.message.op_id.hex(), self.owner_id,
                         as_i64(self.lease_generation), _platform.clock.now_us(), _lease.admission_deadline_us()});
  const MessageHandler* handler = _behaviors.find(key.kind, hosted.stable_type);
  std::string reply;
  if (handler != nullptr) {
    Context context(*this, key, incarnation, hosted.object_generation);
    reply = (*handler)(context, TurnInput{turn.timer, turn.payload});
  }
  if (!turn.timer) {
    answer(turn.from, turn.message, handler != nullptr ? MessageOutcome::kRan : MessageOutcome::kNoHandler,
           std::move(reply));
  }
}

bool ObjectHost::post(const ObjectKey& key, std::uint64_t incarnation, const ObjectKey& to, std::string payload) {
  Instance* instance = find(key, incarnation);
  if (instance == nullptr || !_outbox.post) {
    return false;  // gone while its handler ran: its stream is ended, nothing more is numbered in it
  }
  instance->posted = true;
  return _outbox.post(to, std::move(payload), post_stream(incarnation));
}

bool ObjectHost::start_timer(const ObjectKey& key, std::uint64_t incarnation, platform::TimeUs after_us,
                             std::string payload) {
  Instance* instance = find(key, incarnation);
  if (instance == nullptr || instance->timers.size() >= _limits.timers_max) {
    return false;
  }
  SPOTCHECK_ASSERT(after_us >= 0);
  const HostRun& self = _lease.host_run();
  // Its identity: this host run, this incarnation's timer stream, the next number in it.
  TimerId id{self.owner_id, self.lease_generation, incarnation, instance->timer_slots + 1};
  platform::emit_event(_platform.events, kinds::kObjectTimerStarted,
                       events::ObjectTimerStarted{records::to_string(key.kind), key.id,
                                                  as_i64(instance->hosted.object_generation), id.owner_id,
                                                  as_i64(id.lease_generation), as_i64(id.stream), as_i64(id.number),
                                                  after_us, self.owner_id, as_i64(self.lease_generation)});
  arm(*instance, std::move(id), after_us, std::move(payload));
  return true;
}

void ObjectHost::arm(Instance& instance, TimerId id, platform::TimeUs after_us, std::string payload) {
  SPOTCHECK_ASSERT(after_us >= 0 && id.number > 0);
  const std::uint64_t slot = ++instance.timer_slots;
  const platform::TimeUs due_us = _platform.clock.now_us() + after_us;
  instance.timers.emplace(slot, PendingTimer{std::move(id), due_us, std::move(payload)});
  const ObjectKey key = instance.hosted.key;
  const std::uint64_t incarnation = instance.incarnation;
  _platform.tasks.spawn("object-timer", [this, key, incarnation, slot, due_us] {
    _platform.clock.sleep_until(due_us);
    timer_due(key, incarnation, slot);
  });
}

void ObjectHost::arm_moved(Instance& instance, std::vector<MovedTimer> timers) {
  for (MovedTimer& timer : timers) {
    arm(instance, std::move(timer.id), timer.remaining_us, std::move(timer.payload));
  }
}

void ObjectHost::refuse_moved(const ObjectKey& key, std::uint64_t object_generation,
                              const std::vector<QueuedMessage>& work, const std::vector<MovedTimer>& timers) {
  for (const QueuedMessage& queued : work) {
    refuse_unrun(queued.from, queued.message);
  }
  for (const MovedTimer& timer : timers) {
    refuse_timer(key, object_generation, timer.id);
  }
}

void ObjectHost::timer_due(const ObjectKey& key, std::uint64_t incarnation, std::uint64_t slot) {
  Instance* instance = find(key, incarnation);
  if (instance == nullptr) {
    return;  // the instance went: its timers die with it
  }
  auto pending = instance->timers.find(slot);
  if (pending == instance->timers.end()) {
    return;  // taken by a relocation's capture (it runs where the object goes, or back here re-armed)
  }
  Turn turn;
  turn.timer = true;
  turn.timer_id = std::move(pending->second.id);
  turn.seq = turn.timer_id.number;
  turn.payload = std::move(pending->second.payload);
  instance->timers.erase(pending);
  if (instance->queue.size() >= _limits.queue_max) {
    refuse_timer(key, instance->hosted.object_generation, turn.timer_id);  // no room: it never runs
    return;
  }
  instance->queue.push_back(std::move(turn));
  schedule(key);
}

// A timer callback that will never run here: refused admission, no room in the queue, or its moved
// instance could not be hosted.
void ObjectHost::refuse_timer(const ObjectKey& key, std::uint64_t object_generation, const TimerId& id) {
  const HostRun& self = _lease.host_run();
  platform::emit_event(_platform.events, kinds::kObjectTurnRefused,
                       events::ObjectRefused{records::to_string(key.kind), key.id, as_i64(object_generation),
                                             kTimerTurn, id.owner_id, as_i64(id.lease_generation),
                                             as_i64(id.stream), as_i64(id.number),
                                             messaging::to_string(MessageOutcome::kNotAdmitted), self.owner_id,
                                             as_i64(self.lease_generation)});
}

void ObjectHost::refuse(platform::RoutingId from, const messaging::ObjectMessage& message, MessageOutcome outcome,
                        std::string_view event_kind) {
  SPOTCHECK_ASSERT(outcome != MessageOutcome::kRan);
  const HostRun& self = _lease.host_run();
  platform::emit_event(_platform.events, event_kind,
                       events::ObjectRefused{records::to_string(message.kind), message.id,
                                             as_i64(message.object_generation), kMessageTurn, message.source.owner_id,
                                             as_i64(message.source.lease_generation), as_i64(message.stream),
                                             as_i64(message.sequence), messaging::to_string(outcome), self.owner_id,
                                             as_i64(self.lease_generation)});
  answer(from, message, outcome, {});
}

void ObjectHost::answer(platform::RoutingId to, const messaging::ObjectMessage& message, MessageOutcome outcome,
                        std::string reply) {
  if (message.request == 0) {
    return;  // a Send: no reply route (spec §9.3)
  }
  _dispatcher.send(to, messaging::Command{messaging::ObjectMessageReply{message.request, message.op_id, outcome,
                                                                        std::move(reply)}});
}

void ObjectHost::emit_hosted(std::string_view kind, const HostedObject& hosted, std::string_view reason) {
  const HostRun& self = _lease.host_run();
  platform::emit_event(_platform.events, kind,
                       events::ObjectHosted{records::to_string(hosted.key.kind), hosted.key.id,
                                            as_i64(hosted.object_generation), as_i64(hosted.owner_generation),
                                            hosted.stable_type, self.owner_id, as_i64(self.lease_generation), reason});
}

}  // namespace spotcheck::location::objects

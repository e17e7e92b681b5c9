#include "impl/location/messaging/dispatcher.h"

#include <string>
#include <utility>
#include <variant>

#include "impl/check/check.h"
#include "impl/location/events/messaging_events.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"

namespace spotcheck::location::messaging {


namespace {

// What a reply names for messaging.late_reply: its request, operation and outcome.
struct ReplyView {
  std::uint64_t request = 0;
  OperationId op;
  std::string_view outcome;
};

ReplyView view_of(const Command& reply) {
  if (const auto* final_result = std::get_if<FinalResultReply>(&reply)) {
    return ReplyView{final_result->request, final_result->op_id, to_string(final_result->outcome)};
  }
  if (const auto* object_reply = std::get_if<ObjectMessageReply>(&reply)) {
    return ReplyView{object_reply->request, object_reply->op_id, to_string(object_reply->outcome)};
  }
  const auto& instance_reply = std::get<InstanceSpotReply>(reply);
  return ReplyView{instance_reply.request, instance_reply.op_id, to_string(instance_reply.outcome.kind)};
}

CommandCode code_of(const Command& command) {
  return std::visit([](const auto& message) { return message.code(); }, command);
}

}  // namespace

Dispatcher::Dispatcher(platform::Platform& platform, DispatcherConfig config)
    : _platform(platform), _config(config) {
  SPOTCHECK_ASSERT(_config.poll_interval_us > 0);
  SPOTCHECK_ASSERT(_config.messages_max > 0);
}

Dispatcher::~Dispatcher() {
  // Open calls belong to tasks that are gone by now (a host run unwinds its tasks first).
  _calls.clear();
}

void Dispatcher::start() {
  SPOTCHECK_ASSERT(!_running);
  _running = true;
  _stop_requested = false;
  _platform.tasks.spawn("dispatcher", [this] { loop(); });
}

void Dispatcher::loop() {
  struct Running {
    bool& flag;
    ~Running() { flag = false; }
  } running{_running};
  // Bounded: every wake-up (a message or a poll) counts.
  for (std::uint64_t wakes = 0; wakes < _config.messages_max && !_stop_requested; ++wakes) {
    std::optional<platform::Envelope> envelope =
        _platform.transport.receive(_platform.clock.now_us() + _config.poll_interval_us);
    if (!envelope.has_value()) {
      continue;
    }
    std::optional<Command> command = decode(envelope->bytes);
    if (!command.has_value()) {
      platform::emit_event(_platform.events, kinds::kMessagingUndecodable,
                           events::MessagingUndecodable{routing_id_hex(envelope->from),
                                                        static_cast<std::int64_t>(envelope->bytes.size())});
      continue;
    }
    dispatch(envelope->from, std::move(*command));
  }
}

void Dispatcher::dispatch(platform::RoutingId from, Command command) {
  if (auto* create = std::get_if<CreateCommand>(&command)) {
    if (_on_create) {
      _on_create(from, std::move(*create));
    }
    return;
  }
  if (auto* close = std::get_if<CloseCommand>(&command)) {
    if (_on_close) {
      _on_close(from, std::move(*close));
    }
    return;
  }
  if (auto* instance_request = std::get_if<InstanceSpotRequest>(&command)) {
    if (_on_instance_request) {
      _on_instance_request(from, std::move(*instance_request));
    }
    return;
  }
  if (auto* message = std::get_if<ObjectMessage>(&command)) {
    if (_on_object_message) {
      _on_object_message(from, std::move(*message));
    }
    return;
  }
  if (auto* relocation = std::get_if<RelocationCommand>(&command)) {
    if (_on_relocation) {
      _on_relocation(from, std::move(*relocation));
    }
    return;
  }
  deliver_reply(from, std::move(command));
}

void Dispatcher::deliver_reply(platform::RoutingId from, Command reply) {
  SPOTCHECK_ASSERT(std::holds_alternative<FinalResultReply>(reply) || std::holds_alternative<InstanceSpotReply>(reply) ||
                   std::holds_alternative<ObjectMessageReply>(reply));
  const ReplyView view = view_of(reply);
  auto it = _calls.find(view.request);
  if (it == _calls.end() || it->second.reply.has_value() || it->second.taken ||
      it->second.reply_code != code_of(reply) ||
      (it->second.operation.has_value() && !(*it->second.operation == view.op))) {
    platform::emit_event(
        _platform.events, kinds::kMessagingLateReply,
        events::MessagingLateReply{routing_id_hex(from), static_cast<std::int64_t>(view.request), view.op.hex(),
                                   view.outcome});
    return;
  }
  it->second.reply = std::move(reply);
  it->second.gate->open();
}

void Dispatcher::send(platform::RoutingId to, const Command& command) {
  _platform.transport.send(to, encode(command));
}

Dispatcher::PendingCall Dispatcher::open_call(CommandCode reply_code, std::optional<OperationId> operation) {
  SPOTCHECK_ASSERT(reply_code == CommandCode::kFinalResult || reply_code == CommandCode::kInstanceSpotReply ||
                   reply_code == CommandCode::kObjectMessageReply);
  SPOTCHECK_ASSERT(_calls.size() < _config.open_calls_max);
  const std::uint64_t request = _next_request;
  ++_next_request;
  auto [it, inserted] =
      _calls.emplace(request, Call{_platform.tasks.make_gate(), reply_code, std::move(operation), std::nullopt, false});
  SPOTCHECK_ASSERT(inserted);
  SPOTCHECK_ASSERT(!it->second.gate->is_open());
  return PendingCall(this, request);
}

Dispatcher::PendingCall::PendingCall(PendingCall&& other) noexcept
    : _dispatcher(std::exchange(other._dispatcher, nullptr)), _request(other._request) {}

Dispatcher::PendingCall::~PendingCall() { close(); }

void Dispatcher::PendingCall::close() {
  if (_dispatcher == nullptr) {
    return;
  }
  _dispatcher->_calls.erase(_request);
  _dispatcher = nullptr;
}

template <class Reply>
std::optional<Reply> Dispatcher::PendingCall::wait_as(platform::TimeUs deadline_us) {
  std::optional<Command> reply = wait_reply(deadline_us, Reply{}.code());
  if (!reply.has_value()) {
    return std::nullopt;
  }
  Reply out = std::get<Reply>(std::move(*reply));
  SPOTCHECK_ASSERT(out.request == _request);
  return out;
}

std::optional<FinalResultReply> Dispatcher::PendingCall::wait(platform::TimeUs deadline_us) {
  return wait_as<FinalResultReply>(deadline_us);
}

std::optional<InstanceSpotReply> Dispatcher::PendingCall::wait_instance(platform::TimeUs deadline_us) {
  return wait_as<InstanceSpotReply>(deadline_us);
}

std::optional<ObjectMessageReply> Dispatcher::PendingCall::wait_object(platform::TimeUs deadline_us) {
  return wait_as<ObjectMessageReply>(deadline_us);
}

std::optional<Command> Dispatcher::PendingCall::wait_reply(platform::TimeUs deadline_us, CommandCode reply_code) {
  SPOTCHECK_ASSERT(_dispatcher != nullptr);
  auto it = _dispatcher->_calls.find(_request);
  SPOTCHECK_ASSERT(it != _dispatcher->_calls.end());
  SPOTCHECK_ASSERT(it->second.reply_code == reply_code);
  if (it->second.taken) {
    return std::nullopt;
  }
  if (!it->second.reply.has_value()) {
    // The gate outlives the wait: the entry is erased only by close(), on this task.
    it->second.gate->wait_until(deadline_us);
    it = _dispatcher->_calls.find(_request);
    SPOTCHECK_ASSERT(it != _dispatcher->_calls.end());
  }
  if (!it->second.reply.has_value()) {
    return std::nullopt;
  }
  it->second.taken = true;
  std::optional<Command> reply = std::move(it->second.reply);
  it->second.reply.reset();
  SPOTCHECK_ASSERT(code_of(*reply) == reply_code);
  return reply;
}

}  // namespace spotcheck::location::messaging

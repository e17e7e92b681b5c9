// The per-node message dispatcher over platform::Transport: one task receives every message of
// this host run, decodes it (commands.h), hands commands (47/48/49, 50, 52, 54) to their handlers and
// routes replies (20, 51, 53) to the caller waiting for them (request/reply correlation).
//
// A caller opens a PendingCall for one reply command (20 or 51; a fresh request id, unique in
// this host run), sends its command
// — possibly several times, always with the same request id — and waits on the call's Gate until
// a reply or its deadline. The first reply of the call's command for an open call is kept and
// wakes the caller; any other reply (a duplicate, one of another command, or one arriving after
// the caller closed the call) is dropped and
// recorded as messaging.late_reply. So one call hands at most one reply to its caller, whatever
// the network does. Lost or late messages cost the caller its wait, never a guess.
//
// Handlers run on the dispatcher task and must not block: they spawn a task for their work.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "impl/location/messaging/commands.h"
#include "impl/platform/platform.h"

namespace spotcheck::location::messaging {

struct DispatcherConfig {
  // How often the receive loop wakes to notice stop() (it also wakes on every message).
  platform::TimeUs poll_interval_us = platform::seconds(1);
  // Bound on wake-ups (messages and polls) of one host run's loop, and on open calls at once.
  std::uint64_t messages_max = 100'000'000;
  std::size_t open_calls_max = 100'000;
};

class Dispatcher {
 public:
  using CreateHandler = std::function<void(platform::RoutingId from, CreateCommand command)>;
  using CloseHandler = std::function<void(platform::RoutingId from, CloseCommand command)>;
  using InstanceRequestHandler = std::function<void(platform::RoutingId from, InstanceSpotRequest command)>;
  using ObjectMessageHandler = std::function<void(platform::RoutingId from, ObjectMessage command)>;
  using RelocationHandler = std::function<void(platform::RoutingId from, RelocationCommand command)>;

  explicit Dispatcher(platform::Platform& platform, DispatcherConfig config = {});
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;
  ~Dispatcher();

  void on_create(CreateHandler handler) { _on_create = std::move(handler); }
  void on_close(CloseHandler handler) { _on_close = std::move(handler); }
  // Without a handler (none set, or reset to {}) an Instance Spot request is dropped unanswered.
  void on_instance_request(InstanceRequestHandler handler) { _on_instance_request = std::move(handler); }
  // Without a handler a regular object message is dropped unanswered.
  void on_object_message(ObjectMessageHandler handler) { _on_object_message = std::move(handler); }
  // Without a handler a relocation step (command 54) is dropped.
  void on_relocation(RelocationHandler handler) { _on_relocation = std::move(handler); }

  // Spawns the receive task. stop() ends it at its next wake-up; wait for running() == false
  // before destroying the dispatcher (or let the host run end: the task is unwound first).
  void start();
  void stop() { _stop_requested = true; }
  bool running() const { return _running; }

  // Sends any command on the ordered connection to `to` (delivery not guaranteed).
  void send(platform::RoutingId to, const Command& command);

  // One request/reply correlation. Closing (or destroying) it makes later replies late.
  class PendingCall {
   public:
    PendingCall(PendingCall&& other) noexcept;
    PendingCall& operator=(PendingCall&&) = delete;
    ~PendingCall();
    std::uint64_t request() const { return _request; }
    // Parks until the reply arrived or deadline_us (local) passed; returns the reply at most
    // once (a second wait after a reply returns nullopt). wait() for a call opened for command
    // 20, wait_instance() for one opened for command 51.
    std::optional<FinalResultReply> wait(platform::TimeUs deadline_us);
    std::optional<InstanceSpotReply> wait_instance(platform::TimeUs deadline_us);
    std::optional<ObjectMessageReply> wait_object(platform::TimeUs deadline_us);
    void close();

   private:
    friend class Dispatcher;
    PendingCall(Dispatcher* dispatcher, std::uint64_t request) : _dispatcher(dispatcher), _request(request) {}
    std::optional<Command> wait_reply(platform::TimeUs deadline_us, CommandCode reply_code);
    // wait_reply for the reply type of this call, checked against its correlation.
    template <class Reply>
    std::optional<Reply> wait_as(platform::TimeUs deadline_us);
    Dispatcher* _dispatcher;
    std::uint64_t _request;
  };
  // A call whose reply is command `reply_code`: kFinalResult (20), kInstanceSpotReply (51) or
  // kObjectMessageReply (53). With `operation`, only a reply naming that OperationId is the
  // call's: one of another operation (a reply to an earlier host run of this node that used the
  // same request number) is late and leaves the call open.
  PendingCall open_call(CommandCode reply_code = CommandCode::kFinalResult,
                        std::optional<OperationId> operation = std::nullopt);

  std::size_t open_calls() const { return _calls.size(); }

 private:
  struct Call {
    std::unique_ptr<platform::Gate> gate;
    CommandCode reply_code = CommandCode::kFinalResult;
    std::optional<OperationId> operation;  // when set, the only OperationId a reply may name
    std::optional<Command> reply;  // a command of reply_code
    bool taken = false;
  };
  void loop();
  void dispatch(platform::RoutingId from, Command command);
  // `reply` is a FinalResultReply, an InstanceSpotReply or an ObjectMessageReply.
  void deliver_reply(platform::RoutingId from, Command reply);

  platform::Platform& _platform;
  DispatcherConfig _config;
  CreateHandler _on_create;
  CloseHandler _on_close;
  InstanceRequestHandler _on_instance_request;
  ObjectMessageHandler _on_object_message;
  RelocationHandler _on_relocation;
  std::uint64_t _next_request = 1;
  std::map<std::uint64_t, Call> _calls;  // ordered: nothing depends on hash order
  bool _running = false;
  bool _stop_requested = false;
};

}  // namespace spotcheck::location::messaging

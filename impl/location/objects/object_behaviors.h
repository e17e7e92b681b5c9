// What the application registers for the objects a node hosts (spec §2, §5): one message handler
// per (kind, stable type). The object runtime calls it for each turn of an instance — a regular
// message or a timer callback — one turn at a time per instance, and only after §5 admission let
// the turn start. A handler may block (sleep), start timers and Send to other objects through its
// TurnContext.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "impl/location/objects/object_key.h"
#include "impl/platform/time.h"

namespace spotcheck::location::objects {

// What one turn runs on: a message's payload, or a timer's.
struct TurnInput {
  bool timer = false;
  std::string payload;
};

// The handler's view of its instance during one turn.
class TurnContext {
 public:
  virtual ~TurnContext() = default;
  virtual const ObjectKey& key() const = 0;
  virtual std::uint64_t object_generation() const = 0;
  // A timer callback `after_us` from now, run as a turn of this instance with `payload` (if the
  // instance is still hosted then and admission lets it start). false: too many timers pending.
  virtual bool start_timer(platform::TimeUs after_us, std::string payload) = 0;
  // A Send (no reply, spec §9.3) of `payload` to the object `to` by its ID, numbered in this
  // instance's own sender stream (so one instance's Sends to one object run in the order sent).
  // Blocks for the lookup; true when it left, false when the lookup failed or the instance is gone.
  virtual bool post(const ObjectKey& to, std::string payload) = 0;
};

// Returns the reply of a message turn (ignored for a timer turn).
using MessageHandler = std::function<std::string(TurnContext& context, const TurnInput& input)>;
// The application's restore of a moved instance on the relocation target (§1.3 step 5: restored
// into an instance not yet exposed, before relay-ready). It may block; no turn runs meanwhile.
// `state` is the application state the source captured under PreserveStateWith; nullopt under
// RecreateOnRelocation (a new instance without application state, spec §2).
using RestoreHook = std::function<void(const ObjectKey& key, const std::optional<std::string>& state)>;
// The application's capture of an instance's state on the relocation source, after its current
// turn (§1.3 step 3), under PreserveStateWith only.
using StateCaptureHook = std::function<std::string(const ObjectKey& key)>;

class ObjectBehaviors {
 public:
  // One handler per (kind, stable type); registering again replaces it.
  void add(records::AuthorityKind kind, std::string stable_type, MessageHandler handler) {
    _handlers[{kind, std::move(stable_type)}] = std::move(handler);
  }
  const MessageHandler* find(records::AuthorityKind kind, const std::string& stable_type) const {
    auto it = _handlers.find({kind, stable_type});
    return it == _handlers.end() ? nullptr : &it->second;
  }
  // Optional, per (kind, stable type): none means the restore does nothing of the application's.
  void add_restore(records::AuthorityKind kind, std::string stable_type, RestoreHook hook) {
    _restores[{kind, std::move(stable_type)}] = std::move(hook);
  }
  const RestoreHook* find_restore(records::AuthorityKind kind, const std::string& stable_type) const {
    auto it = _restores.find({kind, stable_type});
    return it == _restores.end() ? nullptr : &it->second;
  }
  // Optional, per (kind, stable type): none means the captured state is empty.
  void add_state_capture(records::AuthorityKind kind, std::string stable_type, StateCaptureHook hook) {
    _captures[{kind, std::move(stable_type)}] = std::move(hook);
  }
  const StateCaptureHook* find_state_capture(records::AuthorityKind kind, const std::string& stable_type) const {
    auto it = _captures.find({kind, stable_type});
    return it == _captures.end() ? nullptr : &it->second;
  }

 private:
  std::map<std::pair<records::AuthorityKind, std::string>, MessageHandler> _handlers;
  std::map<std::pair<records::AuthorityKind, std::string>, RestoreHook> _restores;
  std::map<std::pair<records::AuthorityKind, std::string>, StateCaptureHook> _captures;
};

}  // namespace spotcheck::location::objects

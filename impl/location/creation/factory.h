// Factories: the application callbacks a node registers per (object kind, stable type) and the
// Framework calls on the target when it creates an object (spec §2, §7). Actor creation is
// decided by the Entry Spot's callback, User Spot creation by that User Spot's callback; here
// both are one registered function. The callback returns Approved or Rejected (with an optional
// application reply) or throws (a typed Failed). It may block (it runs on its own task) and may
// run again for the same ID and generation after a process crash, so it must not break state
// when the same request runs again (§7).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "impl/location/messaging/operation_id.h"
#include "impl/records/enums.h"

namespace spotcheck::location::creation {

struct FactoryContext {
  records::ObjectKind object_kind = records::ObjectKind::kActor;
  std::string id;
  std::string stable_type;
  std::uint64_t object_generation = 0;
  std::string args;
  messaging::OperationId op_id;
};

struct FactoryDecision {
  bool approved = false;
  std::string reply;

  static FactoryDecision approve(std::string reply = {}) { return FactoryDecision{true, std::move(reply)}; }
  static FactoryDecision reject(std::string reply = {}) { return FactoryDecision{false, std::move(reply)}; }
};

using Factory = std::function<FactoryDecision(const FactoryContext&)>;

class FactoryRegistry {
 public:
  // One factory per (kind, stable type); registering again replaces it.
  void add(records::ObjectKind kind, std::string stable_type, Factory factory) {
    _factories[{kind, std::move(stable_type)}] = std::move(factory);
  }
  const Factory* find(records::ObjectKind kind, const std::string& stable_type) const {
    auto it = _factories.find({kind, stable_type});
    return it == _factories.end() ? nullptr : &it->second;
  }
  std::size_t size() const { return _factories.size(); }

 private:
  std::map<std::pair<records::ObjectKind, std::string>, Factory> _factories;
};

}  // namespace spotcheck::location::creation

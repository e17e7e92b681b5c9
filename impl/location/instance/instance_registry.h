// What a node registers per Instance Spot stable type (spec §2, §7.1): the factory that creates
// the Spot on cold activation (the creation factory type, object kind instanceSpot) and the
// message handler that runs every message of that Spot, the first one included.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "impl/location/creation/factory.h"
#include "impl/location/messaging/commands.h"
#include "impl/location/messaging/operation_id.h"

namespace spotcheck::location::instance {

struct InstanceMessage {
  std::string spot_id;
  std::string stable_type;
  std::uint64_t object_generation = 0;
  messaging::OperationId op_id;
  // The request identifier is (source Node RID, source host run, OperationId) (spec §7).
  std::string source_rid_hex;
  messaging::WireHostRun source;
  std::string body;
  bool first = false;  // the message that caused the cold activation
};

using InstanceHandler = std::function<void(const InstanceMessage&)>;
// Told when a restore found an incarnation's stored first message permanently missing or other
// bytes and recorded DataLost in its row (§10): the application may Close that incarnation.
using DataLostHandler = std::function<void(const std::string& spot_id, std::uint64_t object_generation)>;

struct InstanceType {
  creation::Factory factory;
  InstanceHandler handler;
  DataLostHandler on_data_lost;  // may be empty
};

class InstanceRegistry {
 public:
  void add(std::string stable_type, creation::Factory factory, InstanceHandler handler,
           DataLostHandler on_data_lost = {}) {
    _types[std::move(stable_type)] = InstanceType{std::move(factory), std::move(handler), std::move(on_data_lost)};
  }
  const InstanceType* find(const std::string& stable_type) const {
    auto it = _types.find(stable_type);
    return it == _types.end() ? nullptr : &it->second;
  }
  const std::map<std::string, InstanceType>& types() const { return _types; }

 private:
  std::map<std::string, InstanceType> _types;  // ordered by stable type
};

}  // namespace spotcheck::location::instance

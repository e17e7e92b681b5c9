// Factories for the creation tests: count every run per ID and decide by a scripted rule.
#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <string>

#include "impl/location/creation/factory.h"
#include "impl/platform/platform.h"

namespace spotcheck::location::creation::testing {

enum class Decide { kApprove, kReject, kThrow };

struct CountingFactory {
  std::map<std::string, int> runs;  // by ID
  std::function<Decide(const FactoryContext&)> rule = [](const FactoryContext&) { return Decide::kApprove; };
  platform::TimeUs delay_us = 0;  // the factory takes this long (the running node's clock)

  int total() const {
    int sum = 0;
    for (const auto& [id, count] : runs) {
      sum += count;
    }
    return sum;
  }
  int of(const std::string& id) const {
    auto it = runs.find(id);
    return it == runs.end() ? 0 : it->second;
  }

  // Registers this factory for actor "Player" and User Spots "Room" / "Lobby" on one host run.
  void install(platform::Platform& platform, FactoryRegistry& registry) {
    auto run = [this, &platform](const FactoryContext& context) -> FactoryDecision {
      ++runs[context.id];
      if (delay_us > 0) {
        platform.clock.sleep_for(delay_us);
      }
      switch (rule(context)) {
        case Decide::kApprove:
          return FactoryDecision::approve("hello " + context.id);
        case Decide::kReject:
          return FactoryDecision::reject("no " + context.id);
        case Decide::kThrow:
          throw std::runtime_error("factory of " + context.id + " failed");
      }
      return FactoryDecision::reject();
    };
    registry.add(records::ObjectKind::kActor, "Player", run);
    registry.add(records::ObjectKind::kUserSpot, "Room", run);
    registry.add(records::ObjectKind::kUserSpot, "Lobby", run);
  }
};

}  // namespace spotcheck::location::creation::testing

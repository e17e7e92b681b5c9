// The scenarios a campaign can name: built-ins plus those loaded from scenario files.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "scenarios/registry/scenario.h"

namespace spotcheck::scenarios {

class Registry {
 public:
  // Adds a scenario; a second one with the same name is a programming error.
  void add(std::unique_ptr<Scenario> scenario);
  const Scenario* find(const std::string& name) const;
  std::vector<const Scenario*> all() const;  // sorted by name

 private:
  std::map<std::string, std::unique_ptr<Scenario>> scenarios_;
};

// Every scenario compiled into this build. Each family registers itself in builtins.cpp.
Registry& builtin_scenarios();

}  // namespace spotcheck::scenarios

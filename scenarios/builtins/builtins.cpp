#include "scenarios/registry/registry.h"

namespace spotcheck::scenarios {

Registry& builtin_scenarios() {
  static Registry registry = [] {
    Registry r;
    return r;
  }();
  return registry;
}

}  // namespace spotcheck::scenarios

#include "impl/location/config/framework_registration.h"

#include <algorithm>

namespace spotcheck::location {

namespace {

ConfigError registration_error(std::string message) {
  return ConfigError{ConfigErrorKind::kStoreRegistration, std::move(message)};
}

}  // namespace

bool needs_relocation_store(const FrameworkRegistration& registration) {
  return std::any_of(registration.factories.begin(), registration.factories.end(), [](const FactoryRegistration& f) {
    return f.object_kind == records::ObjectKind::kInstanceSpot || f.policy == records::CapabilityPolicy::kRecreate ||
           f.policy == records::CapabilityPolicy::kSnapshot;
  });
}

std::optional<ConfigError> validate(const FrameworkRegistration& registration) {
  if (registration.location_stores > 1) {
    return registration_error("the Location Store is registered " + std::to_string(registration.location_stores) +
                              " times: register it exactly once");
  }
  if (registration.relocation_stores > 1) {
    return registration_error("the Relocation Store is registered " +
                              std::to_string(registration.relocation_stores) + " times: register it exactly once");
  }
  const bool object_role = registration.object_role != records::ObjectRole::kNone;
  if (object_role && registration.location_stores == 0) {
    return registration_error(std::string("object role ") + std::string(records::to_string(registration.object_role)) +
                              " requires a Location Store; none is registered");
  }
  if (registration.object_role != records::ObjectRole::kServer && !registration.factories.empty()) {
    return registration_error(std::string("object role ") + std::string(records::to_string(registration.object_role)) +
                              " provides no factory, but " + std::to_string(registration.factories.size()) +
                              " are registered");
  }
  if (needs_relocation_store(registration) && registration.relocation_stores != 1) {
    return registration_error(
        "a factory with RecreateOnRelocation or PreserveStateWith, or an Instance Spot factory, requires exactly one "
        "Relocation Store; none is registered");
  }
  return std::nullopt;
}

}  // namespace spotcheck::location

// The Framework configuration's store registrations (spec §2), checked at startup before a
// socket is opened or a store is touched:
//   - the Location Store and the Relocation Store are each registered at most once;
//   - a MeshNode with object role Client or Server requires a Location Store (no substitute
//     in-process store is made);
//   - a node with object role None or Client provides no factory;
//   - at least one factory with RecreateOnRelocation or PreserveStateWith, or any Instance Spot
//     factory, requires exactly one Relocation Store; with only DisableRelocation factories and no
//     Instance Spot factory it is optional.
// A breach is a typed startup error (ConfigErrorKind::kStoreRegistration), never an assertion.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "impl/location/config/location_config.h"
#include "impl/records/enums.h"

namespace spotcheck::location {

// One registered factory: its kind, stable type and relocation policy (the descriptor's capability
// policy: kDisabled = DisableRelocation, kRecreate = RecreateOnRelocation, kSnapshot =
// PreserveStateWith).
struct FactoryRegistration {
  records::ObjectKind object_kind = records::ObjectKind::kActor;
  std::string stable_type;
  records::CapabilityPolicy policy = records::CapabilityPolicy::kDisabled;
};

struct FrameworkRegistration {
  records::ObjectRole object_role = records::ObjectRole::kNone;
  std::size_t location_stores = 0;    // AddLocationStore calls
  std::size_t relocation_stores = 0;  // AddRelocationStore calls
  std::vector<FactoryRegistration> factories;
};

// Whether the registered factories need a Relocation Store (§2).
bool needs_relocation_store(const FrameworkRegistration& registration);

// nullopt when the registrations are usable.
std::optional<ConfigError> validate(const FrameworkRegistration& registration);

}  // namespace spotcheck::location

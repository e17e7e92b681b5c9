// Every property a campaign can name, with a one-line description (`spotcheck list`) and a factory.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

struct PropertyInfo {
  std::string_view name;
  std::string_view description;
  std::unique_ptr<PropertyChecker> (*make)(const PropertyOptions& options);
};

// In a fixed order.
std::span<const PropertyInfo> all_properties();
// nullptr for an unknown name.
const PropertyInfo* find_property(std::string_view name);

}  // namespace spotcheck::properties

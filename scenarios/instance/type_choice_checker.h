// instance-route's own property `instance-type-choice` (spec §7.1: with the type omitted, an
// Instance Spot type is auto-selected only when exactly one is available; none is NotFound, two
// or more is InvalidOperation). It holds the source's instance.type_selected against what the
// scenario knows and the protocol cannot misreport: every server node publishes the same set of
// Instance Spot types, so any moment's available set is that whole set or empty. With two or more
// types, an omitted type is never auto-selected; with one, only that one is.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "properties/property_checker.h"

namespace spotcheck::scenarios::instance {

class TypeChoiceChecker final : public properties::PropertyChecker {
 public:
  static constexpr std::string_view kName = "instance-type-choice";

  // `offered`: the Instance Spot types every server node publishes.
  explicit TypeChoiceChecker(std::set<std::string> offered);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;

 private:
  std::set<std::string> _offered;
};

}  // namespace spotcheck::scenarios::instance

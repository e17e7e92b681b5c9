// Choosing the Instance Spot stable type of a request (spec §7.1 "Type omitted"): the available
// types are the instanceSpot capabilities registered by placement candidates (Serving object
// servers with a valid owner lease and weight > 0) of one same-point-in-time descriptor list.
// Several nodes registering one type count as one type with several target candidates.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "impl/location/descriptor/node_view.h"
#include "impl/location/instance/outcome.h"

namespace spotcheck::location::instance {

std::set<std::string> available_instance_types(const std::vector<NodeView>& nodes);

struct TypeChoice {
  InstanceOutcomeKind error = InstanceOutcomeKind::kCreated;  // kCreated = no error
  std::string stable_type;
  bool ok() const { return error == InstanceOutcomeKind::kCreated; }
};

// `requested` given: used as is (placement then finds its candidates). Omitted: exactly one
// available type -> it; none -> kNotFound; two or more -> kInvalidOperation.
TypeChoice choose_instance_type(const std::optional<std::string>& requested, const std::vector<NodeView>& nodes);

}  // namespace spotcheck::location::instance

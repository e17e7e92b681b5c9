// The Instance Spot outcome as impl/location/instance/ names it: the type is command 51's content
// and lives with the wire (impl/location/messaging/instance_outcome.h).
#pragma once

#include "impl/location/messaging/instance_outcome.h"

namespace spotcheck::location::instance {

using messaging::InstanceOutcome;
using messaging::InstanceOutcomeKind;
using messaging::parse_instance_outcome_kind;
using messaging::to_string;

}  // namespace spotcheck::location::instance

// Which Mesh a creation places its object in (spec §7 InMesh): the Mesh the caller names, which
// must be one of this host's object-role Meshes (else NotFound); when it names none, the only
// object-role Mesh (none: NotConfigured; two or more: InvalidOperation).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "impl/location/creation/manager_types.h"

namespace spotcheck::location::creation {

// The Mesh to place in, or the error the call answers with.
std::variant<std::string, ManagerError> choose_mesh(std::string_view in_mesh, std::span<const std::string> object_meshes);

}  // namespace spotcheck::location::creation

#include "impl/location/creation/in_mesh.h"

#include <algorithm>

namespace spotcheck::location::creation {

std::variant<std::string, ManagerError> choose_mesh(std::string_view in_mesh, std::span<const std::string> object_meshes) {
  if (!in_mesh.empty()) {
    if (std::find(object_meshes.begin(), object_meshes.end(), in_mesh) == object_meshes.end()) {
      return ManagerError{ManagerErrorKind::kNotFound,
                          "InMesh '" + std::string(in_mesh) + "' is not one of this host's object-role Meshes (§7)"};
    }
    return std::string(in_mesh);
  }
  if (object_meshes.empty()) {
    return ManagerError{ManagerErrorKind::kNotConfigured, "no object-role Mesh to place in (§7)"};
  }
  if (object_meshes.size() > 1) {
    return ManagerError{ManagerErrorKind::kInvalidOperation,
                        "InMesh omitted while this host has " + std::to_string(object_meshes.size()) +
                            " object-role Meshes: name one (§7)"};
  }
  return object_meshes.front();
}

}  // namespace spotcheck::location::creation

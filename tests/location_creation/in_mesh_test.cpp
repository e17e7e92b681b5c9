// §7 InMesh: a named Mesh must be one of the host's object-role Meshes (NotFound otherwise); an
// omitted one is the only object-role Mesh (NotConfigured with none, InvalidOperation with two or more).
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "impl/location/creation/in_mesh.h"

namespace spotcheck::location::creation {
namespace {

std::string outcome(std::string_view in_mesh, const std::vector<std::string>& meshes) {
  const auto chosen = choose_mesh(in_mesh, meshes);
  if (const auto* error = std::get_if<ManagerError>(&chosen)) {
    return std::string(to_string(error->kind)) + ": " + error->message;
  }
  return "mesh " + std::get<std::string>(chosen);
}

TEST(InMesh, ANamedMeshMustBeOneOfTheHostsObjectRoleMeshes) {
  EXPECT_EQ(outcome("lobby", {"game", "lobby"}), "mesh lobby");
  EXPECT_EQ(outcome("game", {"game"}), "mesh game");
  EXPECT_EQ(outcome("arena", {"game", "lobby"}),
            "not_found: InMesh 'arena' is not one of this host's object-role Meshes (§7)");
  EXPECT_EQ(outcome("Game", {"game"}).substr(0, 9), "not_found") << "names match exactly";
  EXPECT_EQ(outcome("game", {}).substr(0, 9), "not_found");
}

TEST(InMesh, AnOmittedMeshIsTheOnlyObjectRoleMesh) {
  EXPECT_EQ(outcome("", {"game"}), "mesh game");
  EXPECT_EQ(outcome("", {}), "not_configured: no object-role Mesh to place in (§7)");
  EXPECT_EQ(outcome("", {"game", "lobby"}),
            "invalid_operation: InMesh omitted while this host has 2 object-role Meshes: name one (§7)");
}

}  // namespace
}  // namespace spotcheck::location::creation

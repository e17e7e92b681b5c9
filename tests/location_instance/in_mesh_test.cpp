// InMesh on the Instance Spot path (spec §7; issue 13): the same rule as creation's — a named Mesh
// the host does not have is NotFound, omitted with no object-role Mesh NotConfigured, with two or
// more InvalidOperation; a named one the host has is where the Spot is activated. Nothing is
// sent or stored for a refused request.
#include <string>
#include <vector>

#include "tests/location_instance/fixture.h"

namespace spotcheck::location::instance::testing {
namespace {

using creation::testing::kDefaultMesh;

class InstanceInMesh : public InstanceTest {
 protected:
  void make_with_meshes(std::optional<std::vector<std::string>> meshes) {
    InstanceSourceConfig source{seconds(30)};
    source.object_meshes = std::move(meshes);
    make({client(), server({"Chat"})}, 1, LocationConfig{}, source);
  }
  InstanceOutcome send_in(const std::string& in_mesh) {
    InstanceCall call = cluster->call("chat-1", std::string("Chat"), "m1");
    call.in_mesh = in_mesh;
    auto result = cluster->send_from(0, call);
    EXPECT_TRUE(cluster->run_until([&] { return result->has_value(); }, seconds(60)));
    return result->value_or(InstanceOutcome{});
  }
  const std::string mesh{kDefaultMesh};  // every node's Mesh in the test cluster
};

TEST_F(InstanceInMesh, ANamedMeshTheHostDoesNotHaveIsNotFound) {
  make_with_meshes(std::nullopt);
  const InstanceOutcome out = send_in("no-such-mesh");
  EXPECT_EQ(out.kind, InstanceOutcomeKind::kNotFound) << out.message;
  EXPECT_EQ(cluster->counters().factory_runs["chat-1"], 0);
  EXPECT_FALSE(cluster->spot_row("chat-1").has_value());
}

TEST_F(InstanceInMesh, OmittedWithTwoObjectMeshesIsInvalidOperation) {
  make_with_meshes(std::vector<std::string>{"other", std::string(kDefaultMesh)});
  const InstanceOutcome out = send_in("");
  EXPECT_EQ(out.kind, InstanceOutcomeKind::kInvalidOperation) << out.message;
  EXPECT_FALSE(cluster->spot_row("chat-1").has_value());
}

TEST_F(InstanceInMesh, OmittedWithNoObjectMeshIsNotConfigured) {
  make_with_meshes(std::vector<std::string>{});
  const InstanceOutcome out = send_in("");
  EXPECT_EQ(out.kind, InstanceOutcomeKind::kNotConfigured) << out.message;
  EXPECT_FALSE(cluster->spot_row("chat-1").has_value());
}

TEST_F(InstanceInMesh, ANamedMeshTheHostHasIsWhereTheSpotIsActivated) {
  make_with_meshes(std::vector<std::string>{"other", std::string(kDefaultMesh)});
  const InstanceOutcome out = send_in(mesh);
  ASSERT_EQ(out.kind, InstanceOutcomeKind::kCreated) << out.message;
  EXPECT_EQ(cluster->counters().factory_runs["chat-1"], 1);
  const auto row = cluster->spot_row("chat-1");
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->allocation.descriptor.mesh_name, mesh);
}

}  // namespace
}  // namespace spotcheck::location::instance::testing

// §7.1 type selection (type omitted: one -> used, none -> NotFound, two or more ->
// InvalidOperation; several nodes with one type are one type) and TypeMismatch.
#include "tests/location_instance/fixture.h"

namespace spotcheck::location::instance::testing {
namespace {

TEST_F(InstanceTest, OmittedTypeWithOneAvailableTypeIsUsed) {
  make({client(), server({"Chat"}), server({"Chat"})});  // one type on two nodes
  const InstanceOutcome out = send(0, "chat-1", std::nullopt, "m1");
  ASSERT_EQ(out.kind, InstanceOutcomeKind::kCreated) << out.message;
  EXPECT_EQ(out.stable_type, "Chat");
  EXPECT_EQ(cluster->counters().factory_runs["chat-1"], 1);
  ASSERT_EQ(cluster->events("instance.type_selected", "outcome", "created").size(), 1u);
}

TEST_F(InstanceTest, OmittedTypeWithNoAvailableTypeIsNotFound) {
  make({client(), server({})});
  const InstanceOutcome out = send(0, "chat-1", std::nullopt, "m1");
  EXPECT_EQ(out.kind, InstanceOutcomeKind::kNotFound);
  EXPECT_TRUE(cluster->events("instance.request_received").empty());
  EXPECT_FALSE(cluster->spot_row("chat-1").has_value());
}

TEST_F(InstanceTest, OmittedTypeWithTwoAvailableTypesIsInvalidOperation) {
  make({client(), server({"Chat"}), server({"Game"})});
  const InstanceOutcome out = send(0, "chat-1", std::nullopt, "m1");
  EXPECT_EQ(out.kind, InstanceOutcomeKind::kInvalidOperation);
  EXPECT_TRUE(cluster->events("instance.request_received").empty());
  EXPECT_FALSE(cluster->spot_row("chat-1").has_value());
}

TEST_F(InstanceTest, NamedTypeIsPlacedOnlyOnNodesRegisteringIt) {
  make({client(), server({"Game"}), server({"Chat"})});
  const InstanceOutcome out = send(0, "chat-1", std::string("Chat"), "m1");
  ASSERT_EQ(out.kind, InstanceOutcomeKind::kCreated) << out.message;
  EXPECT_EQ(out.owner_rid_hex, cluster->rid_hex(2));
  const std::optional<records::AuthorityRecord> row = cluster->spot_row("chat-1");
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->allocation.object_kind, records::ObjectKind::kInstanceSpot);
  EXPECT_EQ(row->allocation.stable_type, "Chat");
}

TEST_F(InstanceTest, UserSpotAtTheIdIsTypeMismatch) {
  make({client(), server({"Chat"})});
  cluster->run_on(0, [](creation::CreationNode& node) {
    auto created = node.manager().get_or_create_user_spot("chat-1", "Room", node.deadline_in(platform::seconds(30)));
    ASSERT_TRUE(created.ok());
  });
  const std::optional<records::AuthorityRecord> before = cluster->spot_row("chat-1");
  ASSERT_TRUE(before.has_value());
  const InstanceOutcome out = send(0, "chat-1", std::string("Chat"), "m1");
  EXPECT_EQ(out.kind, InstanceOutcomeKind::kTypeMismatch);
  EXPECT_EQ(cluster->counters().factory_runs["chat-1"], 0);
  EXPECT_TRUE(cluster->events("instance.payload_stored").empty());
  EXPECT_EQ(cluster->spot_row("chat-1"), before);  // nothing changed
}

TEST_F(InstanceTest, OtherInstanceTypeAtTheIdIsTypeMismatch) {
  make({client(), server({"Chat", "Game"})});
  ASSERT_EQ(send(0, "x-1", std::string("Game"), "m1").kind, InstanceOutcomeKind::kCreated);
  const InstanceOutcome out = send(0, "x-1", std::string("Chat"), "m2");
  EXPECT_EQ(out.kind, InstanceOutcomeKind::kTypeMismatch);
  EXPECT_EQ(cluster->counters().factory_runs["x-1"], 1);
  EXPECT_EQ(cluster->counters().messages["x-1"], std::vector<std::string>{"m1"});
}

}  // namespace
}  // namespace spotcheck::location::instance::testing

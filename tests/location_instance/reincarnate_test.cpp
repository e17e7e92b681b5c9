// Close with Reincarnate (framework 0.27's ZLinkInstanceClosingAuthority.reincarnate, §7.1): the
// owner ends this incarnation of an Instance Spot and at once activates the next one on the same
// node, its first message the "initialize" payload run before any other message, and a later
// request runs on the new incarnation; with no Ready instance here nothing is closed. (The
// instance-route campaign reincarnates under faults: mark instance-reincarnated.)
#include "tests/location_instance/fixture.h"

namespace spotcheck::location::instance::testing {
namespace {

class Reincarnate : public InstanceTest {
 protected:
  void SetUp() override { make({client(), server({"Chat"})}); }
  InstanceOutcome reincarnate(const std::string& initialize) {
    auto result = cluster->reincarnate_on(kServer, std::string(kSpot), initialize);
    EXPECT_TRUE(cluster->run_until([&] { return result->has_value(); }, seconds(30)));
    return result->value_or(InstanceOutcome{});
  }
};

TEST_F(Reincarnate, TheNextIncarnationIsReadyHereAndRunsItsInitializeFirst) {
  const InstanceOutcome a = send(kClient, std::string(kSpot), std::string("Chat"), "a");
  ASSERT_EQ(a.kind, InstanceOutcomeKind::kCreated) << a.message;
  const InstanceOutcome next = reincarnate("initialize");
  ASSERT_EQ(next.kind, InstanceOutcomeKind::kCreated) << next.message;
  EXPECT_GT(next.object_generation, a.object_generation) << "a new ObjectGeneration";
  EXPECT_EQ(cluster->target(kServer)->instance_generation(std::string(kSpot)), next.object_generation);
  EXPECT_EQ(cluster->events("instance.closing").size(), 1u);
  EXPECT_EQ(cluster->events("instance.reincarnating").size(), 1u);
  ASSERT_EQ(cluster->events("instance.first_message_run").size(), 2u);
  const InstanceOutcome b = send(kClient, std::string(kSpot), std::string("Chat"), "b");
  ASSERT_EQ(b.kind, InstanceOutcomeKind::kDelivered) << b.message;
  EXPECT_EQ(b.object_generation, next.object_generation) << "b runs on the new incarnation";
  const std::vector<std::string> expected{"a", "initialize", "b"};
  EXPECT_EQ(cluster->counters().messages[std::string(kSpot)], expected) << "initialize runs before b";
  const std::optional<records::AuthorityRecord> row = cluster->spot_row(std::string(kSpot));
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->object_generation, next.object_generation);
  EXPECT_EQ(row->allocation.state, records::AllocationState::kActive);
}

TEST_F(Reincarnate, OnlyAReadyInstanceOfThisHostRunIsReincarnated) {
  const InstanceOutcome none = reincarnate("initialize");
  EXPECT_EQ(none.kind, InstanceOutcomeKind::kNotFound) << none.message;
  EXPECT_TRUE(cluster->events("instance.closing").empty()) << "nothing closed";
  EXPECT_TRUE(cluster->events("instance.reincarnating").empty());
}

}  // namespace
}  // namespace spotcheck::location::instance::testing

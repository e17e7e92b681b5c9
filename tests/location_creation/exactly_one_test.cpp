// §12 Creation: "Even concurrent requests for the same ID create only one Creating, and only one
// target runs the factory." Every node calls at the same instant, over several seeds (each seed
// interleaves the calls differently); the property suite (exactly-one-creation included) judges
// every event as well.
#include "tests/location_creation/fixture.h"

namespace spotcheck::location::creation::testing {
namespace {

class Concurrent : public CreationTest, public ::testing::WithParamInterface<std::uint64_t> {};

TEST_P(Concurrent, GetOrCreateFromEveryNodeCreatesOnce) {
  ClusterOptions options = source_and_servers(4);
  options.seed = GetParam();
  make(options);
  factory.delay_us = millis(100);
  std::vector<std::optional<ManagerResult<CreateReply>>> results(cluster->size());
  for (std::size_t i = 0; i < cluster->size(); ++i) {
    cluster->spawn_on(i, [&results, i](CreationNode& n) {
      results[i].emplace(n.manager().get_or_create_actor("hot", "Player", n.deadline_in(seconds(5))));
    });
  }
  ASSERT_TRUE(cluster->run_until(
      [&] {
        for (const auto& r : results) {
          if (!r.has_value()) {
            return false;
          }
        }
        return true;
      },
      seconds(10)));
  int created = 0;
  int existing = 0;
  std::optional<ObjectRef> ref;
  for (const auto& r : results) {
    ASSERT_MANAGER_OK(*r);
    created += r->value().outcome == ReplyOutcome::kCreated ? 1 : 0;
    existing += r->value().outcome == ReplyOutcome::kExisting ? 1 : 0;
    if (ref.has_value()) {
      EXPECT_EQ(r->value().ref, *ref);
    }
    ref = r->value().ref;
  }
  EXPECT_EQ(created, 1);
  EXPECT_EQ(existing, static_cast<int>(cluster->size()) - 1);
  EXPECT_EQ(cluster->events("authority.reserve", "outcome", "applied").size(), 1u);
  EXPECT_EQ(factory.of("hot"), 1);
  const auto runs = cluster->events("creation.factory_run");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].text("node"), ref->node_rid_hex);  // the target the row names ran it
}

TEST_P(Concurrent, CreateFromEveryNodeGivesOneCreatedAndAlreadyExists) {
  ClusterOptions options = source_and_servers(3);
  options.seed = GetParam();
  make(options);
  std::vector<std::optional<ManagerResult<CreateReply>>> results(cluster->size());
  for (std::size_t i = 0; i < cluster->size(); ++i) {
    cluster->spawn_on(i, [&results, i](CreationNode& n) {
      results[i].emplace(n.manager().create_actor("hot", "Player", n.deadline_in(seconds(5))));
    });
  }
  ASSERT_TRUE(cluster->run_until([&] { return std::all_of(results.begin(), results.end(), [](const auto& r) { return r.has_value(); }); },
                                 seconds(10)));
  int created = 0;
  for (const auto& r : results) {
    if (r->ok()) {
      EXPECT_EQ(r->value().outcome, ReplyOutcome::kCreated);
      ++created;
    } else {
      EXPECT_EQ(r->error_kind(), ManagerErrorKind::kAlreadyExists) << describe(r->error());
    }
  }
  EXPECT_EQ(created, 1);
  EXPECT_EQ(factory.of("hot"), 1);
}

TEST_P(Concurrent, RejectingFactoryRunsOncePerGeneration) {
  ClusterOptions options = source_and_servers(3);
  options.seed = GetParam();
  make(options);
  factory.rule = [](const FactoryContext&) { return Decide::kReject; };
  std::vector<std::optional<ManagerResult<CreateReply>>> results(cluster->size());
  for (std::size_t i = 0; i < cluster->size(); ++i) {
    cluster->spawn_on(i, [&results, i](CreationNode& n) {
      results[i].emplace(n.manager().get_or_create_actor("picky", "Player", n.deadline_in(seconds(3))));
    });
  }
  ASSERT_TRUE(cluster->run_until([&] { return std::all_of(results.begin(), results.end(), [](const auto& r) { return r.has_value(); }); },
                                 seconds(10)));
  // Each waiting caller may create again after a rejection, but every generation ran its factory
  // exactly once, on the host run its Creating row named.
  std::map<std::int64_t, int> runs_per_generation;
  for (const auto& run : cluster->events("creation.factory_run")) {
    ++runs_per_generation[*run.number("object_gen")];
  }
  EXPECT_EQ(runs_per_generation.size(), cluster->events("authority.reserve", "outcome", "applied").size());
  for (const auto& [gen, runs] : runs_per_generation) {
    EXPECT_EQ(runs, 1) << "generation " << gen;
  }
  for (const auto& r : results) {
    ASSERT_MANAGER_OK(*r);
    EXPECT_EQ(r->value().outcome, ReplyOutcome::kRejected);
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, Concurrent, ::testing::Values(1, 2, 3, 4, 5, 6, 7, 8));

TEST_F(CreationTest, ReserveRefusedOnAChangedTargetPlacesOnAnother) {
  make(source_and_servers(2));
  std::string first_target;
  cluster->before_write = [this, &first_target](std::size_t, const store::WriteRequest& request) {
    if (!first_target.empty() || request.mutations.empty()) {
      return;
    }
    const auto* put = std::get_if<store::Put>(&request.mutations.front());
    if (put == nullptr || put->key != actor_key("moved")) {
      return;
    }
    // The target's descriptor changes between the placement read and the Reserve.
    for (const store::Condition& condition : request.conditions) {
      const auto* expect = std::get_if<store::ExpectVersion>(&condition);
      if (expect == nullptr || expect->key.rfind("mesh-node", 0) != 0) {
        continue;
      }
      auto& engine = cluster->store().location_engine();
      const auto found = std::get<store::Found>(engine.read(expect->key, platform::kNever));
      store::WriteRequest bump;
      bump.conditions.push_back(store::ExpectVersion{expect->key, found.version});
      bump.mutations.push_back(store::Put{expect->key, found.value});
      ASSERT_TRUE(std::holds_alternative<store::Applied>(engine.write(bump, platform::kNever)));
      first_target = expect->key.substr(expect->key.rfind('\0') + 1);
    }
  };
  auto created = call_on(0, [](CreationNode& n) { return n.manager().create_actor("moved", "Player", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(created);
  ASSERT_FALSE(first_target.empty());
  EXPECT_EQ(created.value().outcome, ReplyOutcome::kCreated);
  EXPECT_NE(created.value().ref.node_rid_hex, first_target) << "the changed target was not excluded";
  EXPECT_EQ(cluster->events("authority.reserve", "cause", "target_changed").size(), 1u);
  EXPECT_EQ(factory.of("moved"), 1);
}

}  // namespace
}  // namespace spotcheck::location::creation::testing

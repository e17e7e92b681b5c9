// Spec §12 "Creation", the Instance Spot item: during the initial creation of an Instance Spot
// the source doesn't pre-create an owner, only one target runs the factory, and the first
// message and recovery info are stored before Ready (§7.1); the Relocation Store payload is
// stored and verified before the Location Store row points at it, and the row's end of use is
// recorded before the payload is deleted (§10).
#include <variant>

#include "impl/location/instance/instance_request.h"
#include "impl/records/keys.h"
#include "tests/location_instance/fixture.h"

namespace spotcheck::location::instance::testing {
namespace {

// Watches every store step touching one SpotId and counts what the §12 item forbids.
struct Watch {
  int reserve_writes = 0;             // Reserve attempts (ExpectAbsent on the row), any outcome
  int reserves_applied = 0;           // ... of which applied: the Creating rows made
  int reserve_by_non_target = 0;      // ... sent by a node that is not an Instance Spot target
  int pointer_without_payload = 0;    // a row pointing at a reference the engine lacks / differs
  int removed_while_pointed = 0;      // a payload deleted while the row still points at it
  int payload_removals = 0;
  std::vector<std::size_t> reserving_nodes;
};

void watch(InstanceCluster& cluster, Watch& w, std::set<std::size_t> targets) {
  const store::Key key = records::authority_preimage(records::AuthorityKind::kSpot, kSpot);
  cluster.before_write = [&cluster, &w, key, targets](std::size_t node, const store::WriteRequest& request) {
    for (const store::Mutation& mutation : request.mutations) {
      const auto* put = std::get_if<store::Put>(&mutation);
      if (put == nullptr || put->key != key) {
        continue;
      }
      const records::RecordResult<records::AuthorityRecord> record = records::decode_authority_record(put->value);
      ASSERT_TRUE(record.ok());
      bool expects_absent = false;
      for (const store::Condition& condition : request.conditions) {
        const auto* absent = std::get_if<store::ExpectAbsent>(&condition);
        expects_absent = expects_absent || (absent != nullptr && absent->key == key);
      }
      if (expects_absent) {
        if (w.reserve_writes == 0) {
          EXPECT_FALSE(cluster.spot_row(std::string(kSpot)).has_value())
              << "no owner may exist before the first target's Reserve";
        }
        ++w.reserve_writes;
        w.reserving_nodes.push_back(node);
        if (targets.count(node) == 0) {
          ++w.reserve_by_non_target;
        }
      }
      if (record.value().pending_creation.has_value()) {
        const records::PendingCreation& pending = *record.value().pending_creation;
        const store::GetResult got = cluster.store().relocation_engine().get(pending.request_content_reference, INT64_MAX);
        const auto* found = std::get_if<store::PayloadFound>(&got);
        if (found == nullptr || records::sha256_hex(found->payload) != pending.request_sha256 ||
            found->payload.size() != pending.request_encoded_size) {
          ++w.pointer_without_payload;
        }
      }
    }
  };
  cluster.after_write = [&w, key](std::size_t, const store::WriteRequest& request, const store::WriteResult& result) {
    for (const store::Condition& condition : request.conditions) {
      const auto* absent = std::get_if<store::ExpectAbsent>(&condition);
      if (absent != nullptr && absent->key == key && std::holds_alternative<store::Applied>(result)) {
        ++w.reserves_applied;
      }
    }
  };
  cluster.before_relocation_remove = [&cluster, &w](std::size_t, const store::Key& reference) {
    ++w.payload_removals;
    const std::optional<records::AuthorityRecord> row = cluster.spot_row(std::string(kSpot));
    if (row.has_value() && ((row->pending_creation.has_value() &&
                             row->pending_creation->request_content_reference == reference) ||
                            points_at(row->payload, reference))) {
      ++w.removed_while_pointed;
    }
  };
}

void expect_settled(InstanceCluster& cluster) {
  const std::optional<records::AuthorityRecord> row = cluster.spot_row(std::string(kSpot));
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->allocation.state, records::AllocationState::kActive);
  EXPECT_EQ(row->allocation.object_kind, records::ObjectKind::kInstanceSpot);
  EXPECT_FALSE(row->pending_creation.has_value());
  EXPECT_TRUE(row->payload.empty()) << "end of use recorded";
  EXPECT_EQ(cluster.store().relocation_engine().payload_count(), 0u) << "every payload released";
}

// Three sources' first messages reach three different targets at once (the targets are chosen
// by the test so the race is real): one Reserve, one factory run, one first-message run.
class ConcurrentTargets : public InstanceTest, public ::testing::WithParamInterface<std::uint64_t> {};

TEST_P(ConcurrentTargets, ExactlyOneCreatingOneFactoryRunOneFirstMessage) {
  make({client(), client(), client(), server({"Chat"}), server({"Chat"}), server({"Chat"})}, GetParam());
  cluster->counters().factory_delay_us = millis(40);
  Watch w;
  watch(*cluster, w, {3, 4, 5});
  std::vector<InstanceRequest> requests(3);
  for (std::size_t source = 0; source < 3; ++source) {
    const PreparedRequest prepared =
        cluster->prepare_on(source, cluster->call(std::string(kSpot), std::string("Chat"), "m" + std::to_string(source)));
    ASSERT_TRUE(prepared.outcome.ok()) << prepared.outcome.message;
    requests[source] = prepared.request;
  }
  EXPECT_FALSE(cluster->spot_row(std::string(kSpot)).has_value()) << "the source made no owner";
  EXPECT_EQ(w.reserve_writes, 0);
  std::vector<std::shared_ptr<std::optional<InstanceOutcome>>> results;
  for (std::size_t k = 0; k < 3; ++k) {
    results.push_back(cluster->handle_on(3 + k, requests[k]));
  }
  ASSERT_TRUE(cluster->run_until(
      [&] { return results[0]->has_value() && results[1]->has_value() && results[2]->has_value(); }, seconds(60)));

  int created = 0;
  int routed = 0;
  std::string winner;
  for (const auto& result : results) {
    if ((*result)->kind == InstanceOutcomeKind::kCreated) {
      ++created;
      winner = (*result)->owner_rid_hex;
    }
  }
  ASSERT_EQ(created, 1);
  for (const auto& result : results) {
    if ((*result)->kind == InstanceOutcomeKind::kRoute) {
      ++routed;
      EXPECT_EQ((*result)->owner_rid_hex, winner) << "a loser follows the winner's record";
    }
  }
  EXPECT_EQ(routed, 2);
  EXPECT_EQ(w.reserves_applied, 1) << "exactly one Creating";
  EXPECT_EQ(w.reserve_writes, 3) << "the three targets raced: each tried its Reserve";
  EXPECT_EQ(cluster->events("instance.reserve_lost").size(), 2u);
  EXPECT_EQ(cluster->events("instance.payload_released", "reason", "not_referenced").size(), 2u);
  EXPECT_EQ(w.reserve_by_non_target, 0);
  EXPECT_EQ(w.pointer_without_payload, 0);
  EXPECT_EQ(w.removed_while_pointed, 0);
  EXPECT_EQ(cluster->counters().factory_runs[std::string(kSpot)], 1);
  EXPECT_EQ(cluster->events("instance.factory_run").size(), 1u);
  EXPECT_EQ(cluster->events("instance.reserved").size(), 1u);
  EXPECT_EQ(cluster->events("instance.first_message_run").size(), 1u);
  EXPECT_EQ(cluster->counters().first_messages[std::string(kSpot)].size(), 1u);
  EXPECT_EQ(cluster->counters().messages[std::string(kSpot)].size(), 1u);  // losers were not run
  EXPECT_EQ(cluster->events("instance.payload_released", "reason", "end_of_use").size(), 1u);
  expect_settled(*cluster);
}

INSTANTIATE_TEST_SUITE_P(Seeds, ConcurrentTargets, ::testing::Values(1u, 2u, 3u, 4u, 5u));

// The event order of the winner follows §7.1's sequence diagram.
TEST_F(InstanceTest, ColdActivationStepsRunInSpecOrder) {
  make({client(), server({"Chat"})});
  Watch w;
  watch(*cluster, w, {1});
  const InstanceOutcome out = send(0, std::string(kSpot), std::string("Chat"), "hello");
  ASSERT_EQ(out.kind, InstanceOutcomeKind::kCreated) << out.message;
  const std::vector<std::string_view> order = {"instance.request_sent",      "instance.request_received",
                                               "instance.payload_stored",    "instance.reserved",
                                               "instance.factory_run",       "instance.ready",
                                               "instance.first_message_run", "instance.end_of_use_recorded",
                                               "instance.payload_released",  "instance.outcome",
                                               "instance.reply_delivered"};
  std::vector<std::string> seen;
  const sim::Trace& trace = cluster->world().trace();
  for (std::uint64_t i = 0; i < trace.size(); ++i) {
    const sim::TraceEvent event = trace.event(i);
    if (event.kind.rfind("instance.", 0) == 0 && event.kind != "instance.type_selected") {
      seen.emplace_back(event.kind);
    }
  }
  ASSERT_EQ(seen.size(), order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(seen[i], order[i]) << "step " << i;
  }
  EXPECT_EQ(w.reserve_writes, 1);
  EXPECT_EQ(w.reserves_applied, 1);
  EXPECT_EQ(w.pointer_without_payload, 0);
  EXPECT_EQ(w.removed_while_pointed, 0);
  EXPECT_EQ(w.payload_removals, 1);
  EXPECT_EQ(cluster->counters().messages[std::string(kSpot)], std::vector<std::string>{"hello"});
  expect_settled(*cluster);
}

// Several sources through placement and forwarding: every message runs exactly once, the first
// one first, on one generation.
TEST_F(InstanceTest, ConcurrentSourcesEveryMessageRunsOnceOnOneGeneration) {
  make({client(), client(), client(), server({"Chat"}), server({"Chat"})}, 7);
  cluster->counters().factory_delay_us = millis(30);
  Watch w;
  watch(*cluster, w, {3, 4});
  std::vector<std::shared_ptr<std::optional<InstanceOutcome>>> results;
  for (std::size_t source = 0; source < 3; ++source) {
    results.push_back(cluster->send_from(
        source, cluster->call(std::string(kSpot), std::string("Chat"), "m" + std::to_string(source))));
  }
  ASSERT_TRUE(cluster->run_until(
      [&] { return results[0]->has_value() && results[1]->has_value() && results[2]->has_value(); }, seconds(60)));
  int created = 0;
  std::set<std::uint64_t> generations;
  for (const auto& result : results) {
    ASSERT_TRUE((*result)->ok()) << to_string((*result)->kind) << " " << (*result)->message;
    created += (*result)->kind == InstanceOutcomeKind::kCreated ? 1 : 0;
    generations.insert((*result)->object_generation);
  }
  EXPECT_EQ(created, 1);
  EXPECT_EQ(generations.size(), 1u);
  EXPECT_EQ(cluster->counters().factory_runs[std::string(kSpot)], 1);
  const std::vector<std::string>& ran = cluster->counters().messages[std::string(kSpot)];
  ASSERT_EQ(ran.size(), 3u);
  EXPECT_EQ(std::set<std::string>(ran.begin(), ran.end()), (std::set<std::string>{"m0", "m1", "m2"}));
  EXPECT_EQ(w.reserves_applied, 1) << "exactly one Creating";
  EXPECT_EQ(w.reserve_by_non_target, 0);
  EXPECT_EQ(w.pointer_without_payload, 0);
  EXPECT_EQ(w.removed_while_pointed, 0);
  expect_settled(*cluster);
}

// A target that finds the winner's Creating row waits for that same creation's result, however
// long the factory takes within the deadline, and then follows the Ready row.
TEST_F(InstanceTest, LoserWaitsForASlowCreationAndFollowsTheReadyRow) {
  make({client(), client(), server({"Chat"}), server({"Chat"})}, 3);
  cluster->counters().factory_delay_us = seconds(5);
  std::vector<InstanceRequest> requests(2);
  for (std::size_t source = 0; source < 2; ++source) {
    const PreparedRequest prepared = cluster->prepare_on(source, cluster->call(std::string(kSpot), std::string("Chat"), "m"));
    ASSERT_TRUE(prepared.outcome.ok());
    requests[source] = prepared.request;
  }
  auto first = cluster->handle_on(2, requests[0]);
  ASSERT_TRUE(cluster->run_until([&] { return !cluster->events("instance.factory_run").empty(); }, seconds(10)));
  auto second = cluster->handle_on(3, requests[1]);
  ASSERT_TRUE(cluster->run_until([&] { return first->has_value() && second->has_value(); }, seconds(60)));
  ASSERT_EQ((*first)->kind, InstanceOutcomeKind::kCreated) << (*first)->message;
  ASSERT_EQ((*second)->kind, InstanceOutcomeKind::kRoute) << (*second)->message;
  EXPECT_EQ((*second)->owner_rid_hex, cluster->rid_hex(2));
  EXPECT_EQ((*second)->object_generation, (*first)->object_generation);
  EXPECT_TRUE(cluster->events("instance.reserve_lost").empty()) << "it saw Creating and never tried a Reserve";
  EXPECT_EQ(cluster->counters().factory_runs[std::string(kSpot)], 1);
  expect_settled(*cluster);
}

TEST_F(InstanceTest, ReadySpotTakesLaterMessagesWithoutANewFactoryRun) {
  make({client(), server({"Chat"})});
  const InstanceOutcome first = send(0, std::string(kSpot), std::string("Chat"), "a");
  ASSERT_EQ(first.kind, InstanceOutcomeKind::kCreated) << first.message;
  const InstanceOutcome second = send(0, std::string(kSpot), std::string("Chat"), "b");
  ASSERT_EQ(second.kind, InstanceOutcomeKind::kDelivered) << second.message;
  EXPECT_EQ(second.object_generation, first.object_generation);
  EXPECT_EQ(cluster->counters().factory_runs[std::string(kSpot)], 1);
  EXPECT_EQ(cluster->counters().messages[std::string(kSpot)], (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(cluster->events("instance.payload_stored").size(), 1u) << "a Ready Spot stores nothing";
  expect_settled(*cluster);
}

TEST_F(InstanceTest, RejectedFactoryCancelsTheRowAndReleasesThePayload) {
  make({client(), server({"Chat"})});
  cluster->counters().reject = true;
  const InstanceOutcome out = send(0, std::string(kSpot), std::string("Chat"), "a");
  EXPECT_EQ(out.kind, InstanceOutcomeKind::kFailed);
  EXPECT_FALSE(cluster->spot_row(std::string(kSpot)).has_value());
  EXPECT_EQ(cluster->store().relocation_engine().payload_count(), 0u);
  EXPECT_TRUE(cluster->counters().messages[std::string(kSpot)].empty());
  EXPECT_EQ(cluster->events("instance.payload_released", "reason", "aborted").size(), 1u);
}

}  // namespace
}  // namespace spotcheck::location::instance::testing

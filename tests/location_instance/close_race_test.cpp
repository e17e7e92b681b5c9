// A new activation of a Spot meeting an incarnation of the same Spot still closing on the same
// target (spec §7.1 "the target checks the Location Store and the in-process Instance Spot list
// together"; framework 0.27 Close without Reincarnate; §10 a store reply outstanding).
//
// The campaign found it (instance-route --swarm seeds 6168, 16391, 17705): a request read "no
// record", its payload write stalled for seconds, meanwhile another request made generation 1 on
// the same node and the application closed it — its Delete applied, its reply outstanding — and
// the stalled request then reserved and committed generation 2 while generation 1 was still in
// the target's list (a run failure: `_instances.count(request.spot_id) == 0`). The target now
// never exposes a new incarnation while an earlier one is closing here: it waits for that local
// Close to end, then re-reads.
#include <variant>

#include "impl/records/keys.h"
#include "tests/location_instance/fixture.h"

namespace spotcheck::location::instance::testing {
namespace {

store::Key spot_row_key() { return records::authority_preimage(records::AuthorityKind::kSpot, kSpot); }

bool deletes_spot_row(const store::WriteRequest& request) {
  for (const store::Mutation& mutation : request.mutations) {
    const auto* removed = std::get_if<store::Delete>(&mutation);
    if (removed != nullptr && removed->key == spot_row_key()) {
      return true;
    }
  }
  return false;
}

// A Reserve of the Spot's row whose new row names `reference` (the pending creation's request).
bool reserves_spot_row_for(const store::WriteRequest& request, const std::string& reference) {
  bool expects_absent = false;
  for (const store::Condition& condition : request.conditions) {
    const auto* absent = std::get_if<store::ExpectAbsent>(&condition);
    expects_absent = expects_absent || (absent != nullptr && absent->key == spot_row_key());
  }
  for (const store::Mutation& mutation : request.mutations) {
    const auto* put = std::get_if<store::Put>(&mutation);
    if (expects_absent && put != nullptr && put->key == spot_row_key() &&
        put->value.find(reference) != std::string::npos) {
      return true;
    }
  }
  return false;
}

class CloseRace : public InstanceTest {
 protected:
  // One client, one server (every request lands on the same target).
  void SetUp() override { make({client(), server({"Chat"})}); }

  // Request A: prepared by the client's source, handed to the server's target by the test.
  InstanceRequest prepare_a() {
    const PreparedRequest prepared =
        cluster->prepare_on(kClient, cluster->call(std::string(kSpot), std::string("Chat"), "a"));
    EXPECT_TRUE(prepared.outcome.ok()) << prepared.outcome.message;
    return prepared.request;
  }

  // The server's Delete of the Spot row applies, then its reply is held `hold_us` (the Close
  // stays running with the row already gone).
  void hold_delete_reply(TimeUs hold_us) {
    platform::Platform& server_platform = cluster->node(kServer)->platform();
    cluster->after_write = [hold_us, &server_platform](std::size_t node, const store::WriteRequest& request,
                                                       const store::WriteResult& result) {
      if (node == kServer && deletes_spot_row(request) && std::holds_alternative<store::Applied>(result)) {
        server_platform.clock.sleep_for(hold_us);
      }
    };
  }

  // Generation 1 made by request "b" through the source, then its Close started (the Delete's
  // reply held): returns the Close's outcome handle once the row is gone.
  std::shared_ptr<std::optional<InstanceOutcome>> make_and_close_generation_1() {
    const InstanceOutcome b = send(kClient, std::string(kSpot), std::string("Chat"), "b");
    EXPECT_EQ(b.kind, InstanceOutcomeKind::kCreated) << b.message;
    EXPECT_EQ(b.object_generation, 1u);
    auto closed = cluster->close_on(kServer, std::string(kSpot));
    EXPECT_TRUE(cluster->run_until([&] { return !cluster->spot_row(std::string(kSpot)).has_value(); }, seconds(5)));
    EXPECT_FALSE(closed->has_value()) << "the Close is still running (its Delete's reply is held)";
    return closed;
  }

  // A ends with generation 2, after generation 1's Close ended here, and every message ran once.
  void expect_a_waited_for_the_close(const std::shared_ptr<std::optional<InstanceOutcome>>& a,
                                     const std::shared_ptr<std::optional<InstanceOutcome>>& closed,
                                     std::string_view where) {
    ASSERT_TRUE(cluster->run_until([&] { return a->has_value() && closed->has_value(); }, seconds(60)));
    EXPECT_EQ((*closed)->kind, InstanceOutcomeKind::kDelivered) << (*closed)->message;
    ASSERT_EQ((*a)->kind, InstanceOutcomeKind::kCreated) << to_string((*a)->kind) << " " << (*a)->message;
    EXPECT_EQ((*a)->object_generation, 2u);
    const auto awaited = cluster->events("instance.close_awaited");
    ASSERT_EQ(awaited.size(), 1u) << "A met generation 1 closing here";
    EXPECT_EQ(awaited[0].text("where").value_or(""), where);
    EXPECT_EQ(awaited[0].number("object_gen").value_or(0), 1);
    const auto closed_events = cluster->events("instance.closed", "outcome", "delivered");
    const auto ready = cluster->events("instance.ready");
    ASSERT_EQ(closed_events.size(), 1u);
    ASSERT_EQ(ready.size(), 2u);
    EXPECT_LT(closed_events[0].index, ready[1].index) << "generation 1 ended here before generation 2 was Ready";
    EXPECT_EQ(cluster->counters().messages[std::string(kSpot)], (std::vector<std::string>{"b", "a"}));
    EXPECT_TRUE(cluster->target(kServer)->has_instance(std::string(kSpot)));
    EXPECT_EQ(cluster->target(kServer)->instance_generation(std::string(kSpot)), 2u);
  }
};

// The seeds' story: A's payload write stalls for 3 s after its read found no record; generation
// 1 is made and closed meanwhile; when A's write returns, its Close is still running.
TEST_F(CloseRace, AStalledPayloadWriteWaitsForTheLocalCloseBeforeItsReserve) {
  const InstanceRequest request = prepare_a();
  const std::string reference = instance_reference(request.spot_id, request.op_id);
  platform::Platform& server_platform = cluster->node(kServer)->platform();
  int stalls = 0;
  cluster->before_relocation_put = [&](std::size_t node, const store::PayloadPut& put) {
    if (node == kServer && put.reference == reference && stalls++ == 0) {
      server_platform.clock.sleep_for(seconds(3));
    }
  };
  hold_delete_reply(seconds(4));
  auto a = cluster->handle_on(kServer, request);
  ASSERT_TRUE(cluster->run_until([&] { return stalls == 1; }, seconds(5))) << "A read no record and began its write";
  auto closed = make_and_close_generation_1();
  expect_a_waited_for_the_close(a, closed, "before_reserve");
}

// The narrower window: A's Reserve itself is in flight (held before it is sent) while
// generation 1 is made and closed; the Reserve then applies on the empty row and A holds its
// Creating row until generation 1's local Close ended.
TEST_F(CloseRace, AReserveInFlightAcrossAWholeIncarnationWaitsHoldingItsCreatingRow) {
  const InstanceRequest request = prepare_a();
  const std::string reference = instance_reference(request.spot_id, request.op_id);
  platform::Platform& server_platform = cluster->node(kServer)->platform();
  int held = 0;
  cluster->before_write = [&](std::size_t node, const store::WriteRequest& write) {
    if (node == kServer && reserves_spot_row_for(write, reference) && held++ == 0) {
      server_platform.clock.sleep_for(seconds(3));
    }
  };
  hold_delete_reply(seconds(4));
  auto a = cluster->handle_on(kServer, request);
  ASSERT_TRUE(cluster->run_until([&] { return held == 1; }, seconds(5))) << "A's Reserve is in flight";
  auto closed = make_and_close_generation_1();
  expect_a_waited_for_the_close(a, closed, "after_reserve");
  const auto reserved = cluster->events("instance.reserved");
  const auto awaited = cluster->events("instance.close_awaited");
  ASSERT_EQ(reserved.size(), 2u);
  EXPECT_LT(reserved[1].index, awaited[0].index) << "A waited holding its Creating row";
}

// A second Close of an instance whose Close runs is refused (the first one ends it), and once
// that Close ended a new request activates without waiting.
TEST_F(CloseRace, ASecondCloseOfAClosingInstanceIsRefusedAndTheNextActivationDoesNotWait) {
  const InstanceOutcome b = send(kClient, std::string(kSpot), std::string("Chat"), "b");
  ASSERT_EQ(b.kind, InstanceOutcomeKind::kCreated) << b.message;
  hold_delete_reply(millis(500));
  auto closed = cluster->close_on(kServer, std::string(kSpot));
  auto again = cluster->close_on(kServer, std::string(kSpot));
  ASSERT_TRUE(cluster->run_until([&] { return closed->has_value() && again->has_value(); }, seconds(10)));
  // The two tasks start at the same instant: either may be the first.
  const bool first_closed = (*closed)->kind == InstanceOutcomeKind::kDelivered;
  const InstanceOutcome& ended = first_closed ? **closed : **again;
  const InstanceOutcome& refused = first_closed ? **again : **closed;
  EXPECT_EQ(ended.kind, InstanceOutcomeKind::kDelivered) << ended.message;
  EXPECT_EQ(refused.kind, InstanceOutcomeKind::kNotFound) << "a Close of a closing instance is refused";
  EXPECT_EQ(cluster->events("instance.closing").size(), 1u);
  EXPECT_FALSE(cluster->target(kServer)->has_instance(std::string(kSpot)));
  const InstanceOutcome c = send(kClient, std::string(kSpot), std::string("Chat"), "c");
  ASSERT_EQ(c.kind, InstanceOutcomeKind::kCreated) << c.message;
  EXPECT_EQ(c.object_generation, 2u);
  EXPECT_TRUE(cluster->events("instance.close_awaited").empty());
}

}  // namespace
}  // namespace spotcheck::location::instance::testing

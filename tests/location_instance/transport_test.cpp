// The Instance Spot request and its reply cross the simulated network as commands 50 and 51
// (design "Messages"; spec §7.1; framework 0.27 at most once): a partition between the source
// and the target ends the request as "no answer" within its deadline, and a lost or late reply
// never leads to a second run.
#include <string>

#include "tests/location_instance/fixture.h"

namespace spotcheck::location::instance::testing {
namespace {

std::size_t first_message_runs(InstanceCluster& cluster) {
  return cluster.events("instance.first_message_run").size() + cluster.events("instance.message_run").size();
}

// The send timeout (30 s) is longer than the deadline (3 s): the deadline ends the wait, not later.
TEST_F(InstanceTest, APartitionBetweenSourceAndTargetEndsAsNoAnswerWithinTheDeadline) {
  make({client(), server({"Chat"})});
  const sim::RoutingId source[] = {cluster->rid(kClient)};
  const sim::RoutingId target[] = {cluster->rid(kServer)};
  cluster->network().partition(source, target);
  InstanceCall call = cluster->call(std::string(kSpot), std::string("Chat"), "hello");
  platform::Clock& source_clock = cluster->node(kClient)->platform().clock;  // deadlines are local
  call.deadline_us = source_clock.now_us() + seconds(3);
  auto result = cluster->send_from(kClient, call);
  ASSERT_TRUE(cluster->run_until([&] { return result->has_value(); }, seconds(10)));
  EXPECT_EQ((*result)->kind, InstanceOutcomeKind::kDeadlineExceeded) << (*result)->message;
  EXPECT_NE((*result)->message.find("no answer"), std::string::npos) << (*result)->message;
  const std::vector<sim::TraceEvent> replies = cluster->events("instance.reply_delivered");
  ASSERT_EQ(replies.size(), 1u);
  const TimeUs local_minus_world_us = source_clock.now_us() - cluster->world().now_us();  // no drift here
  const TimeUs ended_us = replies[0].time_us + local_minus_world_us;
  EXPECT_LE(ended_us, call.deadline_us) << "the request ended within its deadline";
  EXPECT_GE(ended_us, call.deadline_us - millis(50)) << "it waited for an answer until the deadline";
  EXPECT_GE(cluster->dropped_to(kServer), 1u) << "the partition dropped the request";
  EXPECT_TRUE(cluster->events("instance.request_received").empty());
  // Healed: nothing is sent again, nothing runs, no row appears.
  cluster->network().heal(cluster->rid(kClient), cluster->rid(kServer));
  cluster->run_for(seconds(10));
  EXPECT_EQ(cluster->events("instance.request_sent").size(), 1u) << "never resubmitted";
  EXPECT_TRUE(cluster->events("instance.request_received").empty());
  EXPECT_EQ(first_message_runs(*cluster), 0u);
  EXPECT_FALSE(cluster->spot_row(std::string(kSpot)).has_value());
}

// The reply (command 51) takes 1.5 s back, the send timeout is 1 s: the source has given up when
// it arrives; the dispatcher drops it (messaging.late_reply); the first message ran once and is
// never sent again.
TEST_F(InstanceTest, AReplyAfterTheSendTimeoutIsDroppedAndTheOperationRunsOnce) {
  make({client(), server({"Chat"})}, 1, {}, InstanceSourceConfig{seconds(1)});
  cluster->network().set_link_config(cluster->rid(kServer), cluster->rid(kClient),
                                     sim::LinkConfig{millis(1'500), millis(1'500), 0.0});
  auto result = cluster->send_from(kClient, cluster->call(std::string(kSpot), std::string("Chat"), "hello"));
  ASSERT_TRUE(cluster->run_until([&] { return result->has_value(); }, seconds(10)));
  EXPECT_EQ((*result)->kind, InstanceOutcomeKind::kDeadlineExceeded) << (*result)->message;
  EXPECT_NE((*result)->message.find("may have admitted"), std::string::npos) << (*result)->message;
  cluster->run_for(seconds(5));
  const std::vector<sim::TraceEvent> late = cluster->events("messaging.late_reply");
  ASSERT_EQ(late.size(), 1u) << "the reply arrived after the caller gave up";
  EXPECT_EQ(late[0].text("outcome").value_or(""), "created");
  const std::vector<sim::TraceEvent> sent = cluster->events("instance.request_sent");
  ASSERT_EQ(sent.size(), 1u) << "never resubmitted";
  EXPECT_EQ(late[0].text("op_id").value_or(""), sent[0].text("op_id").value_or(""));
  EXPECT_EQ(cluster->events("instance.reply_delivered").size(), 1u) << "one outcome handed to the caller";
  EXPECT_EQ(first_message_runs(*cluster), 1u);
  EXPECT_EQ(cluster->counters().factory_runs[std::string(kSpot)], 1);
}

// Every message between the nodes is lost: the source still ends each request with a typed
// outcome before its deadline, and nothing runs.
TEST_F(InstanceTest, LostRequestsEndAsNoAnswerAndRunNothing) {
  make({client(), server({"Chat"}), server({"Chat"})}, 1, {}, InstanceSourceConfig{seconds(1)});
  cluster->set_links_between_nodes(sim::LinkConfig{100, 1'000, 1.0});
  for (int i = 0; i < 3; ++i) {
    const InstanceOutcome out = send(kClient, "chat-" + std::to_string(i), std::string("Chat"), "m");
    EXPECT_EQ(out.kind, InstanceOutcomeKind::kDeadlineExceeded) << out.message;
  }
  EXPECT_EQ(cluster->events("instance.request_sent").size(), 3u);
  EXPECT_TRUE(cluster->events("instance.request_received").empty());
  EXPECT_EQ(first_message_runs(*cluster), 0u);
}

}  // namespace
}  // namespace spotcheck::location::instance::testing

// The story picks the events about the violation's subjects and the faults on their nodes.
#include "replay/story/story.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace spotcheck::replay {
namespace {

constexpr const char* kOwnerA = "aaaaaaaa-0000-4000-8000-000000000001";
constexpr const char* kOwnerB = "bbbbbbbb-0000-4000-8000-000000000002";

std::vector<std::string> small_trace() {
  const std::string a = kOwnerA;
  const std::string b = kOwnerB;
  return {
      "#0 t=0us node-0 process.add routing_id=100 drift_ppm=0",
      "#1 t=0us node-1 process.add routing_id=101 drift_ppm=0",
      "#2 t=0us node-2 process.add routing_id=102 drift_ppm=0",
      "#3 t=10us node-0 task=1 lease.registered owner=\"" + a + "\" lease_gen=1",
      "#4 t=20us node-1 task=2 lease.registered owner=\"" + b + "\" lease_gen=2",
      "#5 t=30us node-0 task=1 authority.commit kind=\"actor\" id=\"player:1\" owner=\"" + a + "\"",
      "#6 t=40us node-2 task=3 authority.commit kind=\"actor\" id=\"player:2\"",
      "#7 t=50us node-0 pause duration_us=100 until_us=150",
      "#8 t=55us node-2 kill run=1",
      "#9 t=56us world store.reply_lost node=1 op=\"write\"",
      "#10 t=57us world store.reply_lost node=2 op=\"write\"",
      "#11 t=58us world net.partition from=101 to=999",
      "#12 t=59us world net.partition from=102 to=999",
      "#13 t=60us node-1 task=2 authority.new_owner kind=\"actor\" id=\"player:1\" owner=\"" + b + "\"",
      "#14 t=70us node-0 task=1 lease.lost owner=\"" + a + "\" lease_gen=1",
      "#15 t=80us node-0 task=1 object.work id=\"player:1\" owner=\"" + a + "\"",
      "#16 t=90us node-1 task=2 object.work id=\"player:1\" owner=\"" + b + "\"",
  };
}

// As the property suite fills it: the violating event's object and host run, then the cited #13's.
scenarios::Violation violation_at(std::uint64_t index) {
  scenarios::Violation v{"single-owner",
                         "#" + std::to_string(index) + " t=0.00008s node-0 object.work: host run " + kOwnerA +
                             "/1 ran the handler of actor 'player:1', which host run " + kOwnerB + "/2 owns (#13)",
                         80, index};
  v.subjects.add_object("player:1");
  v.subjects.add_host_run(kOwnerA);
  v.subjects.add_host_run(kOwnerB);
  v.subjects.add_event(13);
  return v;
}

std::vector<std::uint64_t> indexes(const Story& story) {
  std::vector<std::uint64_t> out;
  for (const auto& e : story.events) {
    out.push_back(e.line.index);
  }
  return out;
}

TEST(Story, TheSubjectsEventsAndTheFaultsOnTheirNodesEndingAtTheViolation) {
  const Story story = tell_story(small_trace(), violation_at(15));
  EXPECT_EQ(story.objects, (std::vector<std::string>{"player:1"}));
  EXPECT_EQ(story.owners, (std::vector<std::string>{kOwnerA, kOwnerB}));
  EXPECT_EQ(story.nodes, (std::vector<std::string>{"node-0", "node-1"}));
  // Not: process.add, node-2's commit of another object, node-2's kill, the faults on node-2, and
  // nothing after the violating event (#16).
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{3, 4, 5, 7, 9, 11, 13, 14, 15}));
  EXPECT_EQ(story.left_out, 0u);
  ASSERT_FALSE(story.events.empty());
  EXPECT_TRUE(story.events.back().key);  // the violating event
  EXPECT_TRUE(story.events[6].key);      // #13, cited by the message
  EXPECT_TRUE(story.events[3].fault);    // #7, node-0 paused
  EXPECT_FALSE(story.events[0].fault);
}

TEST(Story, IsBoundedAndKeepsTheCitedEvents) {
  const Story story = tell_story(small_trace(), violation_at(15), 3);
  // #13 and #15 are key; one more slot for the latest other event (#14).
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{13, 14, 15}));
  EXPECT_EQ(story.relevant, 9u);
  EXPECT_EQ(story.left_out, 6u);
  std::ostringstream text;
  print_story(story, violation_at(15), text);
  EXPECT_NE(text.str().find("(6 earlier event(s) of 9 left out)"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("  * #15  0.000080s  node-0  object.work id=\"player:1\""), std::string::npos)
      << text.str();
}

TEST(Story, ReadsTheStructuredSubjectsAndTheEventsTheyCiteNotTheMessage) {
  // The message names nothing; the cited event and the violating one name the object and owners.
  scenarios::Violation v{"single-owner", "two owners", 80, 15};
  v.subjects.add_event(13);
  const Story story = tell_story(small_trace(), v);
  EXPECT_EQ(story.objects, (std::vector<std::string>{"player:1"}));
  EXPECT_EQ(std::set<std::string>(story.owners.begin(), story.owners.end()),
            (std::set<std::string>{kOwnerA, kOwnerB}));
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{3, 4, 5, 7, 9, 11, 13, 14, 15}));
  // A message that cites events and names objects, without subjects, tells only the violating event's.
  scenarios::Violation bare{"single-owner", "host run " + std::string(kOwnerB) + "/2 owns 'player:9' (#13)", 80, 15};
  const Story told = tell_story(small_trace(), bare);
  EXPECT_EQ(told.objects, (std::vector<std::string>{"player:1"}));
  EXPECT_EQ(told.owners, (std::vector<std::string>{kOwnerA}));
}

// Requests that changed nothing and every renewal of a host run but its last are counted, not told.
TEST(Story, FoldsRoutineRequestsAndEarlierRenewals) {
  const std::string a = kOwnerA;
  std::vector<std::string> trace = {
      "#0 t=0us node-0 process.add routing_id=100 drift_ppm=0",
      "#1 t=10us node-0 task=1 lease.registered owner=\"" + a + "\" lease_gen=1",
      "#2 t=20us node-0 task=1 request.start owner=\"" + a + "\" request=1 id=\"player:1\"",
      "#3 t=21us node-0 task=1 authority.commit kind=\"actor\" id=\"player:1\" owner=\"" + a + "\"",
      "#4 t=22us node-0 task=1 request.end owner=\"" + a + "\" request=1 id=\"player:1\" outcome=\"created\"",
      "#5 t=30us node-0 task=1 request.start owner=\"" + a + "\" request=2 id=\"player:1\"",
      "#6 t=31us node-0 task=1 object.work id=\"player:1\" owner=\"" + a + "\"",
      "#7 t=32us node-0 task=1 request.end owner=\"" + a + "\" request=2 id=\"player:1\" outcome=\"used\"",
      "#8 t=40us node-0 task=2 lease.renewed owner=\"" + a + "\" lease_gen=1",
      "#9 t=50us node-0 task=2 lease.renewed owner=\"" + a + "\" lease_gen=1",
      "#10 t=60us node-0 task=1 request.start owner=\"" + a + "\" request=3 id=\"player:1\"",
      "#11 t=61us node-0 task=1 object.work id=\"player:1\" owner=\"" + a + "\"",
  };
  scenarios::Violation v{"single-owner", "late", 61, 11};
  v.subjects.add_object("player:1");
  v.subjects.add_host_run(kOwnerA);
  const Story story = tell_story(trace, v);
  // Request 2 (used) and the renewal #8 are folded; request 1 created the object; request 3 holds
  // the violating event.
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{1, 2, 3, 4, 9, 10, 11}));
  EXPECT_EQ(story.folded_requests, 1u);
  EXPECT_EQ(story.folded_request_events, 3u);
  EXPECT_EQ(story.folded_renewals, 1u);
  EXPECT_EQ(story.relevant, 7u);
  std::ostringstream text;
  print_story(story, v, text);
  EXPECT_NE(text.str().find("(folded: 1 request(s) that changed nothing"), std::string::npos) << text.str();
}

// A move the relocation policies rejected before Capture (§2) changed nothing: its request folds.
TEST(Story, FoldsAMoveThePoliciesRejected) {
  const std::string a = kOwnerA;
  std::vector<std::string> trace = {
      "#0 t=0us node-0 process.add routing_id=100 drift_ppm=0",
      "#1 t=10us node-0 task=1 request.start owner=\"" + a + "\" request=1 id=\"player:1\"",
      "#2 t=11us node-0 task=1 relocation.rejected kind=\"actor\" id=\"player:1\" owner=\"" + a +
          "\" why=\"relocation_disabled\"",
      "#3 t=12us node-0 task=1 request.end owner=\"" + a + "\" request=1 id=\"player:1\" outcome=\"rejected\"",
      "#4 t=20us node-0 task=1 request.start owner=\"" + a + "\" request=2 id=\"player:1\"",
      "#5 t=21us node-0 task=1 object.work id=\"player:1\" owner=\"" + a + "\"",
  };
  scenarios::Violation v{"single-owner", "late", 21, 5};
  v.subjects.add_object("player:1");
  v.subjects.add_host_run(kOwnerA);
  const Story story = tell_story(trace, v);
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{4, 5}));
  EXPECT_EQ(story.folded_requests, 1u);
  EXPECT_EQ(story.folded_request_events, 3u);
}

// A relocation that went as it should folds into a count with the request that made it; the NewOwner
// and the instances' deactivation and activation stay. A move whose events a violation cites, or
// one that was cancelled, stays whole.
TEST(Story, FoldsARelocationThatWentAsItShould) {
  const std::string a = kOwnerA;
  const std::string b = kOwnerB;
  auto progress = [&](int i, const std::string& node, const std::string& kind, const std::string& binding,
                      const std::string& why = "") {
    return "#" + std::to_string(i) + " t=" + std::to_string(i) + "0us " + node + " task=" +
           (node == "node-0" ? "1" : "7") + " relocation." + kind + " kind=\"actor\" id=\"player:1\" binding=\"" +
           binding + "\" owner=\"" + (node == "node-0" ? a : b) + "\" why=\"" + why + "\"";
  };
  std::vector<std::string> trace = {
      "#0 t=0us node-0 process.add routing_id=100 drift_ppm=0",
      "#1 t=10us node-0 task=1 request.start owner=\"" + a + "\" request=1 id=\"player:1\"",
      progress(2, "node-0", "started", "m1"),
      progress(3, "node-0", "captured", "m1"),
      progress(4, "node-1", "relay_ready", "m1"),
      "#5 t=50us node-0 task=1 object.deactivated kind=\"actor\" id=\"player:1\" owner=\"" + a + "\" reason=\"moved\"",
      progress(6, "node-0", "handed_over", "m1"),
      "#7 t=70us node-0 task=1 request.end owner=\"" + a + "\" request=1 id=\"player:1\" outcome=\"handed_over\"",
      "#8 t=80us node-1 task=7 authority.new_owner kind=\"actor\" id=\"player:1\" owner=\"" + b + "\"",
      progress(9, "node-1", "ready", "m1", "cutover"),
      "#10 t=100us node-1 task=7 object.activated kind=\"actor\" id=\"player:1\" owner=\"" + b + "\"",
      progress(11, "node-1", "started", "m2"),
      progress(12, "node-1", "cancelled", "m2", "no_answer"),  // a cancelled move stays
      "#13 t=130us node-1 task=7 object.work id=\"player:1\" owner=\"" + b + "\"",
  };
  scenarios::Violation v{"single-owner", "late", 130, 13};
  v.subjects.add_object("player:1");
  const Story story = tell_story(trace, v);
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{5, 8, 10, 11, 12, 13}));
  EXPECT_EQ(story.folded_moves, 1u);
  EXPECT_EQ(story.folded_move_events, 7u);
  std::ostringstream text;
  print_story(story, v, text);
  EXPECT_NE(text.str().find("1 relocation(s) that went as they should, 7 event(s)"), std::string::npos) << text.str();
  // The same move with one of its events cited stays whole.
  v.subjects.add_event(3);
  EXPECT_EQ(tell_story(trace, v).folded_moves, 0u);
}

// Regular messages that went as they should (sent, run once, answered ran; a Send run) and timer
// callbacks are folded; one answered no_reply and never run, and one whose turn is the violating
// event, stay.
TEST(Story, FoldsRoutineMessagesAndKeepsTheLostAndTheKeyOnes) {
  const std::string a = kOwnerA;
  const std::string b = kOwnerB;
  auto sent = [&](int i, const std::string& op) {
    return "#" + std::to_string(i) + " t=" + std::to_string(i) + "0us node-1 task=2 object.message_sent owner=\"" + b +
           "\" kind=\"actor\" id=\"player:1\" op_id=\"" + op + "\"";
  };
  auto turn = [&](int i, const std::string& op) {
    return "#" + std::to_string(i) + " t=" + std::to_string(i) + "0us node-0 task=3 object.turn kind=\"actor\" " +
           "id=\"player:1\" turn=\"message\" op_id=\"" + op + "\" owner=\"" + a + "\"";
  };
  auto answered = [&](int i, const std::string& op, const std::string& outcome) {
    return "#" + std::to_string(i) + " t=" + std::to_string(i) + "0us node-1 task=2 object.message_answered owner=\"" +
           b + "\" kind=\"actor\" id=\"player:1\" op_id=\"" + op + "\" outcome=\"" + outcome + "\"";
  };
  std::vector<std::string> trace = {
      "#0 t=0us node-0 process.add routing_id=100 drift_ppm=0",
      sent(1, "01"), turn(2, "01"), answered(3, "01", "ran"),                 // routine: folded
      sent(4, "02"), answered(5, "02", "no_reply"),                           // lost: stays
      sent(6, "03"), answered(7, "03", "sent"), turn(8, "03"),                // a Send run: folded
      "#9 t=90us node-0 task=3 object.turn kind=\"actor\" id=\"player:1\" turn=\"timer\" op_id=\"\" owner=\"" + a +
          "\"",                                                              // a timer callback: folded
      "#10 t=100us node-0 task=3 object.timer_started kind=\"actor\" id=\"player:1\" owner=\"" + a +
          "\"",                                                              // a timer started: folded
      sent(11, "04"), turn(12, "04"),                                          // the violating turn
  };
  scenarios::Violation v{"object-messages", "lost", 120, 12};
  v.subjects.add_object("player:1");
  v.subjects.add_event(4);
  const Story story = tell_story(trace, v);
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{4, 5, 11, 12}));
  EXPECT_EQ(story.folded_timer_turns, 2u);
  EXPECT_EQ(story.folded_messages, 2u);
  EXPECT_EQ(story.folded_message_events, 6u);
  std::ostringstream text;
  print_story(story, v, text);
  EXPECT_NE(text.str().find("2 regular message(s) sent, run once and answered ran (or a Send run), 6 event(s)"),
            std::string::npos)
      << text.str();
}

// Instance Spot exchanges that went as they should (sent once, run once on a Ready instance,
// delivered) are folded with the client's request that delivered them; one resubmitted and one
// whose run is the violating event stay, and so do their requests.
TEST(Story, FoldsRoutineInstanceExchangesAndTheRequestsThatDeliveredThem) {
  const std::string b = kOwnerB;
  auto line = [](int i, const std::string& node, int task, const std::string& kind, const std::string& fields) {
    return "#" + std::to_string(i) + " t=" + std::to_string(i) + "0us " + node + " task=" + std::to_string(task) + " " +
           kind + " id=\"chat-0\" " + fields;
  };
  auto start = [&](int i) { return line(i, "client-1", 2, "request.start", "owner=\"" + b + "\""); };
  auto sent = [&](int i, const std::string& op) { return line(i, "client-1", 2, "instance.request_sent", "op_id=\"" + op + "\""); };
  auto received = [&](int i, const std::string& op) {
    return line(i, "server-0", 3, "instance.request_received", "op_id=\"" + op + "\"");
  };
  auto run = [&](int i, const std::string& op) { return line(i, "server-0", 3, "instance.message_run", "op_id=\"" + op + "\""); };
  auto outcome = [&](int i, const std::string& op, const std::string& what) {
    return line(i, "server-0", 3, "instance.outcome", "op_id=\"" + op + "\" outcome=\"" + what + "\"");
  };
  auto delivered = [&](int i, const std::string& op, const std::string& what) {
    return line(i, "client-1", 2, "instance.reply_delivered", "op_id=\"" + op + "\" outcome=\"" + what + "\"");
  };
  std::vector<std::string> trace = {
      "#0 t=0us server-0 process.add routing_id=100 drift_ppm=0",
      start(1), sent(2, "01"), received(3, "01"), run(4, "01"), outcome(5, "01", "delivered"),
      delivered(6, "01", "delivered"),                                                       // routine: folded
      start(7), sent(8, "02"), received(9, "02"), run(10, "02"), outcome(11, "02", "delivered"),
      delivered(12, "02", "delivered"),                                                      // routine: folded
      start(13), sent(14, "03"), received(15, "03"), run(16, "03"),
      outcome(17, "03", "request_target_not_found"),
      line(18, "client-1", 2, "instance.resubmitted", "op_id=\"03\""), sent(19, "03"), received(20, "03"),
      run(21, "03"),                                                                         // run twice: the violation
  };
  scenarios::Violation v{"at-most-once", "twice", 210, 21};
  v.subjects.add_object("chat-0");
  v.subjects.add_event(16);
  const Story story = tell_story(trace, v);
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{13, 14, 15, 16, 17, 18, 19, 20, 21}));
  EXPECT_EQ(story.folded_instance_requests, 2u);
  EXPECT_EQ(story.folded_instance_request_events, 10u);
  EXPECT_EQ(story.folded_requests, 2u);
  EXPECT_EQ(story.folded_request_events, 2u) << "the request.start lines; the exchanges' events are counted there";
  std::ostringstream text;
  print_story(story, v, text);
  EXPECT_NE(text.str().find("2 Instance Spot request(s) sent once, run once on a Ready instance and delivered, 10 "
                            "event(s)"),
            std::string::npos)
      << text.str();
}

// A request that only read (found its object; used a route cache off the key events' nodes) is
// folded, and then the faults on a node none of the events left happened on; the cache events of
// the violating node stay.
TEST(Story, FoldsRequestsThatOnlyReadAndTheFaultsOnNodesNoEventIsLeftOn) {
  const std::string a = kOwnerA;
  const std::string b = kOwnerB;
  auto at = [](int i, const std::string& node, const std::string& rest) {
    return "#" + std::to_string(i) + " t=" + std::to_string(i) + "0us " + node + " " + rest;
  };
  const std::string on_b = "owner=\"" + b + "\" id=\"player:1\"";
  const std::string on_a = "owner=\"" + a + "\" id=\"player:1\"";
  std::vector<std::string> trace = {
      "#0 t=0us node-0 process.add routing_id=100 drift_ppm=0",
      at(1, "node-2", "start run=1"),
      at(2, "node-2", "task=5 request.start " + on_b),
      at(3, "node-2", "task=5 find.result kind=\"actor\" id=\"player:1\" outcome=\"ready\""),
      at(4, "node-2", "task=5 request.start " + on_b),
      at(5, "node-2", "task=5 cache.hit " + on_b),
      at(6, "node-2", "task=5 request.end " + on_b + " outcome=\"sent\""),
      at(7, "node-2", "kill run=1"),
      at(8, "node-0", "task=1 request.start " + on_a),
      at(9, "node-0", "task=1 cache.filled " + on_a),
      at(10, "node-0", "task=1 cache.hit " + on_a),
  };
  scenarios::Violation v{"route-cache", "past its bound", 100, 10};
  v.subjects.add_object("player:1");
  const Story story = tell_story(trace, v);
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{8, 9, 10}));
  EXPECT_EQ(story.folded_requests, 2u);
  EXPECT_EQ(story.folded_request_events, 5u);
  EXPECT_EQ(story.folded_faults_elsewhere, 2u) << "node-2's start and kill";
  EXPECT_EQ(story.nodes, (std::vector<std::string>{"node-0"}));
}

// A message turn whose sending is not in the story (a handler's Send from an object the story is
// not about) and that ran once is folded; two turns of one OperationId stay.
TEST(Story, FoldsAMessageTurnRunOnceWhoseSenderIsNotInTheStory) {
  const std::string a = kOwnerA;
  auto turn = [&](int i, const std::string& op) {
    return "#" + std::to_string(i) + " t=" + std::to_string(i) + "0us node-0 task=3 object.turn kind=\"actor\" " +
           "id=\"player:1\" turn=\"message\" op_id=\"" + op + "\" owner=\"" + a + "\"";
  };
  std::vector<std::string> trace = {"#0 t=0us node-0 process.add routing_id=100 drift_ppm=0", turn(1, "01"),
                                    turn(2, "02"), turn(3, "02"),
                                    "#4 t=40us node-0 task=1 object.work id=\"player:1\" owner=\"" + a + "\""};
  scenarios::Violation v{"single-owner", "late", 40, 4};
  v.subjects.add_object("player:1");
  const Story story = tell_story(trace, v);
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{2, 3, 4}));
  EXPECT_EQ(story.folded_messages, 1u);
}

// Three or more store and network faults in a row are told as one "faults" line; a node's own kill
// and an outage's end stay lines of their own, and so do two faults in a row.
TEST(Story, TellsRunsOfStoreAndNetworkFaultsAsOneLine) {
  const std::string a = kOwnerA;
  auto at = [](int i, const std::string& node, const std::string& rest) {
    return "#" + std::to_string(i) + " t=" + std::to_string(i) + "0us " + node + " " + rest;
  };
  std::vector<std::string> trace = {
      "#0 t=0us node-0 process.add routing_id=100 drift_ppm=0",
      at(1, "node-0", "task=1 lease.registered owner=\"" + a + "\" lease_gen=1"),
      at(2, "world", "store.reply_lost node=0 op=\"read\""),
      at(3, "world", "store.refused node=0 op=\"write\""),
      at(4, "world", "store.refused node=0 op=\"read\""),
      at(5, "node-0", "kill run=1"),
      at(6, "world", "store.reply_lost node=0 op=\"read\""),
      at(7, "world", "store.outage_end server=\"store\""),
      at(8, "world", "store.request_lost node=0 op=\"read\""),
      at(9, "world", "store.request_lost node=0 op=\"read\""),
      at(10, "node-0", "task=1 object.work id=\"player:1\" owner=\"" + a + "\""),
  };
  scenarios::Violation v{"single-owner", "late", 100, 10};
  v.subjects.add_object("player:1");
  v.subjects.add_host_run(kOwnerA);
  const Story story = tell_story(trace, v);
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{1, 2, 5, 6, 7, 8, 9, 10}));
  ASSERT_GE(story.events.size(), 2u);
  EXPECT_EQ(story.events[1].line.kind, "faults");
  EXPECT_EQ(story.events[1].line.fields, "count=3 last=\"#4\" kinds=\"store.refused x2, store.reply_lost x1\"");
  EXPECT_EQ(story.collapsed_faults, 3u);
}

// Requests that only asked and were answered the same way are told once: all but the last of
// each "<mode> <outcome>" are folded; another outcome, and the key request, stay.
TEST(Story, FoldsRequestsAnsweredTheSameWayAsALaterOne) {
  auto at = [](int i, const std::string& rest) {
    return "#" + std::to_string(i) + " t=" + std::to_string(i) + "0us node-0 task=1 " + rest;
  };
  auto request = [&](int i, const std::string& op, const std::string& outcome) {
    return std::vector<std::string>{
        at(i, "request.start id=\"player:1\""),
        at(i + 1, "creation.requested op_id=\"" + op + "\" mode=\"get_or_create\" id=\"player:1\""),
        at(i + 2, "creation.finished op_id=\"" + op + "\" mode=\"get_or_create\" id=\"player:1\" outcome=\"" +
                      outcome + "\"")};
  };
  std::vector<std::string> trace = {"#0 t=0us node-0 process.add routing_id=100 drift_ppm=0"};
  for (const auto& part : {request(1, "01", "deadline_exceeded"), request(4, "02", "deadline_exceeded"),
                           request(7, "03", "store_error"), request(10, "04", "deadline_exceeded"),
                           request(13, "05", "deadline_exceeded")}) {
    trace.insert(trace.end(), part.begin(), part.end());
  }
  scenarios::Violation v{"creation-liveness", "no answer", 150, 15};
  v.subjects.add_object("player:1");
  v.subjects.add_event(14);
  const Story story = tell_story(trace, v);
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{7, 8, 9, 10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(story.folded_repeated_requests, 2u);
  EXPECT_EQ(story.folded_repeated_signatures, "get_or_create deadline_exceeded x2");
}

// Where the story ends, a request still open is folded only when every exchange it made was folded
// (its answer came); one still asking (a GetOrCreate in flight) stays.
TEST(Story, ARequestOpenWhereTheStoryEndsIsFoldedOnlyWhenItsExchangeWasAnswered) {
  auto at = [](int i, const std::string& node, int task, const std::string& rest) {
    return "#" + std::to_string(i) + " t=" + std::to_string(i) + "0us " + node + " task=" + std::to_string(task) + " " +
           rest + " id=\"chat-0\"";
  };
  std::vector<std::string> trace = {
      "#0 t=0us server-0 process.add routing_id=100 drift_ppm=0",
      at(1, "client-1", 2, "request.start"),
      at(2, "client-1", 2, "instance.request_sent op_id=\"01\""),
      at(3, "server-0", 3, "instance.request_received op_id=\"01\""),
      at(4, "server-0", 3, "instance.message_run op_id=\"01\""),
      at(5, "server-0", 3, "instance.outcome op_id=\"01\" outcome=\"delivered\""),
      at(6, "client-1", 2, "instance.reply_delivered op_id=\"01\" outcome=\"delivered\""),
      at(7, "client-1", 4, "request.start"),
      at(8, "client-1", 4, "creation.requested op_id=\"02\" mode=\"get_or_create\""),
      at(9, "server-0", 3, "instance.closing"),
  };
  scenarios::Violation v{"instance-first-message", "closing", 90, 9};
  v.subjects.add_object("chat-0");
  const Story story = tell_story(trace, v);
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{7, 8, 9}));
  EXPECT_EQ(story.folded_requests, 1u);
}

// A creation that went as it should loses its ceremony (the creation.* events of its OperationId)
// and keeps its authority writes; one whose result had to be re-read keeps everything.
TEST(Story, FoldsTheCeremonyOfACreationThatWentAsItShouldAndKeepsItsWrites) {
  const std::string a = kOwnerA;
  auto at = [](int i, const std::string& rest) {
    return "#" + std::to_string(i) + " t=" + std::to_string(i) + "0us node-0 task=1 " + rest;
  };
  auto creation = [&](int i, const std::string& kind, const std::string& op, const std::string& more = "") {
    return at(i, "creation." + kind + " op_id=\"" + op + "\" kind=\"actor\" id=\"player:1\"" + more);
  };
  std::vector<std::string> trace = {
      "#0 t=0us node-0 process.add routing_id=100 drift_ppm=0",
      creation(1, "requested", "01"),
      at(2, "authority.reserve kind=\"actor\" id=\"player:1\" owner=\"" + a + "\" version=3"),
      creation(3, "factory_run", "01"),
      at(4, "authority.commit kind=\"actor\" id=\"player:1\" owner=\"" + a + "\" version=4"),
      creation(5, "finished", "01", " outcome=\"created\""),  // went as it should: 1, 3, 5 folded
      creation(6, "requested", "02"),
      creation(7, "result_reread", "02"),
      creation(8, "finished", "02", " outcome=\"created\""),  // re-read: stays
      at(9, "object.work id=\"player:1\" owner=\"" + a + "\""),
  };
  scenarios::Violation v{"single-owner", "late", 90, 9};
  v.subjects.add_object("player:1");
  const Story story = tell_story(trace, v);
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{2, 4, 6, 7, 8, 9}));
  EXPECT_EQ(story.folded_creations, 1u);
  EXPECT_EQ(story.folded_creation_events, 3u);
}

// The store's own account of the writes the subjects' events read: every store.applied of a
// subject object's authority row and of a subject host run's lease row, marked "=" — but those a
// protocol event of the story reports (same key and StoreVersion), and all but a lease row's last
// write, are folded; other rows' writes stay out.
TEST(Story, TellsTheStoresWritesOfTheSubjectsRecords) {
  const std::string a = kOwnerA;
  const std::string b = kOwnerB;
  const std::string lease_a = "owner-lease/" + a;
  std::vector<std::string> trace = {
      "#0 t=0us node-0 process.add routing_id=100 drift_ppm=0",
      "#1 t=10us world store.applied node=0 key=\"" + lease_a + "\" mutation=\"put\" part=1 mutations=1",
      "#2 t=11us node-0 task=1 lease.registered owner=\"" + a + "\" lease_gen=1",
      "#3 t=20us world store.applied node=0 key=\"authority/actor/player:1\" mutation=\"put\" part=1 mutations=1 "
      "new_version=4",
      "#4 t=21us node-0 task=1 authority.reserve kind=\"actor\" id=\"player:1\" owner=\"" + a + "\" version=4",
      "#5 t=25us world store.applied node=0 key=\"authority/actor/player:1\" mutation=\"put\" part=1 mutations=1 "
      "new_version=6",
      "#6 t=31us world store.applied node=1 key=\"owner-lease/" + b + "\" mutation=\"put\" part=1 mutations=1",
      "#7 t=32us world store.applied node=0 key=\"authority/actor/player:2\" mutation=\"put\" part=1 mutations=1",
      "#8 t=40us world store.applied node=0 key=\"" + lease_a + "\" mutation=\"put\" part=1 mutations=1",
      "#9 t=50us world store.applied node=0 key=\"" + lease_a + "\" mutation=\"put\" part=1 mutations=1",
      "#10 t=60us node-0 task=1 object.work id=\"player:1\" owner=\"" + a + "\"",
  };
  scenarios::Violation v{"single-owner", "late", 60, 10};
  v.subjects.add_object("player:1");
  v.subjects.add_host_run(kOwnerA);
  const Story story = tell_story(trace, v);
  // #3 is told by the protocol's own #4 (same key and StoreVersion): folded; #5 (a write no event
  // reports) stays; #6 and #7 are other records'.
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{2, 4, 5, 9, 10}));
  EXPECT_EQ(story.folded_confirmed_writes, 1u);
  EXPECT_EQ(story.folded_lease_writes, 2u);  // #1 and #8: the lease row's writes before its last
  EXPECT_EQ(story.store_writes, 2u);         // #5 and #9
  std::ostringstream text;
  print_story(story, v, text);
  EXPECT_NE(text.str().find("  = #5 "), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("1 store write(s) an event of the story reports"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("2 store write(s) of a lease row"), std::string::npos) << text.str();
}

// A restarted node retrying its descriptor while its dead run's row is valid: every failed attempt
// of a host run but its last is counted, not told; the publish that succeeded stays.
TEST(Story, FoldsFailedPublishAttemptsBeforeEachHostRunsLast) {
  const std::string a = kOwnerA;
  auto publish = [&a](int index, const std::string& outcome) {
    return "#" + std::to_string(index) + " t=" + std::to_string(index * 10) + "us node-0 task=1 descriptor.published owner=\"" + a +
           "\" outcome=\"" + outcome + "\"";
  };
  std::vector<std::string> trace = {
      "#0 t=0us node-0 process.add routing_id=100 drift_ppm=0",
      publish(1, "conflict"),
      publish(2, "store_error"),
      publish(3, "conflict"),
      publish(4, "published"),
      "#5 t=50us node-0 task=1 object.work id=\"player:1\" owner=\"" + a + "\"",
  };
  scenarios::Violation v{"single-owner", "late", 50, 5};
  v.subjects.add_object("player:1");
  v.subjects.add_host_run(kOwnerA);
  const Story story = tell_story(trace, v);
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{3, 4, 5}));
  EXPECT_EQ(story.folded_publish_retries, 2u);
  std::ostringstream text;
  print_story(story, v, text);
  EXPECT_NE(text.str().find("2 failed descriptor publish attempt(s) before each host run's last"), std::string::npos)
      << text.str();
}

// A store write judged by store-truth names nothing itself: the host runs of its sentence are told.
TEST(Story, AViolatingEventThatNamesNoSubjectTellsTheHostRunsOfTheSentence) {
  scenarios::Violation v{"store-truth", "host run " + std::string(kOwnerB) + "/2 took over the descriptor", 80, 12};
  const Story story = tell_story(small_trace(), v);
  EXPECT_EQ(story.owners, (std::vector<std::string>{kOwnerB}));
  EXPECT_EQ(indexes(story), (std::vector<std::uint64_t>{4, 9, 11, 12}));
}

TEST(Story, AnEndOfRunViolationTellsTheWholeTrace) {
  scenarios::Violation v = violation_at(15);
  v.event_index = 17;  // the trace's size: found by an end-of-run check
  const Story story = tell_story(small_trace(), v);
  EXPECT_EQ(indexes(story).back(), 16u);
}

}  // namespace
}  // namespace spotcheck::replay

// Message Follow (impl/location/relocation/message_follow.h, spec §7.3): a previous owner forwards
// a message to the recorded target for MessageFollowDuration, only to a rising
// AuthorityOwnerGeneration, for at most 8 hops, with the message's own fields unchanged; a cycle is
// Unavailable and another ObjectGeneration InvalidOperation. A chain of moves over random nodes
// delivers a message that enters at any earlier owner to the current owner, or says Unavailable.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "impl/location/relocation/message_follow.h"

namespace spotcheck::location::relocation {
namespace {

using platform::RoutingId;
using platform::seconds;

constexpr RoutingId kSource = 0xa1;
constexpr RoutingId kTarget = 0xa2;
constexpr const char* kObject = "actor/player:1";

FollowRecord moved_to(RoutingId target, std::uint64_t from_owner_generation, platform::TimeUs at_us = 0) {
  return FollowRecord{9, from_owner_generation, from_owner_generation + 1, target, at_us};
}

FollowedMessage message(std::uint64_t object_generation = 9) {
  return FollowedMessage{"op-1", object_generation, "hello", "reply-7", {}, 0};
}

TEST(MessageFollow, ForwardsToTheRecordedTargetWithTheMessagesOwnFieldsUnchanged) {
  MessageFollow follow(kSource, seconds(30));
  follow.record_move(kObject, moved_to(kTarget, 3, seconds(1)));
  const FollowDecision d = follow.decide(kObject, message(), seconds(2));
  ASSERT_EQ(d.outcome, FollowOutcome::kForward);
  EXPECT_EQ(d.target, kTarget);
  EXPECT_EQ(d.message.op_id, "op-1");
  EXPECT_EQ(d.message.object_generation, 9u);
  EXPECT_EQ(d.message.payload, "hello");
  EXPECT_EQ(d.message.reply_route, "reply-7");
  EXPECT_EQ(d.message.passed, (std::vector<RoutingId>{kSource}));
  EXPECT_EQ(d.message.last_owner_generation, 4u);
}

TEST(MessageFollow, OnlyForTheDurationAndOnlyWhenOn) {
  MessageFollow follow(kSource, seconds(30));
  EXPECT_EQ(follow.decide(kObject, message(), 0).outcome, FollowOutcome::kNotFollowed) << "no record";
  follow.record_move(kObject, moved_to(kTarget, 3, seconds(1)));
  EXPECT_EQ(follow.decide(kObject, message(), seconds(31) - 1).outcome, FollowOutcome::kForward);
  EXPECT_EQ(follow.decide(kObject, message(), seconds(31)).outcome, FollowOutcome::kNotFollowed);
  follow.forget_expired(seconds(31));
  EXPECT_EQ(follow.records(), 0u);

  MessageFollow off(kSource, 0);
  off.record_move(kObject, moved_to(kTarget, 3));
  EXPECT_EQ(off.decide(kObject, message(), 0).outcome, FollowOutcome::kNotFollowed);
}

TEST(MessageFollow, AnotherObjectGenerationIsInvalidOperation) {
  MessageFollow follow(kSource, seconds(30));
  follow.record_move(kObject, moved_to(kTarget, 3));
  EXPECT_EQ(follow.decide(kObject, message(8), 0).outcome, FollowOutcome::kInvalidOperation);
}

TEST(MessageFollow, ACycleOrAGenerationThatDoesNotRiseIsUnavailable) {
  MessageFollow follow(kSource, seconds(30));
  follow.record_move(kObject, moved_to(kTarget, 3));
  FollowedMessage back = message();
  back.passed = {kSource};
  EXPECT_EQ(follow.decide(kObject, back, 0).outcome, FollowOutcome::kUnavailable) << "it passed here";
  FollowedMessage via_target = message();
  via_target.passed = {kTarget};
  EXPECT_EQ(follow.decide(kObject, via_target, 0).outcome, FollowOutcome::kUnavailable) << "it passed the target";
  FollowedMessage stale = message();
  stale.passed = {0xb7};
  stale.last_owner_generation = 4;
  EXPECT_EQ(follow.decide(kObject, stale, 0).outcome, FollowOutcome::kUnavailable) << "4 does not rise above 4";
}

TEST(MessageFollow, AtMostEightHops) {
  FollowedMessage m = message();
  for (RoutingId node = 1; node <= kFollowHopsMax + 1; ++node) {
    MessageFollow follow(node, seconds(30));
    follow.record_move(kObject, moved_to(node + 1, node));
    const FollowDecision d = follow.decide(kObject, m, 0);
    if (node <= kFollowHopsMax) {
      ASSERT_EQ(d.outcome, FollowOutcome::kForward) << "hop " << node;
      m = d.message;
    } else {
      EXPECT_EQ(d.outcome, FollowOutcome::kUnavailable) << "the ninth hop";
    }
  }
}

// An object moves along a random chain of nodes (a node may own it again later, under a higher
// AuthorityOwnerGeneration); every previous owner recorded its own move. A message entering at
// any node reaches the current owner with rising generations and its fields unchanged, or — only
// past the hop limit — is Unavailable: it never loops and is never lost silently.
RC_GTEST_PROP(MessageFollowProperties, AChainOfMovesDeliversOrSaysUnavailable, ()) {
  const auto chain = *rc::gen::container<std::vector<RoutingId>>(*rc::gen::inRange<std::size_t>(2, 14),
                                                                 rc::gen::inRange<RoutingId>(1, 7));
  std::map<RoutingId, MessageFollow> nodes;
  std::uint64_t generation = 1;
  for (std::size_t i = 0; i + 1 < chain.size(); ++i) {
    if (chain[i] == chain[i + 1]) {
      continue;  // no move
    }
    nodes.try_emplace(chain[i], chain[i], seconds(30));
    nodes.at(chain[i]).record_move(kObject, FollowRecord{9, generation, generation + 1, chain[i + 1], 0});
    ++generation;
  }
  const RoutingId owner = chain.back();
  const RoutingId entry = chain[*rc::gen::inRange<std::size_t>(0, chain.size())];
  FollowedMessage m = message();
  RoutingId at = entry;
  for (std::uint32_t step = 0; step <= kFollowHopsMax + 1; ++step) {
    if (at == owner) {
      break;  // delivered: the owner runs it (it never consults its own old record)
    }
    const auto here = nodes.find(at);
    RC_ASSERT(here != nodes.end());
    const FollowDecision d = here->second.decide(kObject, m, seconds(1));
    if (d.outcome == FollowOutcome::kUnavailable) {
      // Records of one chain raise the generation at every hop, so no cycle is possible: only the
      // hop limit makes it Unavailable.
      RC_ASSERT(m.passed.size() >= kFollowHopsMax);
      RC_TAG("unavailable");
      return;
    }
    RC_ASSERT(d.outcome == FollowOutcome::kForward);
    RC_ASSERT(d.message.last_owner_generation > m.last_owner_generation);
    RC_ASSERT(d.message.op_id == "op-1" && d.message.payload == "hello" && d.message.reply_route == "reply-7");
    RC_ASSERT(d.message.passed.size() <= kFollowHopsMax);
    m = d.message;
    at = d.target;
  }
  RC_ASSERT(at == owner);
}

}  // namespace
}  // namespace spotcheck::location::relocation

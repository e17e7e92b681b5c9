// impl/platform/event_kinds.h is the one list of event kinds: every kind is defined once there,
// no two constants share a text, and every kind is a non-empty dotted-or-plain lowercase word.
#include <gtest/gtest.h>

#include <set>
#include <string_view>

#include "impl/platform/event_kinds.h"

namespace spotcheck::kinds {
namespace {

TEST(EventKinds, EveryKindIsListedOnceWithItsOwnText) {
  std::set<std::string_view> seen;
  for (const std::string_view kind : kAll) {
    EXPECT_TRUE(seen.insert(kind).second) << "two kinds share the text " << kind;
    EXPECT_FALSE(kind.empty());
    EXPECT_EQ(kind.find_first_not_of("abcdefghijklmnopqrstuvwxyz._"), std::string_view::npos) << kind;
  }
  EXPECT_EQ(seen.size(), kAll.size());
}

TEST(EventKinds, TheListHoldsTheKindsEachLayerEmits) {
  const std::set<std::string_view> all(kAll.begin(), kAll.end());
  for (const std::string_view kind : {kLeaseRenewed, kAuthorityCommit, kCreationFactoryRun, kInstanceFactoryRun,
                                      kMessagingLateReply, kObjectWork, kFaultsStopped, kProcessKill, kNetSend,
                                      kStoreReplyLost, kViolation}) {
    EXPECT_EQ(all.count(kind), 1U) << kind;
  }
}

}  // namespace
}  // namespace spotcheck::kinds

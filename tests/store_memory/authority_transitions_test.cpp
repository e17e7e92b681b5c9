// The legal authority transitions of spec §6.1, checked over every (state, operation) pair.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <utility>

#include "model/authority_transitions.h"

namespace spotcheck::model {
namespace {

using S = AuthorityState;
using Op = AuthorityOp;

TEST(AuthorityTransitions, FollowTheSpecTableExactly) {
  // The whole table of spec §6.1; every pair not listed is Conflict.
  const std::map<std::pair<Op, S>, S> allowed = {
      {{Op::kReserve, S::kMissing}, S::kReserved}, {{Op::kCommit, S::kReserved}, S::kActive},
      {{Op::kAbort, S::kReserved}, S::kMissing},   {{Op::kPreserve, S::kActive}, S::kActive},
      {{Op::kNewOwner, S::kActive}, S::kActive},   {{Op::kDelete, S::kActive}, S::kMissing},
  };
  int legal_pairs = 0;
  for (const Op op : kAllAuthorityOps) {
    for (const S from : kAllAuthorityStates) {
      const auto it = allowed.find({op, from});
      const std::optional<S> next = authority_next_state(from, op);
      if (it == allowed.end()) {
        EXPECT_FALSE(next.has_value()) << to_string(op) << " on " << to_string(from) << " must be Conflict";
      } else {
        ASSERT_TRUE(next.has_value()) << to_string(op) << " on " << to_string(from);
        EXPECT_EQ(*next, it->second) << to_string(op) << " on " << to_string(from);
        ++legal_pairs;
      }
      for (const S to : kAllAuthorityStates) {
        EXPECT_EQ(legal(from, to, op), it != allowed.end() && it->second == to)
            << to_string(op) << ": " << to_string(from) << " -> " << to_string(to);
      }
    }
  }
  EXPECT_EQ(legal_pairs, 6);
}

TEST(AuthorityTransitions, ChangesToAReservedRecordOtherThanCommitOrAbortAreConflict) {
  for (const Op op : {Op::kPreserve, Op::kNewOwner, Op::kDelete, Op::kReserve}) {
    EXPECT_FALSE(authority_next_state(S::kReserved, op).has_value()) << to_string(op);
  }
}

TEST(AuthorityTransitions, NothingButReserveStartsFromMissing) {
  for (const Op op : kAllAuthorityOps) {
    EXPECT_EQ(authority_next_state(S::kMissing, op).has_value(), op == Op::kReserve) << to_string(op);
  }
}

TEST(AuthorityTransitions, OnlyNewOwnerChangesTheOwner) {
  for (const Op op : kAllAuthorityOps) {
    EXPECT_EQ(changes_owner(op), op == Op::kNewOwner) << to_string(op);
  }
}

}  // namespace
}  // namespace spotcheck::model

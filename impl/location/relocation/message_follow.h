// Message Follow (spec §7.3): a message that reaches the previous owner right after a move is
// forwarded to the new owner, for MessageFollowDuration (30 s by default; 0 turns it off).
//   * The previous owner uses only the source→target information it recorded when the move
//     completed; it never re-reads the store for this.
//   * A message is forwarded only to a higher AuthorityOwnerGeneration than the one it was last
//     forwarded from, and for at most kFollowHopsMax hops; a cycle (a node it already passed, or
//     a generation that does not rise) is Unavailable.
//   * A message of another ObjectGeneration than the moved object's is InvalidOperation (it was
//     meant for another incarnation of the ID).
//   * The OperationId, ObjectGeneration, payload and reply route travel unchanged; only the hop
//     bookkeeping grows.
// There is no cap on how many messages one move forwards; records are kept for the duration.
// Deterministic: records are kept in an ordered map.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "impl/platform/transport.h"
#include "impl/platform/time.h"

namespace spotcheck::location::relocation {

inline constexpr std::uint32_t kFollowHopsMax = 8;

// What the previous owner recorded when a move of one object completed.
struct FollowRecord {
  std::uint64_t object_generation = 0;
  std::uint64_t from_owner_generation = 0;  // AuthorityOwnerGeneration the source owned it at
  std::uint64_t to_owner_generation = 0;    // the target's, after the move (from + 1)
  platform::RoutingId target = 0;
  platform::TimeUs recorded_at_us = 0;
};

// A message as Message Follow carries it: the fields that travel unchanged, and the hops so far.
struct FollowedMessage {
  std::string op_id;
  std::uint64_t object_generation = 0;
  std::string payload;
  std::string reply_route;
  // Hop bookkeeping: the nodes it was forwarded from, in order, and the AuthorityOwnerGeneration of
  // the last forward (0 before the first).
  std::vector<platform::RoutingId> passed;
  std::uint64_t last_owner_generation = 0;
};

enum class FollowOutcome {
  kForward,           // send `message` (its hop bookkeeping grown) to `target`
  kNotFollowed,       // off, no record of the object, or the duration passed: answer as usual
  kUnavailable,       // a cycle, a generation that does not rise, or the hop limit
  kInvalidOperation,  // the message is for another ObjectGeneration
};
const char* to_string(FollowOutcome outcome);

struct FollowDecision {
  FollowOutcome outcome = FollowOutcome::kNotFollowed;
  platform::RoutingId target = 0;
  FollowedMessage message;  // kForward: the message to send
};

class MessageFollow {
 public:
  // `self` is this node's route (a message that passed it before is a cycle).
  MessageFollow(platform::RoutingId self, platform::TimeUs duration_us);

  // The move of `object` (its kind and ID, e.g. "actor/player:1") completed at `now_us`. A later
  // move of the same object replaces the record.
  void record_move(const std::string& object, const FollowRecord& record);
  // What to do with `message` for `object` arriving here, not owned here, at `now_us`.
  FollowDecision decide(const std::string& object, FollowedMessage message, platform::TimeUs now_us) const;
  // Whether this node handed `object` over from AuthorityOwnerGeneration `owner_generation` and the
  // record is still kept: a row that still names it at that generation is the target's to change.
  bool moved_from(const std::string& object, std::uint64_t owner_generation, platform::TimeUs now_us) const;
  // Drops the records whose duration passed (bounded memory over a long run).
  void forget_expired(platform::TimeUs now_us);
  std::size_t records() const { return _records.size(); }

 private:
  bool expired(const FollowRecord& record, platform::TimeUs now_us) const;

  platform::RoutingId _self;
  platform::TimeUs _duration_us;
  std::map<std::string, FollowRecord> _records;
};

}  // namespace spotcheck::location::relocation

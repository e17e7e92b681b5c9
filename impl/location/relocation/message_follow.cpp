#include "impl/location/relocation/message_follow.h"

#include <algorithm>
#include <utility>

#include "impl/check/check.h"

namespace spotcheck::location::relocation {

const char* to_string(FollowOutcome outcome) {
  switch (outcome) {
    case FollowOutcome::kForward:
      return "forward";
    case FollowOutcome::kNotFollowed:
      return "not_followed";
    case FollowOutcome::kUnavailable:
      return "unavailable";
    case FollowOutcome::kInvalidOperation:
      return "invalid_operation";
  }
  return "?";
}

MessageFollow::MessageFollow(platform::RoutingId self, platform::TimeUs duration_us)
    : _self(self), _duration_us(duration_us) {
  SPOTCHECK_ASSERT(_duration_us >= 0);
}

void MessageFollow::record_move(const std::string& object, const FollowRecord& record) {
  SPOTCHECK_ASSERT(!object.empty());
  SPOTCHECK_ASSERT(record.object_generation > 0);
  // Relocation keeps ObjectGeneration and raises AuthorityOwnerGeneration (§8.2).
  SPOTCHECK_ASSERT(record.to_owner_generation > record.from_owner_generation);
  SPOTCHECK_ASSERT(record.target != _self);
  if (_duration_us == 0) {
    return;  // Message Follow is off
  }
  _records.insert_or_assign(object, record);
}

bool MessageFollow::expired(const FollowRecord& record, platform::TimeUs now_us) const {
  return now_us >= record.recorded_at_us + _duration_us;
}

FollowDecision MessageFollow::decide(const std::string& object, FollowedMessage message,
                                     platform::TimeUs now_us) const {
  FollowDecision decision;
  const auto found = _records.find(object);
  if (found == _records.end() || expired(found->second, now_us)) {
    return decision;  // kNotFollowed
  }
  const FollowRecord& record = found->second;
  if (message.object_generation != record.object_generation) {
    decision.outcome = FollowOutcome::kInvalidOperation;
    return decision;
  }
  const bool passed_here = std::find(message.passed.begin(), message.passed.end(), _self) != message.passed.end();
  const bool passed_target =
      std::find(message.passed.begin(), message.passed.end(), record.target) != message.passed.end();
  const bool rises = record.to_owner_generation > message.last_owner_generation;
  if (passed_here || passed_target || !rises || message.passed.size() >= kFollowHopsMax) {
    decision.outcome = FollowOutcome::kUnavailable;
    return decision;
  }
  message.passed.push_back(_self);
  message.last_owner_generation = record.to_owner_generation;
  SPOTCHECK_ASSERT(message.passed.size() <= kFollowHopsMax);
  decision.outcome = FollowOutcome::kForward;
  decision.target = record.target;
  decision.message = std::move(message);
  return decision;
}

bool MessageFollow::moved_from(const std::string& object, std::uint64_t owner_generation,
                               platform::TimeUs now_us) const {
  const auto found = _records.find(object);
  return found != _records.end() && !expired(found->second, now_us) &&
         found->second.from_owner_generation == owner_generation;
}

void MessageFollow::forget_expired(platform::TimeUs now_us) {
  std::erase_if(_records, [&](const auto& entry) { return expired(entry.second, now_us); });
}

}  // namespace spotcheck::location::relocation

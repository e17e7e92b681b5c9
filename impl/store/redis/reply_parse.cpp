#include "impl/store/redis/reply_parse.h"

#include <charconv>
#include <string>

#include "impl/check/check.h"
#include "impl/store/redis/redis_session.h"

namespace spotcheck::store::redis {

const redisReply* reply_element(const redisReply* reply, std::size_t index) {
  if (reply == nullptr || reply->type != REDIS_REPLY_ARRAY || index >= reply->elements) {
    return nullptr;
  }
  return reply->element[index];
}

std::optional<std::int64_t> reply_int(const redisReply* reply) {
  if (reply == nullptr) {
    return std::nullopt;
  }
  if (reply->type == REDIS_REPLY_INTEGER) {
    return static_cast<std::int64_t>(reply->integer);
  }
  const std::string_view text = reply_text(reply);
  if (reply->type != REDIS_REPLY_STRING || text.empty()) {
    return std::nullopt;
  }
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::uint64_t> reply_uint(const redisReply* reply) {
  if (reply == nullptr) {
    return std::nullopt;
  }
  if (reply->type == REDIS_REPLY_INTEGER) {
    if (reply->integer < 0) {
      return std::nullopt;
    }
    return static_cast<std::uint64_t>(reply->integer);
  }
  const std::string_view text = reply_text(reply);
  if (reply->type != REDIS_REPLY_STRING || text.empty()) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

StoreError read_side_error(const ScriptCall& call) {
  switch (call.failure) {
    case CallFailure::kTimedOut:
      return StoreError{StoreErrorKind::kTimeout, call.message};
    case CallFailure::kNoTimeLeft:
      return StoreError{StoreErrorKind::kTimeout, call.message};
    case CallFailure::kNotSent:
      return StoreError{StoreErrorKind::kUnavailable, call.message};
    case CallFailure::kLost:
      return StoreError{StoreErrorKind::kUnavailable, call.message};
    case CallFailure::kNone:
      break;
  }
  SPOTCHECK_ASSERT(call.refused);
  return StoreError{call.refused_unapplied ? StoreErrorKind::kUnavailable : StoreErrorKind::kInternal, call.message};
}

std::variant<StoreError, Indeterminate> write_side_failure(const ScriptCall& call) {
  switch (call.failure) {
    case CallFailure::kTimedOut:
    case CallFailure::kLost:
      return Indeterminate{call.message};
    case CallFailure::kNoTimeLeft:
      return StoreError{StoreErrorKind::kTimeout, call.message};
    case CallFailure::kNotSent:
      return StoreError{StoreErrorKind::kUnavailable, call.message};
    case CallFailure::kNone:
      break;
  }
  SPOTCHECK_ASSERT(call.refused);
  // A refusal is an error reply: either the script never ran (BUSY, OOM, ...), or it stopped
  // on a check before its first write (docs/redis.md, "No partial effect").
  return StoreError{call.refused_unapplied ? StoreErrorKind::kUnavailable : StoreErrorKind::kInternal, call.message};
}

StoreError bad_reply(std::string_view script) {
  return StoreError{StoreErrorKind::kInternal, "unexpected reply from the redis " + std::string(script) + " script"};
}

}  // namespace spotcheck::store::redis

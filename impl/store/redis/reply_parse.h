// Small readers for script replies (arrays of strings and integers).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

#include "impl/store/redis/redis_connection.h"
#include "impl/store/spi/types.h"

namespace spotcheck::store::redis {

struct ScriptCall;

// Element `index` of an array reply, or null.
const redisReply* reply_element(const redisReply* reply, std::size_t index);
// A signed integer from an integer reply or a decimal string reply.
std::optional<std::int64_t> reply_int(const redisReply* reply);
// An unsigned integer from an integer reply or a decimal string reply.
std::optional<std::uint64_t> reply_uint(const redisReply* reply);

// The SPI result of a failed read-side script call (read, scan, relocation get): StoreError.
StoreError read_side_error(const ScriptCall& call);
// The SPI result of a failed write-side script call (write, relocation put/delete): a failure
// after sending is Indeterminate; one before sending, or a refusal, is StoreError.
std::variant<StoreError, Indeterminate> write_side_failure(const ScriptCall& call);
// write_side_failure as the SPI result type of one write operation (a variant holding both).
template <class Result>
Result from_write_failure(const ScriptCall& call) {
  return std::visit([](auto&& failure) -> Result { return failure; }, write_side_failure(call));
}

// The StoreError of a script reply that has not the shape its script returns.
StoreError bad_reply(std::string_view script);

}  // namespace spotcheck::store::redis

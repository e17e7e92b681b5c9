#include "impl/store/redis/redis_location_store.h"

#include <array>
#include <deque>
#include <string_view>
#include <vector>

#include "impl/check/check.h"
#include "impl/store/redis/reply_parse.h"
#include "impl/store/redis/scan_token.h"

namespace spotcheck::store::redis {

namespace {

constexpr std::size_t kWriteArgsPerCondition = 3;
constexpr std::size_t kWriteArgsPerMutation = 6;

StoreError bad_reply(std::string_view script) {
  return StoreError{StoreErrorKind::kInternal, "unexpected reply from the redis " + std::string(script) + " script"};
}

template <class Result>
Result from_write_failure(const ScriptCall& call) {
  return std::visit([](auto&& failure) -> Result { return failure; }, write_side_failure(call));
}

// Argument strings of one script call; string_views into it stay valid (deque never moves).
class ArgList {
 public:
  void add_view(std::string_view view) { _views.push_back(view); }
  void add(std::string text) {
    _storage.push_back(std::move(text));
    _views.push_back(_storage.back());
  }
  std::span<const std::string_view> views() const { return _views; }

 private:
  std::deque<std::string> _storage;
  std::vector<std::string_view> _views;
};

}  // namespace

RedisLocationStore::RedisLocationStore(std::shared_ptr<RedisSession> session) : _session(std::move(session)) {
  SPOTCHECK_ASSERT(_session != nullptr);
}

ReadResult RedisLocationStore::read(const Key& key, DeadlineUs deadline_us) {
  if (auto error = validate_key(key)) {
    return *error;
  }
  const std::string sha = sha256_hex(key);
  const std::array<std::string_view, 1> args{sha};
  const ScriptCall call = _session->eval(ScriptId::kRead, {}, args, deadline_us);
  if (!call.reply) {
    return read_side_error(call);
  }
  const redisReply* reply = call.reply.get();
  const auto now_ms = reply_int(reply_element(reply, 0));
  if (!now_ms) {
    return bad_reply("read");
  }
  if (reply->elements == 1) {
    return Missing{*now_ms};
  }
  const redisReply* value = reply_element(reply, 1);
  const auto version = reply_uint(reply_element(reply, 2));
  if (reply->elements != 3 || value == nullptr || value->type != REDIS_REPLY_STRING || !version || *version == 0) {
    return bad_reply("read");
  }
  return Found{Bytes(reply_text(value)), StoreVersion{*version}, *now_ms};
}

WriteResult RedisLocationStore::write(const WriteRequest& request, DeadlineUs deadline_us) {
  if (auto error = validate(request)) {
    return *error;
  }
  ArgList args;
  args.add(std::to_string(request.conditions.size()));
  for (const Condition& condition : request.conditions) {
    if (const auto* expect = std::get_if<ExpectVersion>(&condition)) {
      args.add_view("v");
      args.add(sha256_hex(expect->key));
      args.add(std::to_string(expect->version.value));
    } else {
      args.add_view("a");
      args.add(sha256_hex(std::get<ExpectAbsent>(condition).key));
      args.add_view("");
    }
  }
  args.add(std::to_string(request.mutations.size()));
  for (const Mutation& mutation : request.mutations) {
    if (const auto* put = std::get_if<Put>(&mutation)) {
      args.add_view("p");
      std::string sha = sha256_hex(put->key);
      std::string member = index_member(put->key, sha);
      args.add(std::move(sha));
      args.add(std::move(member));
      args.add_view(put->value);
      args.add_view("");
      args.add_view("");
    } else if (const auto* remove = std::get_if<Delete>(&mutation)) {
      args.add_view("d");
      std::string sha = sha256_hex(remove->key);
      std::string member = index_member(remove->key, sha);
      args.add(std::move(sha));
      args.add(std::move(member));
      args.add_view("");
      args.add_view("");
      args.add_view("");
    } else {
      const auto& increment = std::get<Increment>(mutation);
      args.add_view("i");
      std::string sha = sha256_hex(increment.key);
      std::string member = index_member(increment.key, sha);
      args.add(std::move(sha));
      args.add(std::move(member));
      args.add(std::to_string(increment.delta));
      args.add(std::to_string(increment.min));
      args.add(std::to_string(increment.max));
    }
  }
  SPOTCHECK_ASSERT(args.views().size() ==
         2 + request.conditions.size() * kWriteArgsPerCondition + request.mutations.size() * kWriteArgsPerMutation);

  const ScriptCall call = _session->eval(ScriptId::kWrite, {}, args.views(), deadline_us);
  if (!call.reply) {
    return from_write_failure<WriteResult>(call);
  }
  const redisReply* reply = call.reply.get();
  const std::string_view status = reply_text(reply_element(reply, 0));
  const auto now_ms = reply_int(reply_element(reply, 1));
  if (!now_ms) {
    return bad_reply("write");
  }
  if (status == "conflict") {
    const std::string_view reason = reply_text(reply_element(reply, 2));
    const auto index = reply_int(reply_element(reply, 3));
    if (!index || *index < 0) {
      return bad_reply("write");
    }
    Conflict conflict;
    conflict.reason = reason == "b" ? Conflict::Reason::kBoundExceeded : Conflict::Reason::kVersionMismatch;
    conflict.index = static_cast<std::size_t>(*index);
    conflict.now_ms = *now_ms;
    SPOTCHECK_ASSERT(conflict.reason == Conflict::Reason::kBoundExceeded ? conflict.index < request.mutations.size()
                                                               : conflict.index < request.conditions.size());
    return conflict;
  }
  if (status == "badcounter") {
    const auto index = reply_int(reply_element(reply, 2));
    return StoreError{StoreErrorKind::kInvalidArgument,
                      "mutation " + std::to_string(index.value_or(-1)) +
                          ": Increment of a value that is not the decimal text of a signed 64-bit integer"};
  }
  if (status != "applied" || reply->elements != 2 + 2 * request.mutations.size()) {
    return bad_reply("write");
  }
  Applied applied;
  applied.now_ms = *now_ms;
  applied.outcomes.reserve(request.mutations.size());
  for (std::size_t i = 0; i < request.mutations.size(); ++i) {
    const auto version = reply_uint(reply_element(reply, 2 + 2 * i));
    const auto counter = reply_int(reply_element(reply, 3 + 2 * i));
    if (!version || !counter) {
      return bad_reply("write");
    }
    const bool is_delete = std::holds_alternative<Delete>(request.mutations[i]);
    SPOTCHECK_ASSERT(is_delete == (*version == 0));
    (void)is_delete;
    applied.outcomes.push_back(MutationOutcome{StoreVersion{*version}, *counter});
  }
  return applied;
}

ScanResult RedisLocationStore::scan(const ScanRequest& request, DeadlineUs deadline_us) {
  if (auto error = validate(request)) {
    return *error;
  }
  const ScanBinding binding{_session->key_namespace(), request.start, request.end};
  std::optional<ScanCursor> cursor;
  if (request.continuation.has_value()) {
    cursor = decode_continuation(*request.continuation, _session->scan_secret(), binding);
  }
  ArgList args;
  if (request.continuation.has_value() && !cursor.has_value()) {
    args.add_view("expired");
  } else {
    args.add_view(cursor ? "next" : "first");
    args.add(std::to_string(_session->options().scan_continuation_ttl_ms));
    args.add(std::to_string(request.max_entries));
    args.add(std::to_string(kMaxScanPageBytes));
    args.add(std::to_string(_session->options().scan_examine_budget));
    if (cursor) {
      args.add("(" + index_member(cursor->last_key));
    } else {
      args.add(request.start.empty() ? std::string("-") : "[" + index_bound(request.start));
    }
    args.add(request.end.empty() ? std::string("+") : "(" + index_bound(request.end));
    args.add(cursor ? std::to_string(cursor->scan_id) : std::string());
    args.add(cursor ? std::to_string(cursor->snapshot) : std::string());
  }

  const ScriptCall call = _session->eval(ScriptId::kScan, {}, args.views(), deadline_us);
  if (!call.reply) {
    return read_side_error(call);
  }
  const redisReply* reply = call.reply.get();
  const std::string_view status = reply_text(reply_element(reply, 0));
  const auto now_ms = reply_int(reply_element(reply, 1));
  if (!now_ms) {
    return bad_reply("scan");
  }
  if (status == "expired") {
    return ScanExpired{*now_ms};
  }
  constexpr std::size_t kHeader = 6;
  const auto scan_id = reply_uint(reply_element(reply, 2));
  const auto snapshot = reply_uint(reply_element(reply, 3));
  const bool done = reply_text(reply_element(reply, 4)) == "1";
  const std::string_view last_member = reply_text(reply_element(reply, 5));
  if (status != "page" || !scan_id || !snapshot || reply->elements < kHeader || (reply->elements - kHeader) % 3 != 0) {
    return bad_reply("scan");
  }
  ScanPage page;
  page.now_ms = *now_ms;
  const std::size_t count = (reply->elements - kHeader) / 3;
  if (count > request.max_entries) {
    return bad_reply("scan");
  }
  page.entries.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t at = kHeader + 3 * i;
    auto key = key_of_index_member(reply_text(reply_element(reply, at)));
    const auto version = reply_uint(reply_element(reply, at + 2));
    if (!key || !version || *version == 0 || *version > *snapshot) {
      return bad_reply("scan");
    }
    SPOTCHECK_ASSERT(page.entries.empty() || page.entries.back().key < *key);
    page.entries.push_back(ScanEntry{std::move(*key), Bytes(reply_text(reply_element(reply, at + 1))), StoreVersion{*version}});
  }
  if (!done) {
    auto last_key = key_of_index_member(last_member);
    if (!last_key || page.entries.empty()) {
      return bad_reply("scan");
    }
    page.continuation = encode_continuation(ScanCursor{*scan_id, *snapshot, std::move(*last_key)},
                                            _session->scan_secret(), binding);
  }
  return page;
}

}  // namespace spotcheck::store::redis

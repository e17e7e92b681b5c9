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

// Argument strings of one script call; string_views into it stay valid (deque never moves
// its elements, not even when the ArgList itself is moved). Not copyable: a copy's views would
// point into the original.
class ArgList {
 public:
  ArgList() = default;
  ArgList(ArgList&&) = default;
  ArgList(const ArgList&) = delete;
  ArgList& operator=(const ArgList&) = delete;

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

// ---- write: arguments ---------------------------------------------------------------------------

// One condition's kWriteArgsPerCondition arguments: "v" sha version (ExpectVersion), "a" sha ""
// (ExpectAbsent).
void append_condition(ArgList& args, const Condition& condition) {
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

// The op letter, the key's sha and its index member: the first three arguments of a mutation.
void append_mutation_key(ArgList& args, std::string_view op, const Key& key) {
  args.add_view(op);
  std::string sha = sha256_hex(key);
  std::string member = index_member(key, sha);
  args.add(std::move(sha));
  args.add(std::move(member));
}

// One mutation's kWriteArgsPerMutation arguments: "p" sha member value "" "" (Put),
// "d" sha member "" "" "" (Delete), "i" sha member delta min max (Increment).
void append_mutation(ArgList& args, const Mutation& mutation) {
  if (const auto* put = std::get_if<Put>(&mutation)) {
    append_mutation_key(args, "p", put->key);
    args.add_view(put->value);
    args.add_view("");
    args.add_view("");
  } else if (const auto* remove = std::get_if<Delete>(&mutation)) {
    append_mutation_key(args, "d", remove->key);
    args.add_view("");
    args.add_view("");
    args.add_view("");
  } else {
    const auto& increment = std::get<Increment>(mutation);
    append_mutation_key(args, "i", increment.key);
    args.add(std::to_string(increment.delta));
    args.add(std::to_string(increment.min));
    args.add(std::to_string(increment.max));
  }
}

// The write script's arguments: the condition count, the conditions, the mutation count, the
// mutations. Views into `request` (Put values): it must outlive the list.
ArgList write_args(const WriteRequest& request) {
  ArgList args;
  args.add(std::to_string(request.conditions.size()));
  for (const Condition& condition : request.conditions) {
    append_condition(args, condition);
  }
  args.add(std::to_string(request.mutations.size()));
  for (const Mutation& mutation : request.mutations) {
    append_mutation(args, mutation);
  }
  SPOTCHECK_ASSERT(args.views().size() ==
         2 + request.conditions.size() * kWriteArgsPerCondition + request.mutations.size() * kWriteArgsPerMutation);
  return args;
}

// ---- write: reply -------------------------------------------------------------------------------

// "conflict" now reason index: the failing condition (version mismatch) or mutation (bound exceeded).
WriteResult conflict_from_reply(const redisReply* reply, StoreNowMs now_ms, const WriteRequest& request) {
  const std::string_view reason = reply_text(reply_element(reply, 2));
  const auto index = reply_int(reply_element(reply, 3));
  if (!index || *index < 0) {
    return bad_reply("write");
  }
  Conflict conflict;
  conflict.reason = reason == "b" ? Conflict::Reason::kBoundExceeded : Conflict::Reason::kVersionMismatch;
  conflict.index = static_cast<std::size_t>(*index);
  conflict.now_ms = now_ms;
  SPOTCHECK_ASSERT(conflict.reason == Conflict::Reason::kBoundExceeded ? conflict.index < request.mutations.size()
                                                             : conflict.index < request.conditions.size());
  return conflict;
}

// "badcounter" now index: an Increment of a value that is not a counter.
StoreError bad_counter_error(const redisReply* reply) {
  const auto index = reply_int(reply_element(reply, 2));
  return StoreError{StoreErrorKind::kInvalidArgument,
                    "mutation " + std::to_string(index.value_or(-1)) +
                        ": Increment of a value that is not the decimal text of a signed 64-bit integer"};
}

// "applied" now, then (StoreVersion, counter) per mutation; a Delete's StoreVersion is zero.
WriteResult applied_from_reply(const redisReply* reply, StoreNowMs now_ms, const WriteRequest& request) {
  if (reply->elements != 2 + 2 * request.mutations.size()) {
    return bad_reply("write");
  }
  Applied applied;
  applied.now_ms = now_ms;
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

// The write script's reply: status, StoreNow, then what the status says.
WriteResult write_result_from_reply(const redisReply* reply, const WriteRequest& request) {
  const std::string_view status = reply_text(reply_element(reply, 0));
  const auto now_ms = reply_int(reply_element(reply, 1));
  if (!now_ms) {
    return bad_reply("write");
  }
  if (status == "conflict") {
    return conflict_from_reply(reply, *now_ms, request);
  }
  if (status == "badcounter") {
    return bad_counter_error(reply);
  }
  if (status != "applied") {
    return bad_reply("write");
  }
  return applied_from_reply(reply, *now_ms, request);
}

// ---- scan ---------------------------------------------------------------------------------------

// A page reply: status, StoreNow, scan id, snapshot, done, last member, then three per entry.
constexpr std::size_t kScanReplyHeader = 6;

// The scan script's arguments: "expired" alone for a continuation that does not decode (`cursor`
// empty although the request has one); else "first" or "next", the limits, the index range still
// to scan and the cursor's scan id and snapshot.
ArgList scan_args(const ScanRequest& request, const std::optional<ScanCursor>& cursor,
                  const RedisStoreOptions& options) {
  ArgList args;
  if (request.continuation.has_value() && !cursor.has_value()) {
    args.add_view("expired");
    return args;
  }
  args.add_view(cursor ? "next" : "first");
  args.add(std::to_string(options.scan_continuation_ttl_ms));
  args.add(std::to_string(request.max_entries));
  args.add(std::to_string(kMaxScanPageBytes));
  args.add(std::to_string(options.scan_examine_budget));
  if (cursor) {
    args.add("(" + index_member(cursor->last_key));
  } else {
    args.add(request.start.empty() ? std::string("-") : "[" + index_bound(request.start));
  }
  args.add(request.end.empty() ? std::string("+") : "(" + index_bound(request.end));
  args.add(cursor ? std::to_string(cursor->scan_id) : std::string());
  args.add(cursor ? std::to_string(cursor->snapshot) : std::string());
  return args;
}

// The page's `count` entries, in key order, none newer than the snapshot; nullopt when one is
// malformed.
std::optional<std::vector<ScanEntry>> page_entries(const redisReply* reply, std::size_t count,
                                                   std::uint64_t snapshot) {
  std::vector<ScanEntry> entries;
  entries.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t at = kScanReplyHeader + 3 * i;
    auto key = key_of_index_member(reply_text(reply_element(reply, at)));
    const auto version = reply_uint(reply_element(reply, at + 2));
    if (!key || !version || *version == 0 || *version > snapshot) {
      return std::nullopt;
    }
    SPOTCHECK_ASSERT(entries.empty() || entries.back().key < *key);
    entries.push_back(ScanEntry{std::move(*key), Bytes(reply_text(reply_element(reply, at + 1))), StoreVersion{*version}});
  }
  return entries;
}

// A "page" reply: its entries, and unless it is the last page a continuation token naming the
// scan, its snapshot and the last key returned.
ScanResult page_from_reply(const redisReply* reply, std::string_view status, StoreNowMs now_ms,
                           const ScanRequest& request, std::string_view secret, const ScanBinding& binding) {
  const auto scan_id = reply_uint(reply_element(reply, 2));
  const auto snapshot = reply_uint(reply_element(reply, 3));
  const bool done = reply_text(reply_element(reply, 4)) == "1";
  const std::string_view last_member = reply_text(reply_element(reply, 5));
  if (status != "page" || !scan_id || !snapshot || reply->elements < kScanReplyHeader ||
      (reply->elements - kScanReplyHeader) % 3 != 0) {
    return bad_reply("scan");
  }
  ScanPage page;
  page.now_ms = now_ms;
  const std::size_t count = (reply->elements - kScanReplyHeader) / 3;
  if (count > request.max_entries) {
    return bad_reply("scan");
  }
  auto entries = page_entries(reply, count, *snapshot);
  if (!entries) {
    return bad_reply("scan");
  }
  page.entries = std::move(*entries);
  if (!done) {
    auto last_key = key_of_index_member(last_member);
    if (!last_key || page.entries.empty()) {
      return bad_reply("scan");
    }
    page.continuation = encode_continuation(ScanCursor{*scan_id, *snapshot, std::move(*last_key)}, secret, binding);
  }
  return page;
}

}  // namespace

RedisLocationStore::RedisLocationStore(std::shared_ptr<RedisSession> session)
    : _session(std::move(session)), _sequence_key(sequence_key(_session->key_namespace())) {
  SPOTCHECK_ASSERT(_session != nullptr);
}

ReadResult RedisLocationStore::read(const Key& key, DeadlineUs deadline_us) {
  if (auto error = validate_key(key)) {
    return *error;
  }
  const std::string sha = sha256_hex(key);
  const std::array<std::string_view, 1> args{sha};
  const std::array<std::string_view, 1> keys{_sequence_key};
  const ScriptCall call = _session->eval(ScriptId::kRead, keys, args, deadline_us);
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
  if (auto refused = _session->refuse_if_read_only()) {
    return *refused;
  }
  const ArgList args = write_args(request);
  const std::array<std::string_view, 1> keys{_sequence_key};
  const ScriptCall call = _session->eval(ScriptId::kWrite, keys, args.views(), deadline_us);
  if (!call.reply) {
    return from_write_failure<WriteResult>(call);
  }
  return write_result_from_reply(call.reply.get(), request);
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
  const ArgList args = scan_args(request, cursor, _session->options());
  const std::array<std::string_view, 1> keys{_sequence_key};
  const ScriptCall call = _session->eval(ScriptId::kScan, keys, args.views(), deadline_us);
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
  return page_from_reply(reply, status, *now_ms, request, _session->scan_secret(), binding);
}

}  // namespace spotcheck::store::redis

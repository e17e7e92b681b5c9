#include "impl/store/redis/redis_relocation_store.h"

#include <array>

#include "impl/check/check.h"
#include "impl/store/redis/reply_parse.h"
#include "impl/store/spi/location_store.h"  // validate_key

namespace spotcheck::store::redis {

RedisRelocationStore::RedisRelocationStore(std::shared_ptr<RedisSession> session) : _session(std::move(session)) {
  SPOTCHECK_ASSERT(_session != nullptr);
}

PutResult RedisRelocationStore::put(const PayloadPut& request, DeadlineUs deadline_us) {
  if (auto error = validate_key(request.reference)) {
    return *error;
  }
  if (auto refused = _session->refuse_if_read_only()) {
    return *refused;
  }
  if (request.payload.size() > kMaxValueBytes) {
    return StoreError{StoreErrorKind::kInvalidArgument, "payload larger than the provider limit"};
  }
  if (request.retention_ms < 0) {
    return StoreError{StoreErrorKind::kInvalidArgument, "retention_ms must not be negative"};
  }
  const std::string key = relocation_key(_session->key_namespace(), request.reference);
  const std::string retention = std::to_string(request.retention_ms);
  const std::array<std::string_view, 1> keys{key};
  const std::array<std::string_view, 2> args{request.payload, retention};
  const ScriptCall call = _session->eval(ScriptId::kRelocationPut, keys, args, deadline_us);
  if (!call.reply) {
    return from_write_failure<PutResult>(call);
  }
  const std::string_view status = reply_text(reply_element(call.reply.get(), 0));
  const auto now_ms = reply_int(reply_element(call.reply.get(), 1));
  if (!now_ms) {
    return bad_reply("relocation-put");
  }
  if (status == "stored") {
    return Stored{false, *now_ms};
  }
  if (status == "present") {
    return Stored{true, *now_ms};
  }
  if (status == "conflict") {
    return PayloadConflict{*now_ms};
  }
  return bad_reply("relocation-put");
}

GetResult RedisRelocationStore::get(const Key& reference, DeadlineUs deadline_us) {
  if (auto error = validate_key(reference)) {
    return *error;
  }
  const std::string key = relocation_key(_session->key_namespace(), reference);
  const std::array<std::string_view, 1> keys{key};
  const ScriptCall call = _session->eval(ScriptId::kRelocationGet, keys, {}, deadline_us);
  if (!call.reply) {
    return read_side_error(call);
  }
  const redisReply* reply = call.reply.get();
  const auto now_ms = reply_int(reply_element(reply, 0));
  if (!now_ms) {
    return bad_reply("relocation-get");
  }
  if (reply->elements == 1) {
    return PayloadMissing{*now_ms};
  }
  const redisReply* payload = reply_element(reply, 1);
  if (reply->elements != 2 || payload == nullptr || payload->type != REDIS_REPLY_STRING) {
    return bad_reply("relocation-get");
  }
  return PayloadFound{Bytes(reply_text(payload)), *now_ms};
}

DeleteResult RedisRelocationStore::remove(const Key& reference, DeadlineUs deadline_us) {
  if (auto error = validate_key(reference)) {
    return *error;
  }
  if (auto refused = _session->refuse_if_read_only()) {
    return *refused;
  }
  const std::string key = relocation_key(_session->key_namespace(), reference);
  const std::array<std::string_view, 1> keys{key};
  const ScriptCall call = _session->eval(ScriptId::kRelocationDelete, keys, {}, deadline_us);
  if (!call.reply) {
    return from_write_failure<DeleteResult>(call);
  }
  const auto now_ms = reply_int(reply_element(call.reply.get(), 0));
  const auto removed = reply_int(reply_element(call.reply.get(), 1));
  if (!now_ms || !removed || *removed < 0 || *removed > 1) {
    return bad_reply("relocation-delete");
  }
  return Deleted{*removed == 1, *now_ms};
}

}  // namespace spotcheck::store::redis

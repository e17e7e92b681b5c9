#include "impl/location/creation/stored_records.h"

#include <utility>

#include <nlohmann/json.hpp>

#include "impl/check/check.h"
#include "impl/records/base64.h"
#include "impl/records/validate.h"

namespace spotcheck::location::creation {

using nlohmann::json;

namespace {

struct ShapeError {};

std::string text_of(const json& j, const char* key) {
  const json& value = j.at(key);
  if (!value.is_string()) {
    throw ShapeError{};
  }
  return value.get<std::string>();
}

std::uint64_t decimal_of(const json& j, const char* key) {
  const std::string text = text_of(j, key);
  if (text.empty() || text.size() > 19 || (text.size() > 1 && text[0] == '0')) {
    throw ShapeError{};
  }
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') {
      throw ShapeError{};
    }
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

std::string bytes_of(const json& j, const char* key) {
  records::Base64Decoded decoded = records::base64_decode(text_of(j, key));
  if (decoded.status != records::Base64Status::kOk) {
    throw ShapeError{};
  }
  return std::move(decoded.bytes);
}

json operation_json(const OperationKey& key) {
  return json{{"sourceRid", key.source_rid_hex},
              {"sourceLeaseGeneration", std::to_string(key.source_lease_generation)},
              {"operationId", key.op_id.hex()}};
}

OperationKey operation_of(const json& j) {
  const json& o = j.at("operation");
  OperationKey key;
  key.source_rid_hex = text_of(o, "sourceRid");
  key.source_lease_generation = decimal_of(o, "sourceLeaseGeneration");
  const auto op = messaging::OperationId::parse(text_of(o, "operationId"));
  if (!op.has_value() || key.source_rid_hex.empty() || key.source_lease_generation == 0) {
    throw ShapeError{};
  }
  key.op_id = *op;
  return key;
}

template <class Decode>
auto decode_with(std::string_view bytes, std::string_view format, Decode&& decode)
    -> std::optional<decltype(decode(std::declval<const json&>()))> {
  const json j = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return std::nullopt;
  }
  try {
    if (text_of(j, "format") != format) {
      return std::nullopt;  // an unrecognised version fails explicitly, never guessed
    }
    return decode(j);
  } catch (const json::exception&) {
    return std::nullopt;
  } catch (const ShapeError&) {
    return std::nullopt;
  }
}

}  // namespace

std::string encode(const CreationRequestRecord& r) {
  SPOTCHECK_ASSERT(r.deadline_store_ms > 0);
  SPOTCHECK_ASSERT(!records::check_identity("id", r.id).has_value());
  const json j{{"format", std::string(kRequestFormat)},
               {"operation", operation_json(r.operation)},
               {"source", json{{"ownerId", r.source.owner_id},
                               {"leaseGeneration", std::to_string(r.source.lease_generation)}}},
               {"mode", std::string(to_string(r.mode))},
               {"objectKind", std::string(records::to_string(r.object_kind))},
               {"id", r.id},
               {"stableType", r.stable_type},
               {"args", records::base64_encode(r.args)},
               {"deadlineEpochMs", std::to_string(r.deadline_store_ms)},
               {"reservationId", r.reservation_id}};
  return j.dump();
}

std::optional<CreationRequestRecord> decode_creation_request(std::string_view bytes) {
  return decode_with(bytes, kRequestFormat, [](const json& j) {
    CreationRequestRecord r;
    r.operation = operation_of(j);
    const json& source = j.at("source");
    r.source = messaging::WireHostRun{text_of(source, "ownerId"), decimal_of(source, "leaseGeneration")};
    const std::string mode = text_of(j, "mode");
    if (mode != "create" && mode != "get_or_create") {
      throw ShapeError{};
    }
    r.mode = mode == "create" ? CreateMode::kCreate : CreateMode::kGetOrCreate;
    const auto kind = records::parse_object_kind(text_of(j, "objectKind"));
    if (!kind.has_value()) {
      throw ShapeError{};
    }
    r.object_kind = *kind;
    r.id = text_of(j, "id");
    r.stable_type = text_of(j, "stableType");
    r.args = bytes_of(j, "args");
    r.deadline_store_ms = static_cast<std::int64_t>(decimal_of(j, "deadlineEpochMs"));
    r.reservation_id = text_of(j, "reservationId");
    return r;
  });
}

std::string encode(const FinalResultRecord& r) {
  SPOTCHECK_ASSERT(r.outcome == ReplyOutcome::kCreated || r.outcome == ReplyOutcome::kRejected ||
                  r.outcome == ReplyOutcome::kFailed);
  SPOTCHECK_ASSERT(r.ref.has_value() == (r.outcome == ReplyOutcome::kCreated));
  SPOTCHECK_ASSERT(r.retain_until_ms > 0);
  json j{{"format", std::string(kTerminalFormat)},
         {"operation", operation_json(r.operation)},
         {"outcome", std::string(messaging::to_string(r.outcome))},
         {"stableType", r.stable_type},
         {"message", r.message},
         {"appReply", records::base64_encode(r.app_reply)},
         {"retainUntilEpochMs", std::to_string(r.retain_until_ms)},
         {"requestSha256", r.request_sha256}};
  if (r.ref.has_value()) {
    j["ref"] = json{{"kind", std::string(records::to_string(r.ref->kind))},
                    {"id", r.ref->id},
                    {"objectGeneration", std::to_string(r.ref->object_generation)},
                    {"meshName", r.ref->mesh_name},
                    {"nodeRid", r.ref->node_rid_hex}};
  } else {
    j["ref"] = nullptr;
  }
  return j.dump();
}

std::optional<FinalResultRecord> decode_final_result(std::string_view bytes) {
  return decode_with(bytes, kTerminalFormat, [](const json& j) {
    FinalResultRecord r;
    r.operation = operation_of(j);
    const auto outcome = messaging::parse_reply_outcome(text_of(j, "outcome"));
    if (!outcome.has_value() || (*outcome != ReplyOutcome::kCreated && *outcome != ReplyOutcome::kRejected &&
                                 *outcome != ReplyOutcome::kFailed)) {
      throw ShapeError{};
    }
    r.outcome = *outcome;
    r.stable_type = text_of(j, "stableType");
    r.message = text_of(j, "message");
    r.app_reply = bytes_of(j, "appReply");
    r.retain_until_ms = static_cast<std::int64_t>(decimal_of(j, "retainUntilEpochMs"));
    r.request_sha256 = text_of(j, "requestSha256");
    const json& ref = j.at("ref");
    if (!ref.is_null()) {
      const std::string kind = text_of(ref, "kind");
      if (kind != "actor" && kind != "spot") {
        throw ShapeError{};
      }
      r.ref = messaging::WireRef{kind == "actor" ? records::AuthorityKind::kActor : records::AuthorityKind::kSpot,
                                 text_of(ref, "id"), decimal_of(ref, "objectGeneration"), text_of(ref, "meshName"),
                                 text_of(ref, "nodeRid")};
    }
    if (r.ref.has_value() != (r.outcome == ReplyOutcome::kCreated)) {
      throw ShapeError{};
    }
    return r;
  });
}

}  // namespace spotcheck::location::creation

#include "impl/location/messaging/commands.h"

#include <nlohmann/json.hpp>

#include "impl/location/check.h"

namespace spotcheck::location::messaging {

using nlohmann::json;

namespace {

constexpr std::string_view kOutcomeNames[] = {"existing", "created",   "rejected",
                                              "failed",   "cancelled", "closed",
                                              "not_found", "stale_generation", "moving"};
constexpr std::size_t kOutcomeCount = sizeof(kOutcomeNames) / sizeof(kOutcomeNames[0]);

json host_run_json(const WireHostRun& run) {
  return json{{"owner", run.owner_id}, {"leaseGen", run.lease_generation}};
}

// Readers that throw (json::exception or ShapeError) on a wrong shape; decode() turns that into
// nullopt.
struct ShapeError {};

std::string text_of(const json& object, const char* key) { return object.at(key).get<std::string>(); }
std::uint64_t u64_of(const json& object, const char* key) {
  const json& value = object.at(key);
  if (!value.is_number_unsigned()) {
    throw ShapeError{};
  }
  return value.get<std::uint64_t>();
}
std::int64_t i64_of(const json& object, const char* key) {
  const json& value = object.at(key);
  if (!value.is_number_integer()) {
    throw ShapeError{};
  }
  return value.get<std::int64_t>();
}

WireHostRun host_run_of(const json& object, const char* key) {
  const json& run = object.at(key);
  return WireHostRun{text_of(run, "owner"), u64_of(run, "leaseGen")};
}

std::optional<OperationId> op_of(const json& object) { return OperationId::parse(text_of(object, "op")); }

std::optional<records::AuthorityKind> authority_kind_of(std::string_view text) {
  if (text == "actor") {
    return records::AuthorityKind::kActor;
  }
  if (text == "spot") {
    return records::AuthorityKind::kSpot;
  }
  return std::nullopt;
}

json encode_create(const CreateCommand& c) {
  LOCATION_ASSERT(c.object_kind != records::ObjectKind::kInstanceSpot);
  return json{{"cmd", static_cast<std::uint32_t>(c.code())},
              {"request", c.request},
              {"op", c.op_id.hex()},
              {"sourceRid", c.source_rid_hex},
              {"source", host_run_json(c.source)},
              {"target", host_run_json(c.target)},
              {"objectKind", std::string(records::to_string(c.object_kind))},
              {"id", c.id},
              {"stableType", c.stable_type},
              {"objectGen", c.object_generation},
              {"storeVersion", c.store_version},
              {"reservationId", c.reservation_id},
              {"deadlineStoreMs", c.deadline_store_ms}};
}

json encode_close(const CloseCommand& c) {
  return json{{"cmd", static_cast<std::uint32_t>(CommandCode::kUserSpotClose)},
              {"request", c.request},
              {"op", c.op_id.hex()},
              {"sourceRid", c.source_rid_hex},
              {"source", host_run_json(c.source)},
              {"target", host_run_json(c.target)},
              {"kind", std::string(records::to_string(c.kind))},
              {"id", c.id},
              {"objectGen", c.object_generation},
              {"ownerGen", c.owner_generation},
              {"storeVersion", c.store_version},
              {"deadlineStoreMs", c.deadline_store_ms}};
}

json encode_reply(const FinalResultReply& r) {
  json out{{"cmd", static_cast<std::uint32_t>(CommandCode::kFinalResult)},
           {"request", r.request},
           {"op", r.op_id.hex()},
           {"outcome", std::string(to_string(r.outcome))},
           {"stableType", r.stable_type},
           {"message", r.message},
           {"appReply", r.app_reply}};
  if (r.ref.has_value()) {
    out["ref"] = json{{"kind", std::string(records::to_string(r.ref->kind))},
                      {"id", r.ref->id},
                      {"objectGen", r.ref->object_generation},
                      {"mesh", r.ref->mesh_name},
                      {"nodeRid", r.ref->node_rid_hex}};
  } else {
    out["ref"] = nullptr;
  }
  return out;
}

std::optional<Command> decode_create(const json& j, CommandCode code) {
  CreateCommand c;
  c.request = u64_of(j, "request");
  const auto op = op_of(j);
  const auto kind = records::parse_object_kind(text_of(j, "objectKind"));
  if (!op.has_value() || !kind.has_value()) {
    return std::nullopt;
  }
  c.op_id = *op;
  c.object_kind = *kind;
  if (c.code() != code) {
    return std::nullopt;  // 49 carries an actor, 47 a User Spot
  }
  c.source_rid_hex = text_of(j, "sourceRid");
  c.source = host_run_of(j, "source");
  c.target = host_run_of(j, "target");
  c.id = text_of(j, "id");
  c.stable_type = text_of(j, "stableType");
  c.object_generation = u64_of(j, "objectGen");
  c.store_version = u64_of(j, "storeVersion");
  c.reservation_id = text_of(j, "reservationId");
  c.deadline_store_ms = i64_of(j, "deadlineStoreMs");
  return Command{std::move(c)};
}

std::optional<Command> decode_close(const json& j) {
  CloseCommand c;
  c.request = u64_of(j, "request");
  const auto op = op_of(j);
  const auto kind = authority_kind_of(text_of(j, "kind"));
  if (!op.has_value() || !kind.has_value()) {
    return std::nullopt;
  }
  c.op_id = *op;
  c.kind = *kind;
  c.source_rid_hex = text_of(j, "sourceRid");
  c.source = host_run_of(j, "source");
  c.target = host_run_of(j, "target");
  c.id = text_of(j, "id");
  c.object_generation = u64_of(j, "objectGen");
  c.owner_generation = u64_of(j, "ownerGen");
  c.store_version = u64_of(j, "storeVersion");
  c.deadline_store_ms = i64_of(j, "deadlineStoreMs");
  return Command{std::move(c)};
}

std::optional<Command> decode_reply(const json& j) {
  FinalResultReply r;
  r.request = u64_of(j, "request");
  const auto op = op_of(j);
  const auto outcome = parse_reply_outcome(text_of(j, "outcome"));
  if (!op.has_value() || !outcome.has_value()) {
    return std::nullopt;
  }
  r.op_id = *op;
  r.outcome = *outcome;
  r.stable_type = text_of(j, "stableType");
  r.message = text_of(j, "message");
  r.app_reply = text_of(j, "appReply");
  const json& ref = j.at("ref");
  if (!ref.is_null()) {
    const auto kind = authority_kind_of(text_of(ref, "kind"));
    if (!kind.has_value()) {
      return std::nullopt;
    }
    r.ref = WireRef{*kind, text_of(ref, "id"), u64_of(ref, "objectGen"), text_of(ref, "mesh"),
                    text_of(ref, "nodeRid")};
  }
  return Command{std::move(r)};
}

}  // namespace

std::string_view to_string(ReplyOutcome outcome) {
  const auto index = static_cast<std::size_t>(outcome);
  LOCATION_ASSERT(index < kOutcomeCount);
  return kOutcomeNames[index];
}

std::optional<ReplyOutcome> parse_reply_outcome(std::string_view text) {
  for (std::size_t i = 0; i < kOutcomeCount; ++i) {
    if (kOutcomeNames[i] == text) {
      return static_cast<ReplyOutcome>(i);
    }
  }
  return std::nullopt;
}

std::string encode(const Command& command) {
  json j;
  if (const auto* create = std::get_if<CreateCommand>(&command)) {
    j = encode_create(*create);
  } else if (const auto* close = std::get_if<CloseCommand>(&command)) {
    j = encode_close(*close);
  } else {
    j = encode_reply(std::get<FinalResultReply>(command));
  }
  return j.dump();
}

std::optional<Command> decode(std::string_view bytes) {
  const json j = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return std::nullopt;
  }
  try {
    const std::uint64_t cmd = u64_of(j, "cmd");
    switch (cmd) {
      case static_cast<std::uint64_t>(CommandCode::kActorCreate):
        return decode_create(j, CommandCode::kActorCreate);
      case static_cast<std::uint64_t>(CommandCode::kUserSpotCreate):
        return decode_create(j, CommandCode::kUserSpotCreate);
      case static_cast<std::uint64_t>(CommandCode::kUserSpotClose):
        return decode_close(j);
      case static_cast<std::uint64_t>(CommandCode::kFinalResult):
        return decode_reply(j);
      default:
        return std::nullopt;
    }
  } catch (const json::exception&) {
    return std::nullopt;
  } catch (const ShapeError&) {
    return std::nullopt;
  }
}

}  // namespace spotcheck::location::messaging

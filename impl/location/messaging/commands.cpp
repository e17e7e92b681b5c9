#include "impl/location/messaging/commands.h"

#include <concepts>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "impl/check/check.h"

namespace spotcheck::location::messaging {

using nlohmann::json;

namespace {

constexpr std::string_view kOutcomeNames[] = {"existing", "created",   "rejected",
                                              "failed",   "cancelled", "closed",
                                              "not_found", "stale_generation", "moving"};
constexpr std::size_t kOutcomeCount = sizeof(kOutcomeNames) / sizeof(kOutcomeNames[0]);
constexpr std::string_view kMessageOutcomeNames[] = {"ran", "not_here", "stale_generation", "not_admitted",
                                                     "no_handler"};
constexpr std::size_t kMessageOutcomeCount = sizeof(kMessageOutcomeNames) / sizeof(kMessageOutcomeNames[0]);
constexpr std::string_view kRelocationStepNames[] = {"restore", "chunk",   "relay_ready", "failed",
                                                     "relay",   "cutover", "follow"};
constexpr std::size_t kRelocationStepCount = sizeof(kRelocationStepNames) / sizeof(kRelocationStepNames[0]);

std::optional<records::AuthorityKind> authority_kind_of(std::string_view text) {
  if (text == "actor") {
    return records::AuthorityKind::kActor;
  }
  if (text == "spot") {
    return records::AuthorityKind::kSpot;
  }
  return std::nullopt;
}

// The wire fields of every message, each declared once: `io(key, member)` for every member that
// crosses the wire. JsonWriter encodes with them (a const message), JsonReader decodes with them
// (a mutable one). WireHostRun and WireRef travel as nested objects with their own fields. The
// command number "cmd" is no field: it is the message's code(). Key order does not matter: the
// JSON object keeps its keys sorted.
template <class M, class Message>
concept FieldsOf = std::same_as<std::remove_const_t<M>, Message>;

template <class Io, FieldsOf<WireHostRun> M>
void fields(Io& io, M& run) {
  io("owner", run.owner_id);
  io("leaseGen", run.lease_generation);
}

template <class Io, FieldsOf<WireRef> M>
void fields(Io& io, M& ref) {
  io("kind", ref.kind);
  io("id", ref.id);
  io("objectGen", ref.object_generation);
  io("mesh", ref.mesh_name);
  io("nodeRid", ref.node_rid_hex);
}

// What 47/48/49 all carry: the reply correlation, the Manager call, and both host runs.
template <class Io, class M>
void route_fields(Io& io, M& command) {
  io("request", command.request);
  io("op", command.op_id);
  io("sourceRid", command.source_rid_hex);
  io("source", command.source);
  io("target", command.target);
}

template <class Io, FieldsOf<CreateCommand> M>
void fields(Io& io, M& c) {
  route_fields(io, c);
  io("objectKind", c.object_kind);
  io("id", c.id);
  io("stableType", c.stable_type);
  io("objectGen", c.object_generation);
  io("storeVersion", c.store_version);
  io("reservationId", c.reservation_id);
  io("deadlineStoreMs", c.deadline_store_ms);
}

template <class Io, FieldsOf<CloseCommand> M>
void fields(Io& io, M& c) {
  route_fields(io, c);
  io("kind", c.kind);
  io("id", c.id);
  io("objectGen", c.object_generation);
  io("ownerGen", c.owner_generation);
  io("storeVersion", c.store_version);
  io("deadlineStoreMs", c.deadline_store_ms);
}

template <class Io, FieldsOf<FinalResultReply> M>
void fields(Io& io, M& r) {
  io("request", r.request);
  io("op", r.op_id);
  io("outcome", r.outcome);
  io("ref", r.ref);  // null unless existing / created
  io("stableType", r.stable_type);
  io("message", r.message);
  io("appReply", r.app_reply);
}

template <class Io, FieldsOf<InstanceSpotRequest> M>
void fields(Io& io, M& c) {
  io("request", c.request);
  io("op", c.op_id);
  io("stableType", c.stable_type);
  io("mesh", c.mesh_name);
  io("targetRid", c.target_rid_hex);
  io("target", c.target);
  io("id", c.spot_id);
  io("sourceRid", c.source_rid_hex);
  io("source", c.source);
  io("sourceSpotId", c.source_spot_id);  // null unless a Spot sends
  io("deadlineStoreMs", c.deadline_store_ms);
  io("command39", c.command39);
  io("args", c.args);
  io("firstMessage", c.first_message);
}

template <class Io, FieldsOf<InstanceOutcome> M>
void fields(Io& io, M& o) {
  io("kind", o.kind);
  io("objectGen", o.object_generation);
  io("route", o.owner_rid_hex);  // the Ready owner for `route`; the owner otherwise, or empty
  io("stableType", o.stable_type);
  io("message", o.message);
}

template <class Io, FieldsOf<InstanceSpotReply> M>
void fields(Io& io, M& r) {
  io("request", r.request);
  io("op", r.op_id);
  io("outcome", r.outcome);
}

template <class Io, FieldsOf<ObjectMessage> M>
void fields(Io& io, M& c) {
  route_fields(io, c);
  io("kind", c.kind);
  io("id", c.id);
  io("objectGen", c.object_generation);
  io("ownerGen", c.owner_generation);
  io("stream", c.stream);
  io("seq", c.sequence);
  io("payload", c.payload);
}

template <class Io, FieldsOf<ObjectMessageReply> M>
void fields(Io& io, M& r) {
  io("request", r.request);
  io("op", r.op_id);
  io("outcome", r.outcome);
  io("reply", r.reply);
}

template <class Io, FieldsOf<RelocationCommand> M>
void fields(Io& io, M& c) {
  io("step", c.step);
  io("relocation", c.relocation);
  io("attempt", c.attempt);
  io("sourceRid", c.source_rid_hex);
  io("source", c.source);
  io("ownerGen", c.owner_generation);
  io("kind", c.kind);
  io("id", c.id);
  io("objectGen", c.object_generation);
  io("stableType", c.stable_type);
  io("totalLength", c.total_length);
  io("chunkCount", c.chunk_count);
  io("crc32c", c.crc32c);
  io("index", c.index);
  io("deadlineStoreMs", c.deadline_store_ms);
  io("bytes", c.bytes);
  io("passed", c.passed);
}

// Writes one field into a JSON object: numbers as JSON numbers (unsigned stay unsigned), enums
// and OperationId as their text.
class JsonWriter {
 public:
  explicit JsonWriter(json& object) : _object(object) {}

  void operator()(const char* key, const std::string& text) { _object[key] = text; }
  void operator()(const char* key, std::uint64_t number) { _object[key] = number; }
  void operator()(const char* key, std::int64_t number) { _object[key] = number; }
  void operator()(const char* key, const OperationId& op) { _object[key] = op.hex(); }
  void operator()(const char* key, records::ObjectKind kind) {
    SPOTCHECK_ASSERT(kind != records::ObjectKind::kInstanceSpot);  // 47/49: actor | userSpot
    _object[key] = std::string(records::to_string(kind));
  }
  void operator()(const char* key, records::AuthorityKind kind) {
    _object[key] = std::string(records::to_string(kind));
  }
  void operator()(const char* key, ReplyOutcome outcome) { _object[key] = std::string(to_string(outcome)); }
  void operator()(const char* key, MessageOutcome outcome) { _object[key] = std::string(to_string(outcome)); }
  void operator()(const char* key, RelocationStep step) { _object[key] = std::string(to_string(step)); }
  void operator()(const char* key, const WireHostRun& run) { _object[key] = nested(run); }
  void operator()(const char* key, const std::optional<WireRef>& ref) {
    _object[key] = ref.has_value() ? nested(*ref) : json(nullptr);
  }
  void operator()(const char* key, const std::optional<std::string>& text) {
    _object[key] = text.has_value() ? json(*text) : json(nullptr);
  }
  void operator()(const char* key, InstanceOutcomeKind kind) {
    _object[key] = std::string(to_string(kind));
  }
  void operator()(const char* key, const InstanceOutcome& outcome) { _object[key] = nested(outcome); }

 private:
  template <class Nested>
  static json nested(const Nested& value) {
    json object = json::object();
    JsonWriter writer(object);
    fields(writer, value);
    return object;
  }

  json& _object;
};

// Reads one field from a JSON object. Throws (json::exception or ShapeError) on a missing key or
// a wrong shape, type or word; decode() turns that into nullopt.
struct ShapeError {};

class JsonReader {
 public:
  explicit JsonReader(const json& object) : _object(object) {}

  void operator()(const char* key, std::string& text) { text = _object.at(key).get<std::string>(); }
  void operator()(const char* key, std::uint64_t& number) {
    const json& value = _object.at(key);
    if (!value.is_number_unsigned()) {
      throw ShapeError{};
    }
    number = value.get<std::uint64_t>();
  }
  void operator()(const char* key, std::int64_t& number) {
    const json& value = _object.at(key);
    if (!value.is_number_integer()) {
      throw ShapeError{};
    }
    number = value.get<std::int64_t>();
  }
  void operator()(const char* key, OperationId& op) { op = known(OperationId::parse(text_of(key))); }
  void operator()(const char* key, records::ObjectKind& kind) {
    kind = known(records::parse_object_kind(text_of(key)));
  }
  void operator()(const char* key, records::AuthorityKind& kind) { kind = known(authority_kind_of(text_of(key))); }
  void operator()(const char* key, ReplyOutcome& outcome) { outcome = known(parse_reply_outcome(text_of(key))); }
  void operator()(const char* key, MessageOutcome& outcome) { outcome = known(parse_message_outcome(text_of(key))); }
  void operator()(const char* key, RelocationStep& step) { step = known(parse_relocation_step(text_of(key))); }
  void operator()(const char* key, WireHostRun& run) { read_nested(_object.at(key), run); }
  void operator()(const char* key, std::optional<WireRef>& ref) {
    const json& value = _object.at(key);
    if (value.is_null()) {
      ref.reset();
      return;
    }
    WireRef read;
    read_nested(value, read);
    ref = std::move(read);
  }
  void operator()(const char* key, std::optional<std::string>& text) {
    const json& value = _object.at(key);
    if (value.is_null()) {
      text.reset();
      return;
    }
    text = value.get<std::string>();
  }
  void operator()(const char* key, InstanceOutcomeKind& kind) {
    kind = known(parse_instance_outcome_kind(text_of(key)));
  }
  void operator()(const char* key, InstanceOutcome& outcome) { read_nested(_object.at(key), outcome); }

 private:
  std::string text_of(const char* key) const { return _object.at(key).get<std::string>(); }
  template <class T>
  static T known(std::optional<T> parsed) {
    if (!parsed.has_value()) {
      throw ShapeError{};
    }
    return *parsed;
  }
  template <class Nested>
  static void read_nested(const json& object, Nested& value) {
    JsonReader reader(object);
    fields(reader, value);
  }

  const json& _object;
};

// A Message read from `j`, whose "cmd" was `cmd`. The code must be the message's own: 49 carries
// an actor, 47 a User Spot.
template <class Message>
std::optional<Command> decode_as(const json& j, std::uint64_t cmd) {
  Message message;
  JsonReader reader(j);
  fields(reader, message);
  if (static_cast<std::uint64_t>(message.code()) != cmd) {
    return std::nullopt;
  }
  return Command{std::move(message)};
}

}  // namespace

std::string_view to_string(ReplyOutcome outcome) {
  const auto index = static_cast<std::size_t>(outcome);
  SPOTCHECK_ASSERT(index < kOutcomeCount);
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

std::string_view to_string(MessageOutcome outcome) {
  const auto index = static_cast<std::size_t>(outcome);
  SPOTCHECK_ASSERT(index < kMessageOutcomeCount);
  return kMessageOutcomeNames[index];
}

std::optional<MessageOutcome> parse_message_outcome(std::string_view text) {
  for (std::size_t i = 0; i < kMessageOutcomeCount; ++i) {
    if (kMessageOutcomeNames[i] == text) {
      return static_cast<MessageOutcome>(i);
    }
  }
  return std::nullopt;
}

std::string_view to_string(RelocationStep step) {
  const auto index = static_cast<std::size_t>(step);
  SPOTCHECK_ASSERT(index < kRelocationStepCount);
  return kRelocationStepNames[index];
}

std::optional<RelocationStep> parse_relocation_step(std::string_view text) {
  for (std::size_t i = 0; i < kRelocationStepCount; ++i) {
    if (kRelocationStepNames[i] == text) {
      return static_cast<RelocationStep>(i);
    }
  }
  return std::nullopt;
}

std::string encode(const Command& command) {
  return std::visit(
      [](const auto& message) {
        json out = json::object();
        out["cmd"] = static_cast<std::uint32_t>(message.code());
        JsonWriter writer(out);
        fields(writer, message);
        return out.dump();
      },
      command);
}

std::optional<Command> decode(std::string_view bytes) {
  const json j = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return std::nullopt;
  }
  try {
    std::uint64_t cmd = 0;
    JsonReader reader(j);
    reader("cmd", cmd);
    switch (cmd) {
      case static_cast<std::uint64_t>(CommandCode::kActorCreate):
      case static_cast<std::uint64_t>(CommandCode::kUserSpotCreate):
        return decode_as<CreateCommand>(j, cmd);
      case static_cast<std::uint64_t>(CommandCode::kUserSpotClose):
        return decode_as<CloseCommand>(j, cmd);
      case static_cast<std::uint64_t>(CommandCode::kFinalResult):
        return decode_as<FinalResultReply>(j, cmd);
      case static_cast<std::uint64_t>(CommandCode::kInstanceSpotRequest):
        return decode_as<InstanceSpotRequest>(j, cmd);
      case static_cast<std::uint64_t>(CommandCode::kInstanceSpotReply):
        return decode_as<InstanceSpotReply>(j, cmd);
      case static_cast<std::uint64_t>(CommandCode::kObjectMessage):
        return decode_as<ObjectMessage>(j, cmd);
      case static_cast<std::uint64_t>(CommandCode::kObjectMessageReply):
        return decode_as<ObjectMessageReply>(j, cmd);
      case static_cast<std::uint64_t>(CommandCode::kRelocation):
        return decode_as<RelocationCommand>(j, cmd);
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

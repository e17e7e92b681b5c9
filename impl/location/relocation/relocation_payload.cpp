#include "impl/location/relocation/relocation_payload.h"

#include <cstdint>
#include <utility>

#include <nlohmann/json.hpp>

#include "impl/location/messaging/commands.h"
#include "impl/location/relocation/message_follow.h"
#include "impl/records/base64.h"

namespace spotcheck::location::relocation {

std::string object_text(records::AuthorityKind kind, const std::string& id) {
  return std::string(records::to_string(kind)) + "/" + id;
}

namespace {

constexpr std::size_t kPayloadTimersMax = 4'096;

nlohmann::json timer_json(const objects::MovedTimer& timer) {
  return nlohmann::json{{"owner", timer.id.owner_id},       {"leaseGen", timer.id.lease_generation},
                        {"stream", timer.id.stream},        {"seq", timer.id.number},
                        {"remainingUs", timer.remaining_us}, {"payload", timer.payload}};
}

std::optional<objects::MovedTimer> timer_of(const nlohmann::json& item) {
  const auto unsigned_at = [&](const char* name) -> std::optional<std::uint64_t> {
    const auto it = item.find(name);
    if (it == item.end() || !it->is_number_unsigned()) {
      return std::nullopt;
    }
    return it->get<std::uint64_t>();
  };
  const auto owner = item.find("owner");
  const auto payload = item.find("payload");
  const std::optional<std::uint64_t> lease = unsigned_at("leaseGen");
  const std::optional<std::uint64_t> stream = unsigned_at("stream");
  const std::optional<std::uint64_t> seq = unsigned_at("seq");
  const std::optional<std::uint64_t> remaining = unsigned_at("remainingUs");
  if (owner == item.end() || !owner->is_string() || payload == item.end() || !payload->is_string() ||
      !lease.has_value() || !stream.has_value() || !seq.has_value() || *seq == 0 || !remaining.has_value() ||
      *remaining > static_cast<std::uint64_t>(INT64_MAX)) {
    return std::nullopt;
  }
  return objects::MovedTimer{objects::TimerId{owner->get<std::string>(), *lease, *stream, *seq},
                             static_cast<platform::TimeUs>(*remaining), payload->get<std::string>()};
}

}  // namespace

// The payload: {"work": the saved work's commands 52 in queue order, "timers": the captured timers,
// and under PreserveStateWith "state": the application state, base64}.
std::string encode_payload(const std::vector<objects::QueuedMessage>& saved,
                           const std::vector<objects::MovedTimer>& timers, const std::optional<std::string>& state) {
  nlohmann::json work = nlohmann::json::array();
  for (const objects::QueuedMessage& queued : saved) {
    work.push_back(messaging::encode(messaging::Command{queued.message}));
  }
  nlohmann::json moved = nlohmann::json::array();
  for (const objects::MovedTimer& timer : timers) {
    moved.push_back(timer_json(timer));
  }
  nlohmann::json payload{{"work", std::move(work)}, {"timers", std::move(moved)}};
  if (state.has_value()) {
    payload["state"] = records::base64_encode(*state);
  }
  return payload.dump();
}

std::optional<RestorePayload> decode_payload(std::string_view payload) {
  const nlohmann::json object = nlohmann::json::parse(payload, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded() || !object.is_object()) {
    return std::nullopt;
  }
  const auto work = object.find("work");
  const auto timers = object.find("timers");
  if (work == object.end() || !work->is_array() || timers == object.end() || !timers->is_array() ||
      timers->size() > kPayloadTimersMax) {
    return std::nullopt;
  }
  RestorePayload restored;
  for (const nlohmann::json& item : *work) {
    if (!item.is_string()) {
      return std::nullopt;
    }
    std::string bytes = item.get<std::string>();
    const std::optional<messaging::Command> command = messaging::decode(bytes);
    if (!command.has_value() || !std::holds_alternative<messaging::ObjectMessage>(*command)) {
      return std::nullopt;
    }
    restored.work.push_back(HandoffWork{std::get<messaging::ObjectMessage>(*command).op_id.hex(), std::move(bytes)});
  }
  for (const nlohmann::json& item : *timers) {
    std::optional<objects::MovedTimer> timer = item.is_object() ? timer_of(item) : std::nullopt;
    if (!timer.has_value()) {
      return std::nullopt;
    }
    restored.timers.push_back(std::move(*timer));
  }
  if (const auto state = object.find("state"); state != object.end()) {
    if (!state->is_string()) {
      return std::nullopt;
    }
    records::Base64Decoded decoded = records::base64_decode(state->get_ref<const std::string&>());
    if (decoded.status != records::Base64Status::kOk) {
      return std::nullopt;
    }
    restored.state = std::move(decoded.bytes);
  }
  return restored;
}

std::optional<objects::QueuedMessage> queued_of(const HandoffWork& work) {
  std::optional<messaging::Command> command = messaging::decode(work.bytes);
  if (!command.has_value() || !std::holds_alternative<messaging::ObjectMessage>(*command)) {
    return std::nullopt;
  }
  auto message = std::get<messaging::ObjectMessage>(std::move(*command));
  const std::optional<std::uint64_t> reply_to = messaging::parse_routing_id_hex(message.source_rid_hex);
  if (!reply_to.has_value()) {
    return std::nullopt;
  }
  return objects::QueuedMessage{*reply_to, std::move(message)};
}

std::string join_routes(const std::vector<platform::RoutingId>& routes) {
  std::string text;
  for (const platform::RoutingId route : routes) {
    if (!text.empty()) {
      text += ',';
    }
    text += messaging::routing_id_hex(route);
  }
  return text;
}

std::optional<std::vector<platform::RoutingId>> split_routes(std::string_view text) {
  std::vector<platform::RoutingId> routes;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::optional<std::uint64_t> route = messaging::parse_routing_id_hex(text.substr(0, comma));
    if (!route.has_value() || routes.size() >= kFollowHopsMax) {
      return std::nullopt;
    }
    routes.push_back(*route);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return routes;
}

}  // namespace spotcheck::location::relocation

#include "impl/location/relocation/relocation_payload.h"

#include <utility>

#include <nlohmann/json.hpp>

#include "impl/location/messaging/commands.h"
#include "impl/location/relocation/message_follow.h"

namespace spotcheck::location::relocation {

std::string object_text(records::AuthorityKind kind, const std::string& id) {
  return std::string(records::to_string(kind)) + "/" + id;
}

// The payload: the saved work's commands 52, in queue order, as one JSON array of strings.
std::string encode_payload(const std::vector<objects::QueuedMessage>& saved) {
  nlohmann::json array = nlohmann::json::array();
  for (const objects::QueuedMessage& queued : saved) {
    array.push_back(messaging::encode(messaging::Command{queued.message}));
  }
  return array.dump();
}

std::optional<std::vector<HandoffWork>> decode_payload(std::string_view payload) {
  const nlohmann::json array = nlohmann::json::parse(payload, nullptr, /*allow_exceptions=*/false);
  if (array.is_discarded() || !array.is_array()) {
    return std::nullopt;
  }
  std::vector<HandoffWork> work;
  for (const nlohmann::json& item : array) {
    if (!item.is_string()) {
      return std::nullopt;
    }
    std::string bytes = item.get<std::string>();
    const std::optional<messaging::Command> command = messaging::decode(bytes);
    if (!command.has_value() || !std::holds_alternative<messaging::ObjectMessage>(*command)) {
      return std::nullopt;
    }
    work.push_back(HandoffWork{std::get<messaging::ObjectMessage>(*command).op_id.hex(), std::move(bytes)});
  }
  return work;
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

#include "impl/location/instance/instance_request.h"

#include <charconv>
#include <system_error>

#include <nlohmann/json.hpp>

namespace spotcheck::location::instance {

namespace {
constexpr std::string_view kFormat = "instance-activation-v1";
constexpr std::string_view kPointerPrefix = "instance-recovery-v1 ";
constexpr std::string_view kDataLostPrefix = "instance-data-lost-v1 ";
constexpr std::string_view kReferencePrefix = "instance:";  // instance:<spotId>:<opId>
}  // namespace

std::string encode(const InstanceRequest& request) {
  // nlohmann::json objects keep keys sorted: canonical, no whitespace.
  nlohmann::json json;
  json["format"] = kFormat;
  json["stableType"] = request.stable_type;
  json["meshName"] = request.mesh_name;
  json["spotId"] = request.spot_id;
  json["sourceRid"] = request.source_rid_hex;
  json["sourceOwnerId"] = request.source.owner_id;
  json["sourceLeaseGeneration"] = std::to_string(request.source.lease_generation);
  json["opId"] = request.op_id.hex();
  json["deadlineStoreMs"] = std::to_string(request.deadline_store_ms);
  json["args"] = request.args;
  json["firstMessage"] = request.first_message;
  return json.dump();
}

std::optional<InstanceRequest> decode_instance_request(std::string_view bytes) {
  const nlohmann::json json = nlohmann::json::parse(bytes, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return std::nullopt;
  }
  try {
    if (json.at("format").get<std::string>() != kFormat) {
      return std::nullopt;
    }
    InstanceRequest request;
    request.stable_type = json.at("stableType").get<std::string>();
    request.mesh_name = json.at("meshName").get<std::string>();
    request.spot_id = json.at("spotId").get<std::string>();
    request.source_rid_hex = json.at("sourceRid").get<std::string>();
    request.source.owner_id = json.at("sourceOwnerId").get<std::string>();
    request.source.lease_generation = std::stoull(json.at("sourceLeaseGeneration").get<std::string>());
    std::optional<messaging::OperationId> op = messaging::OperationId::parse(json.at("opId").get<std::string>());
    if (!op.has_value()) {
      return std::nullopt;
    }
    request.op_id = *op;
    request.deadline_store_ms = std::stoll(json.at("deadlineStoreMs").get<std::string>());
    request.args = json.at("args").get<std::string>();
    request.first_message = json.at("firstMessage").get<std::string>();
    return request;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string instance_reference(std::string_view spot_id, const messaging::OperationId& op_id) {
  return std::string(kReferencePrefix) + std::string(spot_id) + ":" + op_id.hex();
}

std::string_view operation_of_reference(std::string_view reference) {
  const std::size_t colon = reference.rfind(':');
  if (!reference.starts_with(kReferencePrefix) || colon == std::string_view::npos || colon < kReferencePrefix.size()) {
    return {};
  }
  return reference.substr(colon + 1);
}

std::string recovery_pointer(std::string_view reference, std::string_view sha256, std::uint64_t size_bytes) {
  return std::string(kPointerPrefix) + std::string(reference) + " " + std::string(sha256) + " " +
         std::to_string(size_bytes);
}

std::optional<RecoveryPointer> parse_recovery_pointer(std::string_view row_payload) {
  if (!row_payload.starts_with(kPointerPrefix)) {
    return std::nullopt;
  }
  const std::string_view rest = row_payload.substr(kPointerPrefix.size());
  const std::size_t first = rest.find(' ');
  const std::size_t second = first == std::string_view::npos ? first : rest.find(' ', first + 1);
  if (first == 0 || second == std::string_view::npos || rest.find(' ', second + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view size_text = rest.substr(second + 1);
  std::uint64_t size = 0;
  const auto [end, error] = std::from_chars(size_text.data(), size_text.data() + size_text.size(), size);
  if (error != std::errc{} || end != size_text.data() + size_text.size() || size_text.empty()) {
    return std::nullopt;
  }
  return RecoveryPointer{std::string(rest.substr(0, first)), std::string(rest.substr(first + 1, second - first - 1)),
                         size};
}

std::string data_lost_marker(std::string_view reference, std::string_view reason) {
  return std::string(kDataLostPrefix) + std::string(reference) + " " + std::string(reason);
}

bool is_data_lost(std::string_view row_payload) { return row_payload.starts_with(kDataLostPrefix); }

bool points_at(std::string_view row_payload, std::string_view reference) {
  const std::string prefix = std::string(kPointerPrefix) + std::string(reference) + " ";
  return row_payload.substr(0, prefix.size()) == prefix;
}

}  // namespace spotcheck::location::instance

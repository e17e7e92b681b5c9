// Test-side access to /work/shared/fixtures/store-record-golden.json and independent builders
// of the record structs from a fixture "value" object (nlohmann, field by field), so the codec's
// bytes are checked against the fixture rather than against itself.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "impl/records/records.h"

namespace spotcheck::records::testing {

// The parsed fixture (path from the SPOTCHECK_GOLDEN_FIXTURE compile definition).
const nlohmann::json& golden_fixture();

// Bytes from lowercase hex; fails the current test on malformed hex.
std::string from_hex(std::string_view hex);

MeshNodeDescriptorRecord build_mesh_node(const nlohmann::json& value);
OwnerLeaseRecord build_owner_lease(const nlohmann::json& value);
ClientServerDescriptorRecord build_client_server(const nlohmann::json& value);
FanoutPublisherDescriptorRecord build_fanout_publisher(const nlohmann::json& value);
AuthorityRecord build_authority(const nlohmann::json& value);

// The fixture's first value bytes of the given "record" name.
std::string golden_value_bytes(std::string_view record_name);

}  // namespace spotcheck::records::testing

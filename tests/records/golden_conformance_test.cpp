// Conformance against the shared golden fixture (spec §3.4, §12): for every vector, the
// preimage bytes, SHA-256, Redis key, and — where the vector has a value — the exact canonical
// value bytes, their SHA-256, and a decode round trip.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "impl/records/records.h"
#include "tests/records/golden_fixture.h"

namespace spotcheck::records {
namespace {

using testing::from_hex;
using testing::golden_fixture;

std::vector<std::string> split_preimage(const std::string& preimage) {
  std::vector<std::string> segments(1);
  for (char c : preimage) {
    if (c == '\0') {
      segments.emplace_back();
    } else {
      segments.back().push_back(c);
    }
  }
  return segments;
}

// Checks key derivation and value bytes of one record type; returns the derived preimage.
template <class Record, class Decode>
std::string check_value(const nlohmann::json& vector, const Record& built, Decode decode) {
  const std::string expected_bytes = from_hex(vector.at("valueBytesHex").get<std::string>());
  const std::string encoded = encode(built);
  EXPECT_EQ(encoded, expected_bytes) << "encoded:  " << encoded << "\nexpected: " << expected_bytes;
  EXPECT_EQ(sha256_hex(encoded), vector.at("valueSha256Hex").get<std::string>());
  EXPECT_EQ(validate(built), std::nullopt);
  const RecordResult<std::string> checked = encode_checked(built);
  EXPECT_TRUE(checked.ok()) << (checked.ok() ? "" : describe(checked.error()));
  const auto decoded = decode(expected_bytes);
  EXPECT_TRUE(decoded.ok()) << (decoded.ok() ? "" : describe(decoded.error()));
  if (decoded.ok()) {
    EXPECT_EQ(decoded.value(), built);
    EXPECT_EQ(encode(decoded.value()), expected_bytes);
  }
  return encoded;
}

TEST(GoldenConformance, EveryVectorKeyAndValue) {
  const nlohmann::json& vectors = golden_fixture().at("vectors");
  ASSERT_TRUE(vectors.is_array());
  std::map<std::string, int> values_checked;
  int keys_checked = 0;
  for (const nlohmann::json& vector : vectors) {
    const std::string record = vector.at("record").get<std::string>();
    SCOPED_TRACE(record + " " + vector.at("preimageHex").get<std::string>());
    const std::string preimage = from_hex(vector.at("preimageHex").get<std::string>());
    const std::vector<std::string> segments = split_preimage(preimage);

    // Build the preimage from the record's own parts (the value where there is one).
    std::string derived;
    if (record == "meshNodeDescriptor") {
      const auto built = testing::build_mesh_node(vector.at("value"));
      derived = mesh_node_preimage(built.mesh_name, built.routing_id_hex);
      EXPECT_EQ(key_preimage(built), derived);
      check_value(vector, built, decode_mesh_node_descriptor_record);
      ++values_checked[record];
    } else if (record == "ownerLease") {
      const auto built = testing::build_owner_lease(vector.at("value"));
      derived = owner_lease_preimage(built.owner_id);
      EXPECT_EQ(key_preimage(built), derived);
      check_value(vector, built, decode_owner_lease_record);
      ++values_checked[record];
    } else if (record == "clientServerDescriptor") {
      const auto built = testing::build_client_server(vector.at("value"));
      derived = client_server_preimage(built.channel_name, built.server_routing_id_hex);
      EXPECT_EQ(key_preimage(built), derived);
      check_value(vector, built, decode_client_server_descriptor_record);
      ++values_checked[record];
    } else if (record == "fanoutPublisherDescriptor") {
      const auto built = testing::build_fanout_publisher(vector.at("value"));
      derived = fanout_publisher_preimage(built.channel_name, built.publisher_routing_id_hex);
      EXPECT_EQ(key_preimage(built), derived);
      check_value(vector, built, decode_fanout_publisher_descriptor_record);
      ++values_checked[record];
    } else if (record == "authority") {
      // The Id is not part of the value: take it from the preimage's last segment; the kind
      // comes from the value's objectKind when there is a value.
      ASSERT_EQ(segments.size(), 3U);
      AuthorityKind kind = segments[1] == "actor" ? AuthorityKind::kActor : AuthorityKind::kSpot;
      if (vector.contains("value")) {
        const auto built = testing::build_authority(vector.at("value"));
        EXPECT_EQ(authority_kind(built.allocation.object_kind), kind);
        kind = authority_kind(built.allocation.object_kind);
        check_value(vector, built, decode_authority_record);
        ++values_checked[record];
      }
      derived = authority_preimage(kind, segments[2]);
    } else {
      ADD_FAILURE() << "unknown record kind in fixture: " << record;
      continue;
    }
    EXPECT_EQ(to_hex(derived), vector.at("preimageHex").get<std::string>());
    EXPECT_EQ(sha256_hex(derived), vector.at("sha256Hex").get<std::string>());
    EXPECT_EQ(redis_key(derived), vector.at("redisKey").get<std::string>());
    EXPECT_EQ(redis_key(derived, "zlink:v11:"), vector.at("redisKey").get<std::string>());
    ++keys_checked;
  }
  // The fixture holds 8 vectors, 6 with values; a silently skipped vector must fail the test.
  EXPECT_EQ(keys_checked, static_cast<int>(vectors.size()));
  EXPECT_EQ(values_checked["meshNodeDescriptor"], 1);
  EXPECT_EQ(values_checked["ownerLease"], 1);
  EXPECT_EQ(values_checked["clientServerDescriptor"], 1);
  EXPECT_EQ(values_checked["fanoutPublisherDescriptor"], 1);
  EXPECT_EQ(values_checked["authority"], 2);
}

TEST(GoldenConformance, SameIdIsADifferentKeyPerKindAndCase) {
  const std::string actor = authority_preimage(AuthorityKind::kActor, "user:42");
  const std::string spot = authority_preimage(AuthorityKind::kSpot, "user:42");
  EXPECT_EQ(actor, std::string("authority\0actor\0user:42", 23));
  EXPECT_EQ(spot, std::string("authority\0spot\0user:42", 22));
  EXPECT_NE(redis_key(actor), redis_key(spot));
  // Case is significant: no folding, no normalization.
  const std::string upper = authority_preimage(AuthorityKind::kSpot, "Room-7");
  const std::string lower = authority_preimage(AuthorityKind::kSpot, "room-7");
  EXPECT_NE(sha256_hex(upper), sha256_hex(lower));
  bool found_upper = false;
  bool found_lower = false;
  for (const nlohmann::json& vector : golden_fixture().at("vectors")) {
    found_upper = found_upper || vector.at("sha256Hex") == sha256_hex(upper);
    found_lower = found_lower || vector.at("sha256Hex") == sha256_hex(lower);
  }
  EXPECT_TRUE(found_upper);
  EXPECT_TRUE(found_lower);
  // Precomposed and decomposed "é" are different ids.
  EXPECT_NE(redis_key(authority_preimage(AuthorityKind::kActor, "caf\xc3\xa9")),
            redis_key(authority_preimage(AuthorityKind::kActor, "cafe\xcc\x81")));
}

TEST(GoldenConformance, RedisKeyNamespace) {
  const std::string preimage = owner_lease_preimage("o");
  EXPECT_EQ(redis_key(preimage, "it:1:"), "it:1:rec:" + sha256_hex(preimage));
  EXPECT_EQ(redis_key(preimage).rfind("zlink:v11:rec:", 0), 0U);
  // SHA-256 of the empty string (FIPS 180-2 test vector) pins the hash primitive itself.
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace spotcheck::records

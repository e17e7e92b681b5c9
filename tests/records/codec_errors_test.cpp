// Every typed error of the strict decoders, produced by small edits of the golden bytes.
#include <gtest/gtest.h>

#include <string>

#include "impl/records/records.h"
#include "tests/records/golden_fixture.h"

namespace spotcheck::records {
namespace {

using testing::golden_value_bytes;

std::string replaced(std::string bytes, std::string_view from, std::string_view to) {
  const std::size_t at = bytes.find(from);
  EXPECT_NE(at, std::string::npos) << "fixture does not contain " << from;
  if (at != std::string::npos) {
    EXPECT_EQ(bytes.find(from, at + 1), std::string::npos) << from << " is not unique";
    bytes.replace(at, from.size(), to);
  }
  return bytes;
}

template <class Result>
RecordErrorKind kind_of(const Result& result) {
  EXPECT_FALSE(result.ok()) << "accepted";
  return result.ok() ? RecordErrorKind::kMalformedJson : result.error().kind;
}

template <class Result>
std::string message_of(const Result& result) {
  return result.ok() ? std::string("<accepted>") : describe(result.error());
}

#define EXPECT_AUTHORITY_ERROR(bytes, expected_kind)                             \
  do {                                                                           \
    const auto result_ = decode_authority_record(bytes);                         \
    EXPECT_EQ(kind_of(result_), expected_kind) << message_of(result_);           \
  } while (false)

#define EXPECT_MESH_ERROR(bytes, expected_kind)                                  \
  do {                                                                           \
    const auto result_ = decode_mesh_node_descriptor_record(bytes);              \
    EXPECT_EQ(kind_of(result_), expected_kind) << message_of(result_);           \
  } while (false)

class AuthorityErrors : public ::testing::Test {
 protected:
  const std::string golden = golden_value_bytes("authority");  // the actor row, with pending
};

class MeshNodeErrors : public ::testing::Test {
 protected:
  const std::string golden = golden_value_bytes("meshNodeDescriptor");
};

TEST_F(AuthorityErrors, GoldenIsAccepted) { EXPECT_TRUE(decode_authority_record(golden).ok()); }

TEST_F(AuthorityErrors, MalformedJson) {
  EXPECT_AUTHORITY_ERROR("", RecordErrorKind::kMalformedJson);
  EXPECT_AUTHORITY_ERROR("hello", RecordErrorKind::kMalformedJson);
  EXPECT_AUTHORITY_ERROR(golden + "x", RecordErrorKind::kMalformedJson);
  EXPECT_AUTHORITY_ERROR(golden + "{}", RecordErrorKind::kMalformedJson);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"Player\"", "\"Pla\x01yer\""),
                         RecordErrorKind::kMalformedJson);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"Player\"", "\"Pla\\qyer\""),
                         RecordErrorKind::kMalformedJson);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"actors\":1", "\"actors\":01"),
                         RecordErrorKind::kMalformedJson);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"actors\":1", "\"actors\":-"),
                         RecordErrorKind::kMalformedJson);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"spotType\":null", "\"spotType\":nul"),
                         RecordErrorKind::kMalformedJson);
}

TEST_F(AuthorityErrors, EveryTruncationIsMalformed) {
  for (std::size_t size = 0; size < golden.size(); ++size) {
    const auto result = decode_authority_record(std::string_view(golden).substr(0, size));
    ASSERT_FALSE(result.ok()) << size;
    EXPECT_EQ(result.error().kind, RecordErrorKind::kMalformedJson)
        << size << ": " << describe(result.error());
  }
}

TEST_F(AuthorityErrors, NotCanonical) {
  EXPECT_AUTHORITY_ERROR(" " + golden, RecordErrorKind::kNotCanonical);
  EXPECT_AUTHORITY_ERROR(golden + "\n", RecordErrorKind::kNotCanonical);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "{\"allocation\":", "{ \"allocation\":"),
                         RecordErrorKind::kNotCanonical);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"ownerId\":\"", "\"ownerId\": \""),
                         RecordErrorKind::kNotCanonical);
  // Two keys swapped.
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"authorityOwnerGeneration\":\"1\",\"objectGeneration\":\"9002\"",
                                  "\"objectGeneration\":\"9002\",\"authorityOwnerGeneration\":\"1\""),
                         RecordErrorKind::kNotCanonical);
  // A duplicated key, inside and at the end of an object.
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"objectGeneration\":\"9002\"",
                                  "\"objectGeneration\":\"9002\",\"objectGeneration\":\"9002\""),
                         RecordErrorKind::kNotCanonical);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"recordVersion\":1}", "\"recordVersion\":1,\"recordVersion\":1}"),
                         RecordErrorKind::kNotCanonical);
  // Escapes: '/' raw, \u only for control characters without a short form, lowercase.
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"Player\"", "\"Pl\\/ayer\""),
                         RecordErrorKind::kNotCanonical);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"Player\"", "\"\\u0050layer\""),
                         RecordErrorKind::kNotCanonical);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"Player\"", "\"Player\\u000a\""),
                         RecordErrorKind::kNotCanonical);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"Player\"", "\"Player\\u001F\""),
                         RecordErrorKind::kNotCanonical);
  // Leading zero in a decimal string.
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"9002\"", "\"09002\""), RecordErrorKind::kNotCanonical);
}

TEST_F(AuthorityErrors, CanonicalEscapesAreAccepted) {
  AuthorityRecord record = decode_authority_record(golden).value();
  record.allocation.stable_type = "P\"l\\a\b\f\n\r\t\x01\x1f\x7f/\xc3\xa9";
  record.allocation.capacity.spot_type.reset();
  const std::string bytes = encode(record);
  EXPECT_NE(bytes.find("\"P\\\"l\\\\a\\b\\f\\n\\r\\t\\u0001\\u001f\x7f/\xc3\xa9\""),
            std::string::npos)
      << bytes;
  const auto decoded = decode_authority_record(bytes);
  ASSERT_TRUE(decoded.ok()) << describe(decoded.error());
  EXPECT_EQ(decoded.value(), record);
}

TEST_F(AuthorityErrors, UnknownRecordVersion) {
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"recordVersion\":1", "\"recordVersion\":2"),
                         RecordErrorKind::kUnknownRecordVersion);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"recordVersion\":1", "\"recordVersion\":0"),
                         RecordErrorKind::kUnknownRecordVersion);
  // A version-2 record with a different shape is reported as a version problem, not a schema one.
  EXPECT_AUTHORITY_ERROR("{\"newField\":true,\"recordVersion\":2}",
                         RecordErrorKind::kUnknownRecordVersion);
  EXPECT_AUTHORITY_ERROR("{ \"recordVersion\" : 3 , \"x\" : [1,{\"y\":2}] }",
                         RecordErrorKind::kUnknownRecordVersion);
  // Version 1 with a missing field stays a schema error.
  EXPECT_AUTHORITY_ERROR("{\"recordVersion\":1}", RecordErrorKind::kMissingField);
}

TEST_F(AuthorityErrors, MissingField) {
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"objectGeneration\":\"9002\",", ""),
                         RecordErrorKind::kMissingField);
  EXPECT_AUTHORITY_ERROR(replaced(golden, ",\"recordVersion\":1", ""),
                         RecordErrorKind::kMissingField);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "{\"actors\":1,", "{"), RecordErrorKind::kMissingField);
  // Nullable fields must be present as null, not omitted.
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"spotType\":null,", ""),
                         RecordErrorKind::kMissingField);
}

TEST_F(AuthorityErrors, UnknownField) {
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"recordVersion\":1}", "\"recordVersion\":1,\"zzz\":1}"),
                         RecordErrorKind::kUnknownField);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "{\"allocation\"", "{\"aaa\":1,\"allocation\""),
                         RecordErrorKind::kUnknownField);
  // Keys are case-significant: "OwnerId" is not "ownerId".
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"ownerId\"", "\"OwnerId\""),
                         RecordErrorKind::kUnknownField);
}

TEST_F(AuthorityErrors, WrongType) {
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"objectGeneration\":\"9002\"", "\"objectGeneration\":9002"),
                         RecordErrorKind::kWrongType);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"actors\":1", "\"actors\":\"1\""),
                         RecordErrorKind::kWrongType);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"actors\":1", "\"actors\":1.0"),
                         RecordErrorKind::kWrongType);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"actors\":1", "\"actors\":1e0"),
                         RecordErrorKind::kWrongType);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"recordVersion\":1", "\"recordVersion\":\"1\""),
                         RecordErrorKind::kWrongType);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"9002\"", "\"+9002\""), RecordErrorKind::kWrongType);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"9002\"", "\"\""), RecordErrorKind::kWrongType);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"spotType\":null", "\"spotType\":[]"),
                         RecordErrorKind::kWrongType);
  EXPECT_AUTHORITY_ERROR("[]", RecordErrorKind::kWrongType);
}

TEST_F(AuthorityErrors, OutOfRange) {
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"9002\"", "\"0\""), RecordErrorKind::kOutOfRange);
  // The exhausted sentinel 2^63-1 is never issued, so no record carries it.
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"9002\"", "\"9223372036854775807\""),
                         RecordErrorKind::kOutOfRange);
  EXPECT_TRUE(decode_authority_record(replaced(golden, "\"9002\"", "\"9223372036854775806\"")).ok());
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"9002\"", "\"9223372036854775808\""),
                         RecordErrorKind::kOutOfRange);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"9002\"", "\"99999999999999999999999\""),
                         RecordErrorKind::kOutOfRange);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"9002\"", "\"-1\""), RecordErrorKind::kOutOfRange);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"actors\":1", "\"actors\":-1"),
                         RecordErrorKind::kOutOfRange);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"actors\":1", "\"actors\":2147483648"),
                         RecordErrorKind::kOutOfRange);
  EXPECT_TRUE(decode_authority_record(replaced(golden, "\"actors\":1", "\"actors\":2147483647")).ok());
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"requestEncodedSize\":21", "\"requestEncodedSize\":1048577"),
                         RecordErrorKind::kOutOfRange);
}

TEST_F(AuthorityErrors, TooLarge) {
  AuthorityRecord record = decode_authority_record(golden).value();
  record.payload.assign(kRecordBytesMax, 'x');
  EXPECT_EQ(validate(record), std::nullopt);
  const auto checked = encode_checked(record);
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.error().kind, RecordErrorKind::kTooLarge);
  EXPECT_AUTHORITY_ERROR(encode(record), RecordErrorKind::kTooLarge);
  // Just under the limit is fine.
  record.payload.assign((kRecordBytesMax - 1024) / 4 * 3, 'x');
  const std::string bytes = encode(record);
  ASSERT_LE(bytes.size(), kRecordBytesMax);
  EXPECT_TRUE(decode_authority_record(bytes).ok());
}

TEST_F(AuthorityErrors, InvalidIdentity) {
  const std::string owner = "0b7d3f52-9a41-4c6e-8f0a-2d5e6b7c8d9e";
  EXPECT_AUTHORITY_ERROR(replaced(golden, owner, ""), RecordErrorKind::kInvalidIdentity);
  EXPECT_AUTHORITY_ERROR(replaced(golden, owner, std::string(256, 'a')),
                         RecordErrorKind::kInvalidIdentity);
  EXPECT_TRUE(decode_authority_record(replaced(golden, owner, std::string(255, 'a'))).ok());
  EXPECT_AUTHORITY_ERROR(replaced(golden, owner, "a\\u0000b"), RecordErrorKind::kInvalidIdentity);
}

TEST_F(AuthorityErrors, InvalidUtf8) {
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"Player\"", "\"Pl\xff\""), RecordErrorKind::kInvalidUtf8);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"Player\"", "\"Pl\xc0\xaf\""),
                         RecordErrorKind::kInvalidUtf8);  // overlong '/'
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"Player\"", "\"Pl\xed\xa0\x80\""),
                         RecordErrorKind::kInvalidUtf8);  // a surrogate
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"Player\"", "\"Pl\xf4\x90\x80\x80\""),
                         RecordErrorKind::kInvalidUtf8);  // > U+10FFFF
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"Player\"", "\"Pl\xe2\x82\""),
                         RecordErrorKind::kInvalidUtf8);  // cut sequence
}

TEST_F(AuthorityErrors, InvalidHex) {
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"00a1b2c3d4e5f607\"", "\"00A1B2C3D4E5F607\""),
                         RecordErrorKind::kInvalidHex);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"00a1b2c3d4e5f607\"", "\"00a1b2c3d4e5f60\""),
                         RecordErrorKind::kInvalidHex);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"00a1b2c3d4e5f607\"", "\"\""),
                         RecordErrorKind::kInvalidHex);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "5445e3c\"", "5445e3\""), RecordErrorKind::kInvalidHex);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "5445e3c\"", "5445e3C\""), RecordErrorKind::kInvalidHex);
}

TEST_F(AuthorityErrors, InvalidBase64) {
  EXPECT_AUTHORITY_ERROR(replaced(golden, "AAFhcHAtYnl0ZXP/", "AAFhcHAtYnl0ZXP"),
                         RecordErrorKind::kInvalidBase64);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "AAFhcHAtYnl0ZXP/", "AAFhcHAtYnl0ZXP_"),
                         RecordErrorKind::kInvalidBase64);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "AAFhcHAtYnl0ZXP/", "AAFh=HAtYnl0ZXP/"),
                         RecordErrorKind::kInvalidBase64);
  // Non-zero unused bits are valid base64 elsewhere but not the canonical encoding.
  EXPECT_AUTHORITY_ERROR(replaced(golden, "AAFhcHAtYnl0ZXP/", "QR=="), RecordErrorKind::kNotCanonical);
  EXPECT_TRUE(decode_authority_record(replaced(golden, "AAFhcHAtYnl0ZXP/", "QQ==")).ok());
  EXPECT_TRUE(decode_authority_record(replaced(golden, "AAFhcHAtYnl0ZXP/", "")).ok());
}

TEST_F(AuthorityErrors, InvalidEnum) {
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"reserved\"", "\"Reserved\""),
                         RecordErrorKind::kInvalidEnum);
  EXPECT_AUTHORITY_ERROR(replaced(golden, "\"objectKind\":\"actor\"", "\"objectKind\":\"entrySpot\""),
                         RecordErrorKind::kInvalidEnum);
}

TEST_F(AuthorityErrors, Inconsistent) {
  AuthorityRecord actor = decode_authority_record(golden).value();
  AuthorityRecord with_slot = actor;
  with_slot.allocation.capacity.spot_type = SpotTypeSlot{ObjectKind::kUserSpot, "Player", 1};
  EXPECT_AUTHORITY_ERROR(encode(with_slot), RecordErrorKind::kInconsistent);

  AuthorityRecord no_slots = actor;
  no_slots.allocation.capacity.actors = 0;
  EXPECT_AUTHORITY_ERROR(encode(no_slots), RecordErrorKind::kInconsistent);

  const std::string spot_bytes = testing::from_hex(
      testing::golden_fixture().at("vectors").at(5).at("valueBytesHex").get<std::string>());
  AuthorityRecord spot = decode_authority_record(spot_bytes).value();
  AuthorityRecord missing_slot = spot;
  missing_slot.allocation.capacity.spot_type.reset();
  EXPECT_AUTHORITY_ERROR(encode(missing_slot), RecordErrorKind::kInconsistent);
  AuthorityRecord other_kind = spot;
  other_kind.allocation.capacity.spot_type->object_kind = ObjectKind::kInstanceSpot;
  EXPECT_AUTHORITY_ERROR(encode(other_kind), RecordErrorKind::kInconsistent);
  AuthorityRecord other_type = spot;
  other_type.allocation.capacity.spot_type->stable_type = "room";
  EXPECT_AUTHORITY_ERROR(encode(other_type), RecordErrorKind::kInconsistent);
}

TEST_F(MeshNodeErrors, GoldenIsAccepted) {
  EXPECT_TRUE(decode_mesh_node_descriptor_record(golden).ok());
}

TEST_F(MeshNodeErrors, TopLevelCopiesMustMatchTheDescriptor) {
  EXPECT_MESH_ERROR(replaced(golden, "\"descriptorRevision\":\"12\",\"leaseGeneration\":\"7\",\"ownerId",
                             "\"descriptorRevision\":\"13\",\"leaseGeneration\":\"7\",\"ownerId"),
                    RecordErrorKind::kInconsistent);
  EXPECT_MESH_ERROR(replaced(golden, "\"leaseGeneration\":\"7\",\"ownerId\":\"0b7d3f52-9a41-4c6e-8f0a-2d5e6b7c8d9e\",\"recordVersion",
                             "\"leaseGeneration\":\"8\",\"ownerId\":\"0b7d3f52-9a41-4c6e-8f0a-2d5e6b7c8d9e\",\"recordVersion"),
                    RecordErrorKind::kInconsistent);
}

TEST_F(MeshNodeErrors, WeightsAndLimits) {
  EXPECT_MESH_ERROR(replaced(golden, "\"placementWeight\":100", "\"placementWeight\":10001"),
                    RecordErrorKind::kOutOfRange);
  EXPECT_TRUE(decode_mesh_node_descriptor_record(
                  replaced(golden, "\"placementWeight\":100", "\"placementWeight\":10000"))
                  .ok());
  EXPECT_MESH_ERROR(replaced(golden, "\"match\":2500", "\"match\":10001"),
                    RecordErrorKind::kOutOfRange);
  EXPECT_MESH_ERROR(replaced(golden, "\"limit\":1000", "\"limit\":2147483648"),
                    RecordErrorKind::kOutOfRange);
  EXPECT_MESH_ERROR(replaced(golden, "\"limit\":1000", "\"limit\":-1"),
                    RecordErrorKind::kOutOfRange);
}

TEST_F(MeshNodeErrors, ChannelWeightsKeyOrder) {
  EXPECT_MESH_ERROR(replaced(golden, "{\"chat\":100,\"match\":2500}", "{\"match\":2500,\"chat\":100}"),
                    RecordErrorKind::kNotCanonical);
  EXPECT_MESH_ERROR(replaced(golden, "{\"chat\":100,\"match\":2500}", "{\"chat\":100,\"chat\":100}"),
                    RecordErrorKind::kNotCanonical);
  // Byte order, not case-insensitive order: "Zed" < "chat" because 'Z' (0x5a) < 'c' (0x63).
  EXPECT_TRUE(decode_mesh_node_descriptor_record(
                  replaced(golden, "{\"chat\":100,", "{\"Zed\":1,\"chat\":100,"))
                  .ok());
  EXPECT_MESH_ERROR(replaced(golden, "\"match\":2500}", "\"match\":2500,\"Zed\":1}"),
                    RecordErrorKind::kNotCanonical);
  // Non-ASCII keys sort by UTF-8 bytes after ASCII.
  EXPECT_TRUE(decode_mesh_node_descriptor_record(
                  replaced(golden, "\"match\":2500}", "\"match\":2500,\"\xc3\xa9t\xc3\xa9\":5}"))
                  .ok());
}

TEST_F(MeshNodeErrors, EntrySpotIdFollowsTheRole) {
  EXPECT_MESH_ERROR(replaced(golden, "\"objectRole\":\"server\"", "\"objectRole\":\"client\""),
                    RecordErrorKind::kInconsistent);
  EXPECT_MESH_ERROR(replaced(golden, "\"entrySpotId\":\"entry:game:00a1b2c3d4e5f607\"",
                             "\"entrySpotId\":null"),
                    RecordErrorKind::kInconsistent);
  EXPECT_TRUE(decode_mesh_node_descriptor_record(
                  replaced(replaced(golden, "\"objectRole\":\"server\"", "\"objectRole\":\"client\""),
                           "\"entrySpotId\":\"entry:game:00a1b2c3d4e5f607\"", "\"entrySpotId\":null"))
                  .ok());
}

TEST_F(MeshNodeErrors, CapabilityAndSpotTypeCounts) {
  MeshNodeDescriptorRecord record = decode_mesh_node_descriptor_record(golden).value();
  record.object_capabilities.resize(kCapabilityEntriesMax,
                                    ObjectCapability{ObjectKind::kActor, "T", CapabilityPolicy::kDisabled, false, 0});
  EXPECT_EQ(validate(record), std::nullopt);
  EXPECT_TRUE(decode_mesh_node_descriptor_record(encode(record)).ok());
  record.object_capabilities.push_back(record.object_capabilities.back());
  ASSERT_TRUE(validate(record).has_value());
  EXPECT_EQ(validate(record)->kind, RecordErrorKind::kTooLarge);
  EXPECT_MESH_ERROR(encode(record), RecordErrorKind::kTooLarge);

  MeshNodeDescriptorRecord spot_types = decode_mesh_node_descriptor_record(golden).value();
  spot_types.capacity.spot_types.resize(kSpotTypeEntriesMax + 1, spot_types.capacity.spot_types[0]);
  EXPECT_MESH_ERROR(encode(spot_types), RecordErrorKind::kTooLarge);
  spot_types.capacity.spot_types.resize(1);
  spot_types.capacity.spot_types[0].object_kind = ObjectKind::kActor;
  EXPECT_MESH_ERROR(encode(spot_types), RecordErrorKind::kInvalidEnum);
}

TEST_F(MeshNodeErrors, StateAndPolicyAreCaseSensitive) {
  EXPECT_MESH_ERROR(replaced(golden, "\"state\":\"serving\"", "\"state\":\"Serving\""),
                    RecordErrorKind::kInvalidEnum);
  EXPECT_MESH_ERROR(replaced(golden, "\"policy\":\"snapshot\"", "\"policy\":\"SNAPSHOT\""),
                    RecordErrorKind::kInvalidEnum);
  EXPECT_MESH_ERROR(replaced(golden, "\"hasSnapshotAdapter\":true", "\"hasSnapshotAdapter\":1"),
                    RecordErrorKind::kWrongType);
}

TEST(DescriptorRecordErrors, ClientServerAndFanout) {
  const std::string cs = golden_value_bytes("clientServerDescriptor");
  ASSERT_TRUE(decode_client_server_descriptor_record(cs).ok());
  const auto weight = decode_client_server_descriptor_record(replaced(cs, "\"weight\":100", "\"weight\":10001"));
  EXPECT_EQ(kind_of(weight), RecordErrorKind::kOutOfRange);
  const auto owner = decode_client_server_descriptor_record(
      replaced(cs, "\"ownerId\":\"0b7d3f52-9a41-4c6e-8f0a-2d5e6b7c8d9e\",\"recordVersion",
               "\"ownerId\":\"someone-else\",\"recordVersion"));
  EXPECT_EQ(kind_of(owner), RecordErrorKind::kInconsistent);
  const auto version = decode_client_server_descriptor_record(
      replaced(cs, "\"recordVersion\":1", "\"recordVersion\":7"));
  EXPECT_EQ(kind_of(version), RecordErrorKind::kUnknownRecordVersion);

  const std::string fanout = golden_value_bytes("fanoutPublisherDescriptor");
  ASSERT_TRUE(decode_fanout_publisher_descriptor_record(fanout).ok());
  // The fanout descriptor has no weight.
  const auto extra = decode_fanout_publisher_descriptor_record(
      replaced(fanout, "\"updatedAtEpochMs\":\"1764417600000\"}",
               "\"updatedAtEpochMs\":\"1764417600000\",\"weight\":100}"));
  EXPECT_EQ(kind_of(extra), RecordErrorKind::kUnknownField);
  const auto revision = decode_fanout_publisher_descriptor_record(
      replaced(replaced(fanout, "\"descriptorRevision\":\"5\",\"endpoint", "\"descriptorRevision\":\"0\",\"endpoint"),
               "\"descriptorRevision\":\"5\",\"leaseGeneration", "\"descriptorRevision\":\"0\",\"leaseGeneration"));
  EXPECT_EQ(kind_of(revision), RecordErrorKind::kOutOfRange);
  // A descriptor revision may be 2^63-1 (it is not a generation with a sentinel).
  const auto revision_max = decode_fanout_publisher_descriptor_record(
      replaced(replaced(fanout, "\"descriptorRevision\":\"5\",\"endpoint",
                        "\"descriptorRevision\":\"9223372036854775807\",\"endpoint"),
               "\"descriptorRevision\":\"5\",\"leaseGeneration",
               "\"descriptorRevision\":\"9223372036854775807\",\"leaseGeneration"));
  EXPECT_TRUE(revision_max.ok()) << message_of(revision_max);

  // Records are not interchangeable: each decoder refuses the others' bytes.
  // The first difference is the missing publisherRoutingIdHex (securityIdentity comes next).
  EXPECT_EQ(kind_of(decode_fanout_publisher_descriptor_record(cs)), RecordErrorKind::kMissingField);
  EXPECT_FALSE(decode_owner_lease_record(cs).ok());
  EXPECT_FALSE(decode_authority_record(cs).ok());
}

TEST(OwnerLeaseRecordErrors, Fields) {
  const std::string lease = golden_value_bytes("ownerLease");
  ASSERT_TRUE(decode_owner_lease_record(lease).ok());
  EXPECT_EQ(kind_of(decode_owner_lease_record(replaced(lease, "\"leaseGeneration\":\"7\"", "\"leaseGeneration\":\"0\""))),
            RecordErrorKind::kOutOfRange);
  EXPECT_EQ(kind_of(decode_owner_lease_record(replaced(lease, "\"1764417615000\"", "\"-5\""))),
            RecordErrorKind::kOutOfRange);
  EXPECT_EQ(kind_of(decode_owner_lease_record(replaced(lease, "\"1764417615000\"", "1764417615000"))),
            RecordErrorKind::kWrongType);
  EXPECT_EQ(kind_of(decode_owner_lease_record(replaced(lease, ",\"updatedAtEpochMs\":\"1764417600000\"", ""))),
            RecordErrorKind::kMissingField);
  OwnerLeaseRecord record = decode_owner_lease_record(lease).value();
  record.lease_generation = kGenerationExhausted;
  ASSERT_TRUE(validate(record).has_value());
  EXPECT_EQ(validate(record)->kind, RecordErrorKind::kOutOfRange);
  EXPECT_NE(validate(record)->message.find("sentinel"), std::string::npos);
  record.lease_generation = kGenerationMax;
  EXPECT_TRUE(decode_owner_lease_record(encode(record)).ok());
  record.expires_at_epoch_ms = -1;
  EXPECT_FALSE(encode_checked(record).ok());
}

}  // namespace
}  // namespace spotcheck::records

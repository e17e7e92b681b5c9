// Limits, field validators, enum spellings and key derivation.
#include <gtest/gtest.h>

#include <string>

#include "impl/records/records.h"

namespace spotcheck::records {
namespace {

TEST(RecordLimits, GenerationRange) {
  EXPECT_EQ(kGenerationMax, 9223372036854775806ULL);
  EXPECT_EQ(kGenerationExhausted, 9223372036854775807ULL);
  EXPECT_FALSE(is_issued_generation(0));
  EXPECT_TRUE(is_issued_generation(1));
  EXPECT_TRUE(is_issued_generation(kGenerationMax));
  EXPECT_FALSE(is_issued_generation(kGenerationExhausted));
  EXPECT_TRUE(is_stored_generation(kGenerationExhausted));
  EXPECT_FALSE(is_stored_generation(kGenerationExhausted + 1));
  EXPECT_TRUE(is_generation_exhausted(kGenerationExhausted));
  EXPECT_FALSE(is_generation_exhausted(kGenerationMax));
  EXPECT_TRUE(is_revision(kRevisionMax));
  EXPECT_FALSE(is_revision(0));
  EXPECT_FALSE(check_generation("g", 1).has_value());
  EXPECT_EQ(check_generation("g", 0)->kind, RecordErrorKind::kOutOfRange);
  EXPECT_EQ(check_generation("g", kGenerationExhausted)->kind, RecordErrorKind::kOutOfRange);
  EXPECT_EQ(check_generation("g", ~0ULL)->kind, RecordErrorKind::kOutOfRange);
}

TEST(RecordLimits, Identity) {
  EXPECT_FALSE(check_identity("id", "user:42").has_value());
  EXPECT_FALSE(check_identity("id", std::string(255, 'x')).has_value());
  EXPECT_EQ(check_identity("id", std::string(256, 'x'))->kind, RecordErrorKind::kInvalidIdentity);
  EXPECT_EQ(check_identity("id", "")->kind, RecordErrorKind::kInvalidIdentity);
  EXPECT_EQ(check_identity("id", std::string("a\0b", 3))->kind, RecordErrorKind::kInvalidIdentity);
  EXPECT_EQ(check_identity("id", "\xff")->kind, RecordErrorKind::kInvalidIdentity);
  // 255 bytes of multi-byte characters is the limit: bytes, not characters.
  std::string accents;
  for (int i = 0; i < 127; ++i) {
    accents += "\xc3\xa9";
  }
  EXPECT_FALSE(check_identity("id", accents).has_value());  // 254 bytes
  EXPECT_EQ(check_identity("id", accents + "\xc3\xa9")->kind, RecordErrorKind::kInvalidIdentity);
  EXPECT_NE(check_identity("field.path", "")->message.find("field.path"), std::string::npos);
}

TEST(RecordLimits, Utf8) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("plain"));
  EXPECT_TRUE(is_valid_utf8("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));  // é € 😀
  EXPECT_TRUE(is_valid_utf8("\xf4\x8f\xbf\xbf"));                       // U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\x80"));
  EXPECT_FALSE(is_valid_utf8("\xc1\xbf"));          // overlong
  EXPECT_FALSE(is_valid_utf8("\xe0\x9f\xbf"));      // overlong
  EXPECT_FALSE(is_valid_utf8("\xf0\x8f\xbf\xbf"));  // overlong
  EXPECT_FALSE(is_valid_utf8("\xed\xbf\xbf"));      // surrogate
  EXPECT_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // > U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\xf5\x80\x80\x80"));
  EXPECT_FALSE(is_valid_utf8("\xe2\x82"));  // truncated
  EXPECT_EQ(utf8_sequence_bytes("\xe2\x82\xac!"), 3U);
  EXPECT_EQ(utf8_sequence_bytes(""), 0U);
}

TEST(RecordLimits, HexFields) {
  EXPECT_FALSE(check_routing_id_hex("rid", "00a1b2c3d4e5f607").has_value());
  EXPECT_FALSE(check_routing_id_hex("rid", "ff").has_value());
  EXPECT_EQ(check_routing_id_hex("rid", "")->kind, RecordErrorKind::kInvalidHex);
  EXPECT_EQ(check_routing_id_hex("rid", "abc")->kind, RecordErrorKind::kInvalidHex);
  EXPECT_EQ(check_routing_id_hex("rid", "AB")->kind, RecordErrorKind::kInvalidHex);
  EXPECT_EQ(check_routing_id_hex("rid", "0g")->kind, RecordErrorKind::kInvalidHex);
  EXPECT_FALSE(check_routing_id_hex("rid", std::string(510, 'a')).has_value());
  EXPECT_EQ(check_routing_id_hex("rid", std::string(512, 'a'))->kind, RecordErrorKind::kInvalidHex);
  EXPECT_FALSE(check_sha256_hex("h", sha256_hex("x")).has_value());
  EXPECT_EQ(check_sha256_hex("h", std::string(63, 'a'))->kind, RecordErrorKind::kInvalidHex);
  EXPECT_EQ(check_sha256_hex("h", std::string(64, 'A'))->kind, RecordErrorKind::kInvalidHex);
}

TEST(RecordEnums, SpellingsRoundTripAndAreCaseSensitive) {
  for (ObjectKind kind : {ObjectKind::kActor, ObjectKind::kUserSpot, ObjectKind::kInstanceSpot}) {
    EXPECT_EQ(parse_object_kind(to_string(kind)), kind);
  }
  for (DescriptorState state :
       {DescriptorState::kPreparing, DescriptorState::kServing, DescriptorState::kRelocating,
        DescriptorState::kRelocated, DescriptorState::kDraining, DescriptorState::kStopped,
        DescriptorState::kError}) {
    EXPECT_EQ(parse_descriptor_state(to_string(state)), state);
  }
  for (CapabilityPolicy policy : {CapabilityPolicy::kUnspecified, CapabilityPolicy::kDisabled,
                                  CapabilityPolicy::kRecreate, CapabilityPolicy::kSnapshot}) {
    EXPECT_EQ(parse_capability_policy(to_string(policy)), policy);
  }
  for (ObjectRole role : {ObjectRole::kNone, ObjectRole::kClient, ObjectRole::kServer}) {
    EXPECT_EQ(parse_object_role(to_string(role)), role);
  }
  EXPECT_EQ(parse_allocation_state("active"), AllocationState::kActive);
  EXPECT_EQ(parse_object_kind("UserSpot"), std::nullopt);
  EXPECT_EQ(parse_object_kind("entrySpot"), std::nullopt);
  EXPECT_EQ(parse_descriptor_state(""), std::nullopt);
  EXPECT_EQ(authority_kind(ObjectKind::kActor), AuthorityKind::kActor);
  EXPECT_EQ(authority_kind(ObjectKind::kUserSpot), AuthorityKind::kSpot);
  EXPECT_EQ(authority_kind(ObjectKind::kInstanceSpot), AuthorityKind::kSpot);
}

TEST(RecordKeys, PreimageShapes) {
  using namespace std::string_literals;
  EXPECT_EQ(mesh_node_preimage("game", "00ff"), "mesh-node\0game\00000ff"s);
  EXPECT_EQ(owner_lease_preimage("o-1"), "owner-lease\0o-1"s);
  EXPECT_EQ(client_server_preimage("match", "0a"), "client-server\0match\0000a"s);
  EXPECT_EQ(fanout_publisher_preimage("news", "0b"), "fanout-publisher\0news\0000b"s);
  EXPECT_EQ(authority_preimage(AuthorityKind::kSpot, "Room-7"), "authority\0spot\0Room-7"s);
  // Non-ASCII ids are concatenated as raw UTF-8.
  EXPECT_EQ(authority_preimage(AuthorityKind::kActor, "\xc3\xa9"), "authority\0actor\0\xc3\xa9"s);
  EXPECT_EQ(to_hex("\x00\xff\x10"s), "00ff10");
  EXPECT_EQ(to_string(AuthorityKind::kActor), "actor");
  EXPECT_EQ(to_string(AuthorityKind::kSpot), "spot");
}

TEST(RecordErrors, DescribeNamesTheKind) {
  EXPECT_EQ(describe(RecordError{RecordErrorKind::kOutOfRange, "x: 5 > 4"}), "kOutOfRange: x: 5 > 4");
  EXPECT_EQ(to_string(RecordErrorKind::kUnknownRecordVersion), "kUnknownRecordVersion");
  RecordResult<int> ok = 5;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.value(), 5);
  RecordResult<int> bad = RecordError{RecordErrorKind::kTooLarge, "big"};
  EXPECT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, RecordErrorKind::kTooLarge);
}

}  // namespace
}  // namespace spotcheck::records

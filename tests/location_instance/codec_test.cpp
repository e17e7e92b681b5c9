// The Instance Spot request envelope and its Relocation Store reference / recovery pointer.
#include <gtest/gtest.h>

#include "impl/location/instance/instance_request.h"

namespace spotcheck::location::instance {
namespace {

InstanceRequest sample() {
  InstanceRequest request;
  request.stable_type = "Chat";
  request.mesh_name = "game";
  request.spot_id = "chat:1";
  request.source_rid_hex = "00000000000000b1";
  request.source = messaging::WireHostRun{"owner-a", 7};
  request.op_id = messaging::OperationId{0x0102, 0x0304};
  request.deadline_store_ms = 1'700'000'000'123;
  request.args = std::string("a\0b", 3);
  request.first_message = "hello";
  return request;
}

TEST(InstanceCodecTest, RoundTripsEveryField) {
  const InstanceRequest request = sample();
  const std::optional<InstanceRequest> back = decode_instance_request(encode(request));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, request);
  EXPECT_EQ(encode(*back), encode(request));  // canonical
}

TEST(InstanceCodecTest, RejectsOtherFormatsAndGarbage) {
  EXPECT_FALSE(decode_instance_request("").has_value());
  EXPECT_FALSE(decode_instance_request("[]").has_value());
  std::string bytes = encode(sample());
  bytes.replace(bytes.find("instance-activation-v1"), 22, "instance-activation-v9");
  EXPECT_FALSE(decode_instance_request(bytes).has_value());
}

TEST(InstanceCodecTest, ReferenceAndRecoveryPointer) {
  const InstanceRequest request = sample();
  const std::string reference = instance_reference(request.spot_id, request.op_id);
  EXPECT_EQ(reference, "instance:chat:1:" + request.op_id.hex());
  const std::string pointer = recovery_pointer(reference, std::string(64, 'a'), 10);
  EXPECT_TRUE(points_at(pointer, reference));
  EXPECT_FALSE(points_at(pointer, reference.substr(0, reference.size() - 1)));
  EXPECT_FALSE(points_at("", reference));
  EXPECT_EQ(parse_recovery_pointer(pointer), (RecoveryPointer{reference, std::string(64, 'a'), 10}));
}

// What a checker reads back from a row payload: only a whole pointer; empty is the end of use.
TEST(InstanceCodecTest, ParsesOnlyWholeRecoveryPointers) {
  EXPECT_FALSE(parse_recovery_pointer("").has_value());
  EXPECT_FALSE(parse_recovery_pointer("instance-recovery-v1 ").has_value());
  EXPECT_FALSE(parse_recovery_pointer("instance-recovery-v1 ref sha").has_value());
  EXPECT_FALSE(parse_recovery_pointer("instance-recovery-v1 ref sha 12x").has_value());
  EXPECT_FALSE(parse_recovery_pointer("instance-recovery-v1 ref sha 12 extra").has_value());
  EXPECT_FALSE(parse_recovery_pointer("instance-recovery-v2 ref sha 12").has_value());
  EXPECT_FALSE(parse_recovery_pointer("opaque application bytes").has_value());
  EXPECT_EQ(parse_recovery_pointer("instance-recovery-v1 ref sha 0"), (RecoveryPointer{"ref", "sha", 0}));
}

}  // namespace
}  // namespace spotcheck::location::instance

// The command codec (47/48/49/20, 50/51), OperationId and the stored creation records.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "impl/location/creation/operation_key.h"
#include "impl/location/creation/stored_records.h"
#include "impl/location/messaging/commands.h"
#include "impl/records/keys.h"

namespace spotcheck::location::creation {
namespace {

using messaging::Command;
using messaging::OperationId;

messaging::CreateCommand sample_create(records::ObjectKind kind) {
  messaging::CreateCommand c;
  c.request = 7;
  c.op_id = OperationId{0x0123456789abcdefULL, 0xfedcba9876543210ULL};
  c.source_rid_hex = "00000000000a1000";
  c.source = {"owner-a", 3};
  c.target = {"owner-b", 9};
  c.object_kind = kind;
  c.id = "player:1";
  c.stable_type = "Player";
  c.object_generation = (1ULL << 62) + 5;
  c.store_version = 42;
  c.reservation_id = c.op_id.hex();
  c.deadline_store_ms = 1'764'417'600'123;
  return c;
}

messaging::CloseCommand sample_close() {
  messaging::CloseCommand c;
  c.request = 3;
  c.op_id = OperationId{1, 2};
  c.source_rid_hex = "00000000000a1000";
  c.source = {"owner-a", 3};
  c.target = {"owner-b", 4};
  c.kind = records::AuthorityKind::kSpot;
  c.id = "room:1";
  c.object_generation = 11;
  c.owner_generation = 2;
  c.store_version = 99;
  c.deadline_store_ms = 5;
  return c;
}

messaging::InstanceSpotRequest sample_instance_request() {
  messaging::InstanceSpotRequest c;
  c.request = 12;
  c.op_id = OperationId{3, 4};
  c.stable_type = "Chat";
  c.mesh_name = "sim";
  c.target_rid_hex = "00000000000a1001";
  c.target = {"owner-b", 2};
  c.spot_id = "chat-0";
  c.source_rid_hex = "00000000000a1000";
  c.source = {"owner-a", 5};
  c.source_spot_id = "room:7";
  c.deadline_store_ms = 1'764'417'600'500;
  c.command39 = "kind=request";
  c.args = std::string("a\0rg", 4);
  c.first_message = "hello";
  return c;
}

messaging::InstanceSpotReply sample_instance_reply() {
  messaging::InstanceSpotReply r;
  r.request = 12;
  r.op_id = OperationId{3, 4};
  r.outcome = messaging::InstanceOutcome{messaging::InstanceOutcomeKind::kRoute, 6, "00000000000a1002", "Chat", "moved"};
  return r;
}

TEST(Codec, OperationIdHexRoundTrip) {
  const OperationId id{0x0123456789abcdefULL, 0x00000000000000ffULL};
  EXPECT_EQ(id.hex(), "0123456789abcdef00000000000000ff");
  EXPECT_EQ(OperationId::parse(id.hex()), id);
  EXPECT_FALSE(OperationId::parse("0123").has_value());
  EXPECT_FALSE(OperationId::parse("0123456789ABCDEF00000000000000ff").has_value());  // lowercase only
  EXPECT_EQ(messaging::routing_id_hex(0x00a10001), "0000000000a10001");
  EXPECT_EQ(messaging::parse_routing_id_hex("0000000000a10001"), 0x00a10001u);
  EXPECT_FALSE(messaging::parse_routing_id_hex("xyz").has_value());
}

TEST(Codec, CreateCommandsCarryTheirNumbers) {
  for (const auto kind : {records::ObjectKind::kActor, records::ObjectKind::kUserSpot}) {
    const messaging::CreateCommand c = sample_create(kind);
    const std::string bytes = messaging::encode(Command{c});
    const int expected = kind == records::ObjectKind::kActor ? 49 : 47;
    EXPECT_NE(bytes.find("\"cmd\":" + std::to_string(expected)), std::string::npos) << bytes;
    const auto decoded = messaging::decode(bytes);
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(std::get<messaging::CreateCommand>(*decoded), c);
  }
}

TEST(Codec, CloseAndFinalResultRoundTrip) {
  const messaging::CloseCommand close = sample_close();
  const std::string close_bytes = messaging::encode(Command{close});
  EXPECT_NE(close_bytes.find("\"cmd\":48"), std::string::npos);
  EXPECT_EQ(std::get<messaging::CloseCommand>(*messaging::decode(close_bytes)), close);

  messaging::FinalResultReply reply;
  reply.request = 3;
  reply.op_id = OperationId{1, 2};
  reply.outcome = messaging::ReplyOutcome::kCreated;
  reply.ref = messaging::WireRef{records::AuthorityKind::kActor, "p", 8, "game", "00000000000a1001"};
  reply.stable_type = "Player";
  reply.app_reply = std::string("bin\0ary", 7);
  const std::string reply_bytes = messaging::encode(Command{reply});
  EXPECT_NE(reply_bytes.find("\"cmd\":20"), std::string::npos);
  EXPECT_EQ(std::get<messaging::FinalResultReply>(*messaging::decode(reply_bytes)), reply);
}

// 50 / 51: every field of the Instance Spot request (§7.1's creation info) and of its reply (the
// target's InstanceOutcome, every kind) comes back; the optional source SpotId may be null.
TEST(Codec, InstanceSpotRequestAndReplyRoundTrip) {
  messaging::InstanceSpotRequest request = sample_instance_request();
  const std::string bytes = messaging::encode(Command{request});
  EXPECT_NE(bytes.find("\"cmd\":50"), std::string::npos) << bytes;
  EXPECT_EQ(std::get<messaging::InstanceSpotRequest>(*messaging::decode(bytes)), request);
  request.source_spot_id.reset();
  const std::string without = messaging::encode(Command{request});
  EXPECT_NE(without.find("\"sourceSpotId\":null"), std::string::npos) << without;
  EXPECT_EQ(std::get<messaging::InstanceSpotRequest>(*messaging::decode(without)), request);

  messaging::InstanceSpotReply reply = sample_instance_reply();
  for (int kind = 0; kind <= static_cast<int>(messaging::InstanceOutcomeKind::kSpotMoving); ++kind) {
    reply.outcome.kind = static_cast<messaging::InstanceOutcomeKind>(kind);
    const std::string reply_bytes = messaging::encode(Command{reply});
    EXPECT_NE(reply_bytes.find("\"cmd\":51"), std::string::npos) << reply_bytes;
    EXPECT_EQ(std::get<messaging::InstanceSpotReply>(*messaging::decode(reply_bytes)), reply) << reply_bytes;
  }
}

TEST(Codec, InstanceSpotWireBytesAreFixed) {
  EXPECT_EQ(messaging::encode(Command{sample_instance_request()}),
            R"({"args":"a\u0000rg","cmd":50,"command39":"kind=request","deadlineStoreMs":1764417600500,)"
            R"("firstMessage":"hello","id":"chat-0","mesh":"sim","op":"00000000000000030000000000000004",)"
            R"("request":12,"source":{"leaseGen":5,"owner":"owner-a"},"sourceRid":"00000000000a1000",)"
            R"("sourceSpotId":"room:7","stableType":"Chat","target":{"leaseGen":2,"owner":"owner-b"},)"
            R"("targetRid":"00000000000a1001"})");
  EXPECT_EQ(messaging::encode(Command{sample_instance_reply()}),
            R"({"cmd":51,"op":"00000000000000030000000000000004","outcome":{"kind":"route","message":"moved",)"
            R"("objectGen":6,"route":"00000000000a1002","stableType":"Chat"},"request":12})");
}

// A reply's outcome kind must be one of §7.1's words; 50 and 51 are not each other.
TEST(Codec, InstanceSpotFieldsAreChecked) {
  const std::string reply = messaging::encode(Command{sample_instance_reply()});
  const auto broken = [](std::string bytes, const std::string& from, const std::string& to) {
    const std::size_t at = bytes.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    bytes.replace(at, from.size(), to);
    return bytes;
  };
  EXPECT_FALSE(messaging::decode(broken(reply, "\"kind\":\"route\"", "\"kind\":\"routed\"")).has_value());
  EXPECT_FALSE(messaging::decode(broken(reply, "\"objectGen\":6", "\"objectGen\":-6")).has_value());
  EXPECT_FALSE(messaging::decode(broken(reply, "\"cmd\":51", "\"cmd\":50")).has_value());
  const std::string request = messaging::encode(Command{sample_instance_request()});
  EXPECT_FALSE(messaging::decode(broken(request, "\"sourceSpotId\":\"room:7\"", "\"sourceSpotId\":7")).has_value());
  EXPECT_FALSE(messaging::decode(broken(request, "\"targetRid\"", "\"targetRID\"")).has_value());
  EXPECT_FALSE(messaging::decode(broken(request, "\"cmd\":50", "\"cmd\":51")).has_value());
}

// The exact bytes on the wire: compact JSON, keys sorted. Captured from the codec before it
// became a field table; any change here is a wire-format change.
TEST(Codec, WireBytesAreFixed) {
  for (const auto& [kind, cmd, kind_word] : {std::tuple{records::ObjectKind::kActor, "49", "actor"},
                                              std::tuple{records::ObjectKind::kUserSpot, "47", "userSpot"}}) {
    EXPECT_EQ(messaging::encode(Command{sample_create(kind)}),
              std::string(R"({"cmd":)") + cmd +
                  R"(,"deadlineStoreMs":1764417600123,"id":"player:1","objectGen":4611686018427387909,)"
                  R"("objectKind":")" + kind_word + R"(","op":"0123456789abcdeffedcba9876543210","request":7,)"
                  R"("reservationId":"0123456789abcdeffedcba9876543210","source":{"leaseGen":3,"owner":"owner-a"},)"
                  R"("sourceRid":"00000000000a1000","stableType":"Player","storeVersion":42,)"
                  R"("target":{"leaseGen":9,"owner":"owner-b"}})");
  }

  messaging::CloseCommand close = sample_close();
  close.request = 18'446'744'073'709'551'615ULL;  // the largest uint64
  close.target = {"owner-\"b\"", 4};
  close.kind = records::AuthorityKind::kActor;
  close.deadline_store_ms = -5;  // signed: a deadline may be negative
  EXPECT_EQ(messaging::encode(Command{close}),
            R"({"cmd":48,"deadlineStoreMs":-5,"id":"room:1","kind":"actor","objectGen":11,)"
            R"("op":"00000000000000010000000000000002","ownerGen":2,"request":18446744073709551615,)"
            R"("source":{"leaseGen":3,"owner":"owner-a"},"sourceRid":"00000000000a1000","storeVersion":99,)"
            R"("target":{"leaseGen":4,"owner":"owner-\"b\""}})");

  messaging::FinalResultReply reply;
  reply.request = 3;
  reply.op_id = OperationId{1, 2};
  reply.outcome = messaging::ReplyOutcome::kStaleGeneration;
  reply.message = "stale";
  EXPECT_EQ(messaging::encode(Command{reply}),
            R"({"appReply":"","cmd":20,"message":"stale","op":"00000000000000010000000000000002",)"
            R"("outcome":"stale_generation","ref":null,"request":3,"stableType":""})");
  reply.outcome = messaging::ReplyOutcome::kExisting;
  reply.ref = messaging::WireRef{records::AuthorityKind::kSpot, "r", 8, "game", "00000000000a1001"};
  reply.stable_type = "Room";
  reply.app_reply = "ok";
  EXPECT_EQ(messaging::encode(Command{reply}),
            R"({"appReply":"ok","cmd":20,"message":"stale","op":"00000000000000010000000000000002",)"
            R"("outcome":"existing","ref":{"id":"r","kind":"spot","mesh":"game","nodeRid":"00000000000a1001",)"
            R"("objectGen":8},"request":3,"stableType":"Room"})");
}

// What decode refuses, field by field: a wrong type, a negative unsigned, an unknown enum word, a
// missing key, a bad OperationId. Each starts from good bytes and breaks one thing.
TEST(Codec, EachFieldIsChecked) {
  const std::string good = messaging::encode(Command{sample_create(records::ObjectKind::kUserSpot)});
  ASSERT_TRUE(messaging::decode(good).has_value());
  const auto broken = [&good](const std::string& from, const std::string& to) {
    std::string bytes = good;
    const std::size_t at = bytes.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    bytes.replace(at, from.size(), to);
    return bytes;
  };
  for (const std::string& bad : {
           broken("\"request\":7", "\"request\":-7"),
           broken("\"request\":7", "\"request\":\"7\""),
           broken("\"request\":7", "\"requests\":7"),
           broken("\"storeVersion\":42", "\"storeVersion\":42.5"),
           broken("\"deadlineStoreMs\":1764417600123", "\"deadlineStoreMs\":true"),
           broken("\"objectKind\":\"userSpot\"", "\"objectKind\":\"spot\""),
           broken("\"op\":\"0123", "\"op\":\"0124x"),
           broken("\"leaseGen\":3", "\"leaseGen\":-3"),
           broken("\"owner\":\"owner-a\"", "\"owner\":1"),
           broken("\"stableType\":\"Player\"", "\"stableType\":null"),
       }) {
    EXPECT_FALSE(messaging::decode(bad).has_value()) << bad;
  }
  // Keys it does not know are ignored; a negative signed deadline is a deadline.
  EXPECT_TRUE(messaging::decode(broken("\"cmd\":47", "\"cmd\":47,\"extra\":1")).has_value());
  EXPECT_TRUE(messaging::decode(broken("\"deadlineStoreMs\":1764417600123", "\"deadlineStoreMs\":-1")).has_value());

  // A reply's ref: null or a whole WireRef with a known kind.
  messaging::FinalResultReply reply;
  reply.outcome = messaging::ReplyOutcome::kCreated;
  reply.ref = messaging::WireRef{records::AuthorityKind::kActor, "p", 8, "game", "00000000000a1001"};
  std::string reply_bytes = messaging::encode(Command{reply});
  ASSERT_TRUE(messaging::decode(reply_bytes).has_value());
  reply_bytes.replace(reply_bytes.find("\"kind\":\"actor\""), 14, "\"kind\":\"user\"");
  EXPECT_FALSE(messaging::decode(reply_bytes).has_value()) << reply_bytes;
}

TEST(Codec, MalformedBytesDecodeToNothing) {
  const std::string good = messaging::encode(Command{sample_create(records::ObjectKind::kActor)});
  for (const std::string& bad :
       {std::string(""), std::string("not json"), std::string("[]"), std::string("{\"cmd\":99}"),
        std::string("{\"cmd\":20}"), good.substr(0, good.size() / 2)}) {
    EXPECT_FALSE(messaging::decode(bad).has_value()) << bad;
  }
  // 49 must carry an actor: a User Spot under 49 is refused.
  std::string swapped = good;
  swapped.replace(swapped.find("\"objectKind\":\"actor\""), 20, "\"objectKind\":\"userSpot\"");
  EXPECT_FALSE(messaging::decode(swapped).has_value());
}

TEST(StoredRecords, FinalResultRoundTripAndKey) {
  FinalResultRecord r;
  r.operation = OperationKey{"00000000000a1000", 3, OperationId{1, 2}};
  r.outcome = messaging::ReplyOutcome::kCreated;
  r.ref = messaging::WireRef{records::AuthorityKind::kActor, "p", 8, "game", "00000000000a1001"};
  r.stable_type = "Player";
  r.app_reply = "hi";
  r.retain_until_ms = 123;
  r.request_sha256 = std::string(64, 'a');
  const std::string bytes = encode(r);
  EXPECT_NE(bytes.find("\"format\":\"creation-operation-terminal-v1\""), std::string::npos);
  EXPECT_EQ(bytes.find("request\":"), std::string::npos) << "no network correlation is stored: " << bytes;
  EXPECT_EQ(decode_final_result(bytes), r);
  // The key: "creation-result\0" + SHA-256 of the operation preimage.
  std::string preimage("creation-operation-terminal-v1");
  preimage += std::string(1, '\0') + "00000000000a1000" + std::string(1, '\0') + "3" + std::string(1, '\0') +
              OperationId{1, 2}.hex();
  EXPECT_EQ(r.operation.preimage(), preimage);
  EXPECT_EQ(r.operation.result_key(), std::string("creation-result") + '\0' + records::sha256_hex(preimage));
  // An unknown format version is refused, never guessed.
  std::string other = bytes;
  other.replace(other.find("terminal-v1"), 11, "terminal-v2");
  EXPECT_FALSE(decode_final_result(other).has_value());
}

TEST(StoredRecords, CreationRequestHoldsNoPlacementOrCapacity) {
  CreationRequestRecord r;
  r.operation = OperationKey{"00000000000a1000", 3, OperationId{1, 2}};
  r.source = {"owner-a", 3};
  r.mode = CreateMode::kGetOrCreate;
  r.object_kind = records::ObjectKind::kUserSpot;
  r.id = "room:1";
  r.stable_type = "Room";
  r.args = std::string("\x01\x02", 2);
  r.deadline_store_ms = 77;
  r.reservation_id = OperationId{1, 2}.hex();
  const std::string bytes = encode(r);
  EXPECT_EQ(decode_creation_request(bytes), r);
  for (const char* placement_word : {"capacity", "allocation", "mesh", "descriptor", "slots"}) {
    EXPECT_EQ(bytes.find(placement_word), std::string::npos) << placement_word << " in " << bytes;
  }
  EXPECT_EQ(creation_request_key(r.reservation_id), std::string("creation-request") + '\0' + r.reservation_id);
  EXPECT_EQ(key_of_request_reference(creation_request_reference(r.reservation_id)), creation_request_key(r.reservation_id));
  EXPECT_TRUE(key_of_request_reference("elsewhere/x").empty());
}

}  // namespace
// 52 / 53: a regular object message (its stream and sequence, the generation and owner it was sent
// to, opaque payload bytes) and every outcome of its reply come back; an unknown outcome word is
// no command.
TEST(Codec, ObjectMessageAndReplyRoundTrip) {
  messaging::ObjectMessage message;
  message.request = 7;
  message.op_id = OperationId{3, 4};
  message.source_rid_hex = "0000000000a10001";
  message.source = messaging::WireHostRun{"owner-s", 2};
  message.target = messaging::WireHostRun{"owner-t", 5};
  message.kind = records::AuthorityKind::kSpot;
  message.id = "room:1";
  message.object_generation = 12;
  message.owner_generation = 3;
  message.stream = 1;
  message.sequence = 9;
  message.payload = std::string("bin\0ary", 7);
  const std::string bytes = messaging::encode(Command{message});
  EXPECT_NE(bytes.find("\"cmd\":52"), std::string::npos) << bytes;
  EXPECT_EQ(std::get<messaging::ObjectMessage>(*messaging::decode(bytes)), message);
  for (const auto outcome : {messaging::MessageOutcome::kRan, messaging::MessageOutcome::kNotHere,
                             messaging::MessageOutcome::kStaleGeneration, messaging::MessageOutcome::kNotAdmitted,
                             messaging::MessageOutcome::kNoHandler}) {
    const messaging::ObjectMessageReply reply{7, OperationId{3, 4}, outcome, "echo"};
    const std::string reply_bytes = messaging::encode(Command{reply});
    EXPECT_NE(reply_bytes.find("\"cmd\":53"), std::string::npos) << reply_bytes;
    EXPECT_EQ(std::get<messaging::ObjectMessageReply>(*messaging::decode(reply_bytes)), reply);
    EXPECT_EQ(messaging::parse_message_outcome(messaging::to_string(outcome)), outcome);
  }
  EXPECT_FALSE(messaging::decode(R"({"cmd":53,"request":1,"op":"00000000000000030000000000000004","outcome":"maybe","reply":""})")
                   .has_value());
}

// 54: every step of a handoff round-trips; the step word is one of seven; a relayed message is
// its own command 52's bytes, unchanged.
TEST(Codec, RelocationStepsRoundTrip) {
  messaging::RelocationCommand command;
  command.relocation = "0123456789abcdeffedcba9876543210";
  command.attempt = 18'446'744'073'709'551'615ULL;
  command.source_rid_hex = "00000000000a1000";
  command.source = messaging::WireHostRun{"owner-s", 2};
  command.owner_generation = 4;
  command.id = "player:1";
  command.object_generation = 9;
  command.stable_type = "Player";
  command.total_length = 300;
  command.chunk_count = 3;
  command.crc32c = 0xe3069283;
  command.deadline_store_ms = 1764417600500;
  messaging::ObjectMessage message;
  message.op_id = OperationId{3, 4};
  message.id = "player:1";
  command.bytes = messaging::encode(Command{message});
  for (const auto step : {messaging::RelocationStep::kRestore, messaging::RelocationStep::kChunk,
                          messaging::RelocationStep::kRelayReady, messaging::RelocationStep::kFailed,
                          messaging::RelocationStep::kRelay, messaging::RelocationStep::kCutover,
                          messaging::RelocationStep::kFollow}) {
    command.step = step;
    const std::string bytes = messaging::encode(Command{command});
    EXPECT_NE(bytes.find("\"cmd\":54"), std::string::npos) << bytes;
    EXPECT_EQ(std::get<messaging::RelocationCommand>(*messaging::decode(bytes)), command);
    EXPECT_EQ(messaging::parse_relocation_step(messaging::to_string(step)), step);
  }
  const std::string good = messaging::encode(Command{command});
  for (const auto& [from, to] : {std::pair{"\"step\":\"follow\"", "\"step\":\"commit\""},
                                 std::pair{"\"ownerGen\":4", "\"ownerGen\":-4"},
                                 std::pair{"\"index\":0", "\"index\":\"0\""},
                                 std::pair{"\"cmd\":54", "\"cmd\":55"}}) {
    std::string bad = good;
    bad.replace(bad.find(from), std::string_view(from).size(), to);
    EXPECT_FALSE(messaging::decode(bad).has_value()) << bad;
  }
  const auto relayed = messaging::decode(std::get<messaging::RelocationCommand>(*messaging::decode(good)).bytes);
  ASSERT_TRUE(relayed.has_value());
  EXPECT_EQ(std::get<messaging::ObjectMessage>(*relayed), message);
}

}  // namespace spotcheck::location::creation

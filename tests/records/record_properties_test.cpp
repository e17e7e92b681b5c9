// RapidCheck properties of the codec: valid records round-trip byte-exact; every decoder returns
// a value or a typed error for random, mutated, truncated and oversized input, and whatever it
// accepts re-encodes to exactly the input bytes.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "impl/records/records.h"
#include "tests/records/golden_fixture.h"

namespace spotcheck::records {
namespace {

// ---- Generators of valid records ---------------------------------------------------------------

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

// Code points that exercise escaping and UTF-8: controls, quote, backslash, '/', DEL, 2-, 3- and
// 4-byte sequences (no NUL, no surrogates).
rc::Gen<std::uint32_t> gen_code_point() {
  return rc::gen::weightedOneOf<std::uint32_t>({
      {8, rc::gen::inRange<std::uint32_t>(0x20, 0x7f)},
      {2, rc::gen::inRange<std::uint32_t>(0x01, 0x20)},
      {2, rc::gen::element<std::uint32_t>(0x22, 0x5c, 0x2f, 0x7f)},
      {1, rc::gen::inRange<std::uint32_t>(0x80, 0x800)},
      {1, rc::gen::inRange<std::uint32_t>(0x800, 0xd800)},
      {1, rc::gen::inRange<std::uint32_t>(0xe000, 0x10000)},
      {1, rc::gen::inRange<std::uint32_t>(0x10000, 0x110000)},
  });
}

rc::Gen<std::string> gen_text(std::size_t min_bytes, std::size_t max_bytes) {
  return rc::gen::exec([min_bytes, max_bytes] {
    const auto points = *rc::gen::container<std::vector<std::uint32_t>>(gen_code_point());
    std::string text;
    for (std::uint32_t cp : points) {
      std::string next;
      append_utf8(next, cp);
      if (text.size() + next.size() > max_bytes) {
        break;
      }
      text += next;
    }
    while (text.size() < min_bytes) {
      text.push_back('x');
    }
    return text;
  });
}

rc::Gen<std::string> gen_identity() { return gen_text(kIdentityBytesMin, kIdentityBytesMax); }

rc::Gen<std::string> gen_routing_id_hex() {
  return rc::gen::map(rc::gen::container<std::string>(rc::gen::arbitrary<char>()),
                      [](std::string bytes) {
                        if (bytes.empty()) {
                          bytes.push_back('\x00');
                        }
                        bytes.resize(std::min(bytes.size(), kRoutingIdBytesMax));
                        return to_hex(bytes);
                      });
}

rc::Gen<std::uint64_t> gen_generation() {
  return rc::gen::weightedOneOf<std::uint64_t>({
      {6, rc::gen::inRange<std::uint64_t>(1, 100000)},
      {2, rc::gen::inRange<std::uint64_t>(1, kGenerationMax)},
      {1, rc::gen::element(std::uint64_t{1}, std::uint64_t{kGenerationMax})},
  });
}

rc::Gen<std::uint64_t> gen_revision() {
  return rc::gen::oneOf(rc::gen::inRange<std::uint64_t>(1, 1000),
                        rc::gen::just(std::uint64_t{kRevisionMax}));
}

rc::Gen<std::int64_t> gen_epoch_ms() {
  return rc::gen::oneOf(rc::gen::inRange<std::int64_t>(0, kEpochMsMax),
                        rc::gen::element(std::int64_t{0}, std::int64_t{kEpochMsMax}));
}

rc::Gen<std::uint32_t> gen_slots() {
  return rc::gen::oneOf(rc::gen::inRange<std::uint32_t>(0, 100),
                        rc::gen::element(std::uint32_t{0}, std::uint32_t{kSlotsMax}));
}

rc::Gen<std::uint32_t> gen_weight() { return rc::gen::inRange<std::uint32_t>(0, kWeightMax + 1); }

rc::Gen<DescriptorState> gen_state() {
  return rc::gen::element(DescriptorState::kPreparing, DescriptorState::kServing,
                          DescriptorState::kRelocating, DescriptorState::kRelocated,
                          DescriptorState::kDraining, DescriptorState::kStopped,
                          DescriptorState::kError);
}

rc::Gen<ObjectKind> gen_spot_kind() {
  return rc::gen::element(ObjectKind::kUserSpot, ObjectKind::kInstanceSpot);
}

rc::Gen<OwnerLeaseRecord> gen_owner_lease() {
  return rc::gen::exec([] {
    OwnerLeaseRecord r;
    r.owner_id = *gen_identity();
    r.lease_generation = *gen_generation();
    r.expires_at_epoch_ms = *gen_epoch_ms();
    r.updated_at_epoch_ms = *gen_epoch_ms();
    return r;
  });
}

rc::Gen<ClientServerDescriptorRecord> gen_client_server() {
  return rc::gen::exec([] {
    ClientServerDescriptorRecord r;
    r.channel_name = *gen_identity();
    r.server_routing_id_hex = *gen_routing_id_hex();
    r.lifecycle_generation = *gen_generation();
    r.descriptor_revision = *gen_revision();
    r.endpoint = *gen_text(1, 64);
    r.weight = *gen_weight();
    r.state = *gen_state();
    r.security_identity = *gen_text(0, 64);
    r.owner_id = *gen_identity();
    r.lease_generation = *gen_generation();
    r.updated_at_epoch_ms = *gen_epoch_ms();
    return r;
  });
}

rc::Gen<FanoutPublisherDescriptorRecord> gen_fanout_publisher() {
  return rc::gen::exec([] {
    FanoutPublisherDescriptorRecord r;
    r.channel_name = *gen_identity();
    r.publisher_routing_id_hex = *gen_routing_id_hex();
    r.lifecycle_generation = *gen_generation();
    r.descriptor_revision = *gen_revision();
    r.endpoint = *gen_text(1, 64);
    r.state = *gen_state();
    r.security_identity = *gen_text(0, 64);
    r.owner_id = *gen_identity();
    r.lease_generation = *gen_generation();
    r.updated_at_epoch_ms = *gen_epoch_ms();
    return r;
  });
}

rc::Gen<MeshNodeDescriptorRecord> gen_mesh_node() {
  return rc::gen::exec([] {
    MeshNodeDescriptorRecord r;
    r.mesh_name = *gen_identity();
    r.routing_id_hex = *gen_routing_id_hex();
    r.lifecycle_generation = *gen_generation();
    r.descriptor_revision = *gen_revision();
    r.endpoint = *gen_text(1, 64);
    r.object_role = *rc::gen::element(ObjectRole::kNone, ObjectRole::kClient, ObjectRole::kServer);
    if (r.object_role == ObjectRole::kServer) {
      r.entry_spot_id = *gen_identity();
    }
    const auto channel_count = *rc::gen::inRange<std::size_t>(0, 6);
    for (std::size_t i = 0; i < channel_count; ++i) {
      r.channel_weights[*gen_identity()] = *gen_weight();
    }
    r.application_version = *rc::gen::inRange<std::uint64_t>(0, kSequenceMax);
    const auto capability_count = *rc::gen::inRange<std::size_t>(0, 5);
    for (std::size_t i = 0; i < capability_count; ++i) {
      ObjectCapability& c = r.object_capabilities.emplace_back();
      c.object_kind = *rc::gen::element(ObjectKind::kActor, ObjectKind::kUserSpot,
                                        ObjectKind::kInstanceSpot);
      c.stable_type = *gen_identity();
      c.policy = *rc::gen::element(CapabilityPolicy::kUnspecified, CapabilityPolicy::kDisabled,
                                   CapabilityPolicy::kRecreate, CapabilityPolicy::kSnapshot);
      c.has_snapshot_adapter = *rc::gen::arbitrary<bool>();
      c.limit = *gen_slots();
    }
    r.placement_weight = *gen_weight();
    r.capacity.actors = CapacityUsage{*gen_slots(), *gen_slots(), *gen_slots()};
    r.capacity.spots = CapacityUsage{*gen_slots(), *gen_slots(), *gen_slots()};
    const auto spot_type_count = *rc::gen::inRange<std::size_t>(0, 4);
    for (std::size_t i = 0; i < spot_type_count; ++i) {
      r.capacity.spot_types.push_back(SpotTypeUsage{*gen_spot_kind(), *gen_identity(),
                                                    *gen_slots(), *gen_slots(), *gen_slots()});
    }
    r.activation_concurrency = ActivationConcurrency{*gen_slots(), *gen_slots()};
    if (*rc::gen::arbitrary<bool>()) {
      r.maintenance_wave = *gen_identity();
    }
    r.state = *gen_state();
    r.security_identity = *gen_text(0, 64);
    r.owner_id = *gen_identity();
    r.lease_generation = *gen_generation();
    r.updated_at_epoch_ms = *gen_epoch_ms();
    return r;
  });
}

rc::Gen<AuthorityRecord> gen_authority() {
  return rc::gen::exec([] {
    AuthorityRecord r;
    r.payload = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
    r.object_generation = *gen_generation();
    r.authority_owner_generation = *gen_generation();
    r.owner_id = *gen_identity();
    r.owner_lease_generation = *gen_generation();
    Allocation& a = r.allocation;
    a.state = *rc::gen::element(AllocationState::kReserved, AllocationState::kActive);
    a.object_kind = *rc::gen::element(ObjectKind::kActor, ObjectKind::kUserSpot,
                                      ObjectKind::kInstanceSpot);
    a.stable_type = *gen_identity();
    a.descriptor = AllocationDescriptor{*gen_identity(), *gen_routing_id_hex()};
    a.descriptor_lifecycle_generation = *gen_generation();
    if (a.object_kind == ObjectKind::kActor) {
      a.capacity.actors = *rc::gen::inRange<std::uint32_t>(1, 3);
    } else {
      a.capacity.actors = *gen_slots();
      a.capacity.spots = 1;
      a.capacity.spot_type = SpotTypeSlot{a.object_kind, a.stable_type, 1};
    }
    if (*rc::gen::arbitrary<bool>()) {
      PendingCreation p;
      p.reservation_id = *gen_identity();
      p.request_content_reference = *gen_identity();
      p.request_sha256 = sha256_hex(*rc::gen::arbitrary<std::string>());
      p.request_encoded_size = *rc::gen::inRange<std::uint64_t>(0, kCreationRequestBytesMax + 1);
      r.pending_creation = p;
    }
    return r;
  });
}

// ---- Checks ------------------------------------------------------------------------------------

template <class Result>
void check_result(const Result& result, std::string_view bytes) {
  if (result.ok()) {
    RC_ASSERT(!validate(result.value()).has_value());
    RC_ASSERT(encode(result.value()) == bytes);
  } else {
    RC_ASSERT(!result.error().message.empty());
    RC_ASSERT(to_string(result.error().kind) != "kUnknownErrorKind");
  }
}

// Every decoder on the same bytes; at most one can accept them (the shapes are disjoint).
void check_all_decoders(std::string_view bytes) {
  const auto mesh = decode_mesh_node_descriptor_record(bytes);
  const auto lease = decode_owner_lease_record(bytes);
  const auto client = decode_client_server_descriptor_record(bytes);
  const auto fanout = decode_fanout_publisher_descriptor_record(bytes);
  const auto authority = decode_authority_record(bytes);
  check_result(mesh, bytes);
  check_result(lease, bytes);
  check_result(client, bytes);
  check_result(fanout, bytes);
  check_result(authority, bytes);
  const int accepted = mesh.ok() + lease.ok() + client.ok() + fanout.ok() + authority.ok();
  RC_ASSERT(accepted <= 1);
}

std::string mutate(std::string bytes) {
  const auto rounds = *rc::gen::inRange(1, 4);
  for (int round = 0; round < rounds; ++round) {
    const std::size_t size = bytes.size();
    const auto at = size == 0 ? std::size_t{0} : *rc::gen::inRange<std::size_t>(0, size);
    switch (*rc::gen::inRange(0, 6)) {
      case 0:  // overwrite one byte, biased toward JSON structure
        if (size > 0) {
          bytes[at] = *rc::gen::weightedOneOf<char>(
              {{3, rc::gen::element('"', '\\', ',', ':', '{', '}', '[', ']', ' ', '0', '1', '-',
                                    'n', 'e', '.')},
               {1, rc::gen::arbitrary<char>()}});
        }
        break;
      case 1:  // truncate
        bytes.resize(at);
        break;
      case 2:  // delete a range
        bytes.erase(at, *rc::gen::inRange<std::size_t>(0, 16));
        break;
      case 3:  // insert random bytes
        bytes.insert(at, *rc::gen::container<std::string>(rc::gen::arbitrary<char>()));
        break;
      case 4:  // duplicate a range (duplicate keys, repeated members)
        bytes.insert(at, bytes.substr(at, *rc::gen::inRange<std::size_t>(1, 64)));
        break;
      default:  // increment a digit
        if (size > 0 && bytes[at] >= '0' && bytes[at] < '9') {
          ++bytes[at];
        }
        break;
    }
  }
  return bytes;
}

// ---- Properties --------------------------------------------------------------------------------

template <class Record, class Decode>
void check_round_trip(const Record& record, Decode decode) {
  RC_ASSERT(!validate(record).has_value());
  const std::string bytes = encode(record);
  const auto checked = encode_checked(record);
  RC_ASSERT(checked.ok());
  RC_ASSERT(checked.value() == bytes);
  const auto decoded = decode(bytes);
  if (!decoded.ok()) {
    RC_FAIL(describe(decoded.error()));
  }
  RC_ASSERT(decoded.value() == record);
  RC_ASSERT(encode(decoded.value()) == bytes);
  check_all_decoders(mutate(bytes));
}

RC_GTEST_PROP(RecordProperties, OwnerLeaseRoundTrips, ()) {
  check_round_trip(*gen_owner_lease(), decode_owner_lease_record);
}
RC_GTEST_PROP(RecordProperties, ClientServerRoundTrips, ()) {
  check_round_trip(*gen_client_server(), decode_client_server_descriptor_record);
}
RC_GTEST_PROP(RecordProperties, FanoutPublisherRoundTrips, ()) {
  check_round_trip(*gen_fanout_publisher(), decode_fanout_publisher_descriptor_record);
}
RC_GTEST_PROP(RecordProperties, MeshNodeRoundTrips, ()) {
  check_round_trip(*gen_mesh_node(), decode_mesh_node_descriptor_record);
}
RC_GTEST_PROP(RecordProperties, AuthorityRoundTrips, ()) {
  check_round_trip(*gen_authority(), decode_authority_record);
}

RC_GTEST_PROP(RecordProperties, RandomBytesGiveValueOrTypedError, (const std::string& bytes)) {
  check_all_decoders(bytes);
}

RC_GTEST_PROP(RecordProperties, MutatedGoldenBytesGiveValueOrTypedError, ()) {
  const std::string name = *rc::gen::element<std::string>(
      "meshNodeDescriptor", "ownerLease", "clientServerDescriptor", "fanoutPublisherDescriptor",
      "authority");
  check_all_decoders(mutate(testing::golden_value_bytes(name)));
}

RC_GTEST_PROP(RecordProperties, EveryPrefixOfAValidRecordIsRejected, ()) {
  const std::string bytes = encode(*gen_authority());
  const auto size = *rc::gen::inRange<std::size_t>(0, bytes.size());
  const auto result = decode_authority_record(std::string_view(bytes).substr(0, size));
  RC_ASSERT(!result.ok());
  RC_ASSERT(result.error().kind == RecordErrorKind::kMalformedJson);
}

TEST(RecordProperties, OversizedInputIsTooLargeForEveryDecoder) {
  // Valid-looking JSON just over the limit: the size check comes first, nothing is parsed.
  std::string bytes = testing::golden_value_bytes("authority");
  bytes.insert(bytes.find("\"payload\":\"") + 11, std::string(kRecordBytesMax, 'A'));
  ASSERT_GT(bytes.size(), kRecordBytesMax);
  EXPECT_EQ(decode_authority_record(bytes).error().kind, RecordErrorKind::kTooLarge);
  EXPECT_EQ(decode_mesh_node_descriptor_record(bytes).error().kind, RecordErrorKind::kTooLarge);
  EXPECT_EQ(decode_owner_lease_record(bytes).error().kind, RecordErrorKind::kTooLarge);
  EXPECT_EQ(decode_client_server_descriptor_record(bytes).error().kind,
            RecordErrorKind::kTooLarge);
  EXPECT_EQ(decode_fanout_publisher_descriptor_record(bytes).error().kind,
            RecordErrorKind::kTooLarge);
}

TEST(RecordProperties, DeepNestingIsRejectedWithoutRecursion) {
  // The strict reader never recurses; the lenient version probe walks brackets iteratively.
  const std::string deep = "{\"recordVersion\":2,\"x\":" + std::string(500000, '[') + "}";
  const auto result = decode_authority_record(deep);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().kind, RecordErrorKind::kTooLarge);
}

}  // namespace
}  // namespace spotcheck::records

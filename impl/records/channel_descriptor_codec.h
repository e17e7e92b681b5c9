// The one codec of the two channel descriptor records (spec §3.4, §4): the ClientServer server
// descriptor and the fanout publisher descriptor. Their bytes differ in two things only, which a
// ChannelDescriptorSpec names:
//   - the routing-id key: "serverRoutingIdHex" | "publisherRoutingIdHex";
//   - "weight" (0..10000, a JSON number): only the ClientServer descriptor has it.
// The codec derives the rest: the descriptor object's key order (sorted by bytes at compile time,
// so the routing-id key lands where its name sorts), the field paths in error messages, and the
// top level shared with the MeshNode descriptor (descriptor_envelope.h). Internal to
// impl/records; each record's .cpp holds one constexpr codec and forwards its public API to it.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "impl/records/canonical_json_reader.h"
#include "impl/records/canonical_json_writer.h"
#include "impl/records/record_error.h"

namespace spotcheck::records::detail {

// What sets one channel descriptor record apart from the other.
template <class Record>
struct ChannelDescriptorSpec {
  std::string_view routing_id_key;      // JSON key of the routing id, e.g. "serverRoutingIdHex"
  std::string Record::*routing_id_hex;  // the member holding it
  std::uint32_t Record::*weight;        // the "weight" member; nullptr: no "weight" field
};

// The members of the descriptor object. kChannelName..kWeight index kChannelFieldPaths; the
// routing id's path comes from the spec.
enum class ChannelField : std::uint8_t {
  kChannelName,
  kDescriptorRevision,
  kEndpoint,
  kLeaseGeneration,
  kLifecycleGeneration,
  kOwnerId,
  kSecurityIdentity,
  kState,
  kUpdatedAtEpochMs,
  kWeight,
  kRoutingIdHex,
};

inline constexpr std::string_view kDescriptorPathPrefix = "descriptor.";

inline constexpr std::array<std::string_view, 10> kChannelFieldPaths{
    "descriptor.channelName",     "descriptor.descriptorRevision", "descriptor.endpoint",
    "descriptor.leaseGeneration", "descriptor.lifecycleGeneration", "descriptor.ownerId",
    "descriptor.securityIdentity", "descriptor.state",             "descriptor.updatedAtEpochMs",
    "descriptor.weight"};
static_assert(kChannelFieldPaths.size() == static_cast<std::size_t>(ChannelField::kRoutingIdHex));

template <class Record>
class ChannelDescriptorCodec {
 public:
  static constexpr std::size_t kFieldsMax = kChannelFieldPaths.size() + 1;
  static constexpr std::size_t kRoutingIdKeyBytesMax = 48;

  // Compile time only: a bad spec (no routing-id member, an empty, over-long or clashing key)
  // does not compile.
  consteval explicit ChannelDescriptorCodec(ChannelDescriptorSpec<Record> spec) : _spec(spec) {
    require(spec.routing_id_hex != nullptr, "routing_id_hex member missing");
    require(!spec.routing_id_key.empty() && spec.routing_id_key.size() <= kRoutingIdKeyBytesMax,
            "routing_id_key must be 1..48 bytes");
    std::array<Member, kFieldsMax> members{};
    for (std::size_t i = 0; i < kChannelFieldPaths.size(); ++i) {
      const auto field = static_cast<ChannelField>(i);
      if (field == ChannelField::kWeight && spec.weight == nullptr) {
        continue;
      }
      members[_count++] = {kChannelFieldPaths[i].substr(kDescriptorPathPrefix.size()), field};
    }
    members[_count++] = {spec.routing_id_key, ChannelField::kRoutingIdHex};
    std::sort(members.begin(), members.begin() + _count,
              [](const Member& a, const Member& b) { return a.key < b.key; });
    for (std::size_t i = 0; i < _count; ++i) {
      require(i == 0 || members[i - 1].key < members[i].key, "routing_id_key clashes");
      _keys[i] = members[i].key;
      _fields[i] = members[i].field;
    }
    std::copy(kDescriptorPathPrefix.begin(), kDescriptorPathPrefix.end(), _routing_id_path.begin());
    std::copy(spec.routing_id_key.begin(), spec.routing_id_key.end(),
              _routing_id_path.begin() + kDescriptorPathPrefix.size());
    _routing_id_path_bytes = kDescriptorPathPrefix.size() + spec.routing_id_key.size();
  }

  // Every field rule, in declaration order of the record struct; nullopt when valid.
  std::optional<RecordError> validate(const Record& record) const;
  // Canonical bytes; total, never fails.
  std::string encode(const Record& record) const;
  // Strict decode: the record or the first typed error.
  RecordResult<Record> decode(std::string_view bytes) const;

 private:
  struct Member {
    std::string_view key;
    ChannelField field = ChannelField::kChannelName;
  };

  static consteval void require(bool ok, const char* what) {
    if (!ok) {
      throw std::logic_error(what);  // in a consteval call: a compile error naming `what`
    }
  }

  ObjectSchema schema() const { return {"descriptor", std::span(_keys.data(), _count)}; }
  std::string_view path(ChannelField field) const;
  // The one place that knows each member's JSON spelling: calls io.text / decimal_string /
  // epoch_ms / number / state with the member (const for encoding, mutable for decoding).
  template <class R, class Io>
  void visit_field(R& record, ChannelField field, Io&& io) const;

  ChannelDescriptorSpec<Record> _spec;
  std::array<std::string_view, kFieldsMax> _keys{};  // ascending by bytes; _count in use
  std::array<ChannelField, kFieldsMax> _fields{};    // _fields[i] is the member named _keys[i]
  std::size_t _count = 0;
  std::array<char, kDescriptorPathPrefix.size() + kRoutingIdKeyBytesMax> _routing_id_path{};
  std::size_t _routing_id_path_bytes = 0;
};

}  // namespace spotcheck::records::detail

#include "impl/records/fanout_publisher_descriptor_record.h"

#include <array>

#include "impl/records/canonical_json_reader.h"
#include "impl/records/canonical_json_writer.h"
#include "impl/records/descriptor_envelope.h"
#include "impl/records/keys.h"
#include "impl/records/record_codec_common.h"
#include "impl/records/validate.h"

namespace spotcheck::records {
namespace {

constexpr std::array<std::string_view, 10> kDescriptorKeys{
    "channelName",         "descriptorRevision",    "endpoint",         "leaseGeneration",
    "lifecycleGeneration", "ownerId",               "publisherRoutingIdHex", "securityIdentity",
    "state",               "updatedAtEpochMs"};
constexpr ObjectSchema kDescriptor{"descriptor", kDescriptorKeys};

}  // namespace

std::optional<RecordError> validate(const FanoutPublisherDescriptorRecord& record) {
  if (auto error = check_identity("descriptor.channelName", record.channel_name)) {
    return error;
  }
  if (auto error = check_routing_id_hex("descriptor.publisherRoutingIdHex",
                                        record.publisher_routing_id_hex)) {
    return error;
  }
  if (auto error = check_generation("descriptor.lifecycleGeneration",
                                    record.lifecycle_generation)) {
    return error;
  }
  if (auto error = check_revision("descriptor.descriptorRevision", record.descriptor_revision)) {
    return error;
  }
  if (auto error = check_text("descriptor.endpoint", record.endpoint, false)) {
    return error;
  }
  if (auto error = check_text("descriptor.securityIdentity", record.security_identity, true)) {
    return error;
  }
  if (auto error = check_identity("descriptor.ownerId", record.owner_id)) {
    return error;
  }
  if (auto error = check_generation("descriptor.leaseGeneration", record.lease_generation)) {
    return error;
  }
  if (auto error = check_range("descriptor.updatedAtEpochMs",
                               static_cast<std::uint64_t>(record.updated_at_epoch_ms), 0,
                               kSequenceMax)) {
    return error;
  }
  return std::nullopt;
}

std::string encode(const FanoutPublisherDescriptorRecord& record) {
  CanonicalJsonWriter w(512);
  detail::begin_descriptor_envelope(w);
  w.begin_object();
  w.key("channelName");
  w.string_value(record.channel_name);
  w.key("descriptorRevision");
  w.decimal_string_value(record.descriptor_revision);
  w.key("endpoint");
  w.string_value(record.endpoint);
  w.key("leaseGeneration");
  w.decimal_string_value(record.lease_generation);
  w.key("lifecycleGeneration");
  w.decimal_string_value(record.lifecycle_generation);
  w.key("ownerId");
  w.string_value(record.owner_id);
  w.key("publisherRoutingIdHex");
  w.string_value(record.publisher_routing_id_hex);
  w.key("securityIdentity");
  w.string_value(record.security_identity);
  w.key("state");
  w.string_value(to_string(record.state));
  w.key("updatedAtEpochMs");
  w.decimal_string_value(static_cast<std::uint64_t>(record.updated_at_epoch_ms));
  w.end_object();
  detail::end_descriptor_envelope(w, {record.descriptor_revision, record.lease_generation, record.owner_id});
  assert(w.depth() == 0);
  return w.take();
}

RecordResult<std::string> encode_checked(const FanoutPublisherDescriptorRecord& record) {
  return detail::encode_checked_impl(record);
}

RecordResult<FanoutPublisherDescriptorRecord> decode_fanout_publisher_descriptor_record(
    std::string_view bytes) {
  if (auto error = detail::check_record_size(bytes)) {
    return std::move(*error);
  }
  CanonicalJsonReader r(bytes);
  FanoutPublisherDescriptorRecord record;
  if (detail::read_descriptor_envelope_start(r)) {
    if (r.key(kDescriptor, 0)) {
      r.string_into(record.channel_name, "descriptor.channelName");
    }
    if (r.key(kDescriptor, 1)) {
      record.descriptor_revision = r.decimal_string("descriptor.descriptorRevision", kRevisionMax);
    }
    if (r.key(kDescriptor, 2)) {
      r.string_into(record.endpoint, "descriptor.endpoint");
    }
    if (r.key(kDescriptor, 3)) {
      record.lease_generation = r.decimal_string("descriptor.leaseGeneration", kRevisionMax);
    }
    if (r.key(kDescriptor, 4)) {
      record.lifecycle_generation =
          r.decimal_string("descriptor.lifecycleGeneration", kRevisionMax);
    }
    if (r.key(kDescriptor, 5)) {
      r.string_into(record.owner_id, "descriptor.ownerId");
    }
    if (r.key(kDescriptor, 6)) {
      r.string_into(record.publisher_routing_id_hex, "descriptor.publisherRoutingIdHex");
    }
    if (r.key(kDescriptor, 7)) {
      r.string_into(record.security_identity, "descriptor.securityIdentity");
    }
    if (r.key(kDescriptor, 8)) {
      record.state = r.enum_value<DescriptorState>("descriptor.state", parse_descriptor_state);
    }
    if (r.key(kDescriptor, 9)) {
      record.updated_at_epoch_ms =
          static_cast<std::int64_t>(r.decimal_string("descriptor.updatedAtEpochMs", kSequenceMax));
    }
    r.end_object(kDescriptor);
  }
  const detail::EnvelopeFacts top = detail::read_descriptor_envelope_end(r);
  if (!r.failed()) {
    if (auto error = detail::check_envelope(top, {record.descriptor_revision, record.lease_generation, record.owner_id})) {
      return std::move(*error);
    }
  }
  return detail::finish_decode(r, bytes, std::move(record));
}

std::string key_preimage(const FanoutPublisherDescriptorRecord& record) {
  return fanout_publisher_preimage(record.channel_name, record.publisher_routing_id_hex);
}

}  // namespace spotcheck::records

// The member definitions of ChannelDescriptorCodec (channel_descriptor_codec.h). Included only by
// the .cpp of each channel descriptor record, whose constexpr codec instantiates them for its own
// record: the codec knows neither record.
#pragma once

#include <utility>

#include "impl/check/check.h"
#include "impl/records/channel_descriptor_codec.h"
#include "impl/records/descriptor_envelope.h"
#include "impl/records/enums.h"
#include "impl/records/limits.h"
#include "impl/records/record_codec_common.h"
#include "impl/records/validate.h"

namespace spotcheck::records::detail {

template <class Record>
std::string_view ChannelDescriptorCodec<Record>::path(ChannelField field) const {
  if (field == ChannelField::kRoutingIdHex) {
    return {_routing_id_path.data(), _routing_id_path_bytes};
  }
  const auto index = static_cast<std::size_t>(field);
  SPOTCHECK_ASSERT(index < kChannelFieldPaths.size());
  return kChannelFieldPaths[index];
}

template <class Record>
std::optional<RecordError> ChannelDescriptorCodec<Record>::validate(const Record& record) const {
  if (auto error = check_identity(path(ChannelField::kChannelName), record.channel_name)) {
    return error;
  }
  if (auto error = check_routing_id_hex(path(ChannelField::kRoutingIdHex),
                                        record.*_spec.routing_id_hex)) {
    return error;
  }
  if (auto error = check_generation(path(ChannelField::kLifecycleGeneration),
                                    record.lifecycle_generation)) {
    return error;
  }
  if (auto error = check_revision(path(ChannelField::kDescriptorRevision),
                                  record.descriptor_revision)) {
    return error;
  }
  if (auto error = check_text(path(ChannelField::kEndpoint), record.endpoint, false)) {
    return error;
  }
  if (_spec.weight != nullptr) {
    if (auto error = check_range(path(ChannelField::kWeight), record.*_spec.weight, 0,
                                 kWeightMax)) {
      return error;
    }
  }
  if (auto error = check_text(path(ChannelField::kSecurityIdentity), record.security_identity,
                              true)) {
    return error;
  }
  if (auto error = check_identity(path(ChannelField::kOwnerId), record.owner_id)) {
    return error;
  }
  if (auto error = check_generation(path(ChannelField::kLeaseGeneration),
                                    record.lease_generation)) {
    return error;
  }
  return check_range(path(ChannelField::kUpdatedAtEpochMs),
                     static_cast<std::uint64_t>(record.updated_at_epoch_ms), 0, kSequenceMax);
}

namespace channel_codec {

// The two sides of visit_field: one method per JSON spelling, each given the member itself.
struct FieldWriter {
  CanonicalJsonWriter& w;

  void text(const std::string& value) { w.string_value(value); }
  void decimal_string(std::uint64_t value, std::uint64_t /*max*/) { w.decimal_string_value(value); }
  void epoch_ms(std::int64_t value) { w.decimal_string_value(static_cast<std::uint64_t>(value)); }
  void number(std::uint32_t value, std::uint64_t /*max*/) { w.number_value(value); }
  void state(DescriptorState value) { w.string_value(to_string(value)); }
};

struct FieldReader {
  CanonicalJsonReader& r;
  std::string_view path;

  void text(std::string& value) { value = r.string(path); }
  void decimal_string(std::uint64_t& value, std::uint64_t max) {
    value = r.decimal_string(path, max);
  }
  void epoch_ms(std::int64_t& value) {
    value = static_cast<std::int64_t>(r.decimal_string(path, kSequenceMax));
  }
  void number(std::uint32_t& value, std::uint64_t max) {
    value = static_cast<std::uint32_t>(r.number(path, max));
  }
  void state(DescriptorState& value) {
    value = r.enum_value<DescriptorState>(path, parse_descriptor_state);
  }
};

}  // namespace channel_codec

template <class Record>
template <class R, class Io>
void ChannelDescriptorCodec<Record>::visit_field(R& record, ChannelField field, Io&& io) const {
  switch (field) {
    case ChannelField::kChannelName:
      io.text(record.channel_name);
      return;
    case ChannelField::kDescriptorRevision:
      io.decimal_string(record.descriptor_revision, kRevisionMax);
      return;
    case ChannelField::kEndpoint:
      io.text(record.endpoint);
      return;
    case ChannelField::kLeaseGeneration:
      io.decimal_string(record.lease_generation, kRevisionMax);
      return;
    case ChannelField::kLifecycleGeneration:
      io.decimal_string(record.lifecycle_generation, kRevisionMax);
      return;
    case ChannelField::kOwnerId:
      io.text(record.owner_id);
      return;
    case ChannelField::kSecurityIdentity:
      io.text(record.security_identity);
      return;
    case ChannelField::kState:
      io.state(record.state);
      return;
    case ChannelField::kUpdatedAtEpochMs:
      io.epoch_ms(record.updated_at_epoch_ms);
      return;
    case ChannelField::kWeight:
      SPOTCHECK_ASSERT(_spec.weight != nullptr);  // in the key list only when the record has a weight
      io.number(record.*_spec.weight, kWeightMax);
      return;
    case ChannelField::kRoutingIdHex:
      io.text(record.*_spec.routing_id_hex);
      return;
  }
  SPOTCHECK_ASSERT(false && "unknown ChannelField");
}

template <class Record>
std::string ChannelDescriptorCodec<Record>::encode(const Record& record) const {
  CanonicalJsonWriter w(512);
  begin_descriptor_envelope(w);
  w.begin_object();
  for (std::size_t i = 0; i < _count; ++i) {
    w.key(_keys[i]);
    visit_field(record, _fields[i], channel_codec::FieldWriter{w});
  }
  w.end_object();
  end_descriptor_envelope(w, {record.descriptor_revision, record.lease_generation, record.owner_id});
  SPOTCHECK_ASSERT(w.depth() == 0);
  return w.take();
}

template <class Record>
RecordResult<Record> ChannelDescriptorCodec<Record>::decode(std::string_view bytes) const {
  if (auto error = check_record_size(bytes)) {
    return std::move(*error);
  }
  CanonicalJsonReader r(bytes);
  Record record;
  if (read_descriptor_envelope_start(r)) {
    const ObjectSchema descriptor = schema();
    // After the first error key() is false, so the remaining members are skipped.
    for (std::size_t i = 0; i < _count; ++i) {
      if (r.key(descriptor, i)) {
        visit_field(record, _fields[i], channel_codec::FieldReader{r, path(_fields[i])});
      }
    }
    r.end_object(descriptor);
  }
  const EnvelopeFacts top = read_descriptor_envelope_end(r);
  if (!r.failed()) {
    if (auto error = check_envelope(
            top, {record.descriptor_revision, record.lease_generation, record.owner_id})) {
      return std::move(*error);
    }
  }
  return finish_decode(r, bytes, std::move(record));
}

}  // namespace spotcheck::records::detail

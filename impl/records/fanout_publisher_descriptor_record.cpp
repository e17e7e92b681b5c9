#include "impl/records/fanout_publisher_descriptor_record.h"

#include "impl/records/channel_descriptor_codec_impl.h"
#include "impl/records/keys.h"
#include "impl/records/record_codec_common.h"

namespace spotcheck::records {
namespace {

// Unlike the ClientServer descriptor: "publisherRoutingIdHex", and no "weight".
constexpr detail::ChannelDescriptorCodec<FanoutPublisherDescriptorRecord> kCodec({
    .routing_id_key = "publisherRoutingIdHex",
    .routing_id_hex = &FanoutPublisherDescriptorRecord::publisher_routing_id_hex,
    .weight = nullptr,
});

}  // namespace

std::optional<RecordError> validate(const FanoutPublisherDescriptorRecord& record) {
  return kCodec.validate(record);
}

std::string encode(const FanoutPublisherDescriptorRecord& record) {
  return kCodec.encode(record);
}

RecordResult<std::string> encode_checked(const FanoutPublisherDescriptorRecord& record) {
  return detail::encode_checked_impl(record);
}

RecordResult<FanoutPublisherDescriptorRecord> decode_fanout_publisher_descriptor_record(
    std::string_view bytes) {
  return kCodec.decode(bytes);
}

std::string key_preimage(const FanoutPublisherDescriptorRecord& record) {
  return fanout_publisher_preimage(record.channel_name, record.publisher_routing_id_hex);
}

}  // namespace spotcheck::records

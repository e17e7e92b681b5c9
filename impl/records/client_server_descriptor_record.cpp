#include "impl/records/client_server_descriptor_record.h"

#include "impl/records/channel_descriptor_codec_impl.h"
#include "impl/records/keys.h"
#include "impl/records/record_codec_common.h"

namespace spotcheck::records {
namespace {

// Unlike the fanout publisher descriptor: "serverRoutingIdHex", and a "weight".
constexpr detail::ChannelDescriptorCodec<ClientServerDescriptorRecord> kCodec({
    .routing_id_key = "serverRoutingIdHex",
    .routing_id_hex = &ClientServerDescriptorRecord::server_routing_id_hex,
    .weight = &ClientServerDescriptorRecord::weight,
});

}  // namespace

std::optional<RecordError> validate(const ClientServerDescriptorRecord& record) {
  return kCodec.validate(record);
}

std::string encode(const ClientServerDescriptorRecord& record) {
  return kCodec.encode(record);
}

RecordResult<std::string> encode_checked(const ClientServerDescriptorRecord& record) {
  return detail::encode_checked_impl(record);
}

RecordResult<ClientServerDescriptorRecord> decode_client_server_descriptor_record(
    std::string_view bytes) {
  return kCodec.decode(bytes);
}

std::string key_preimage(const ClientServerDescriptorRecord& record) {
  return client_server_preimage(record.channel_name, record.server_routing_id_hex);
}

}  // namespace spotcheck::records

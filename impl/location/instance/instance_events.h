// Event kinds of Instance Spot cold activation (spec §7.1). docs/events.md "Instance Spot cold
// activation" documents every field.
#pragma once

#include <string_view>

namespace spotcheck::location::instance::events {

// Source.
inline constexpr std::string_view kRequestSent = "instance.request_sent";
inline constexpr std::string_view kTypeSelected = "instance.type_selected";
inline constexpr std::string_view kRouted = "instance.routed";
// The one authority read after an owner-fence refusal (0.27), or each re-read of the planted
// 0.26 retry loop.
inline constexpr std::string_view kAuthorityRead = "instance.authority_read";
// The planted 0.26 bug resubmits the same OperationId after an error that may follow admission.
inline constexpr std::string_view kResubmitted = "instance.resubmitted";
// The request's answer was handed to the caller: at most once per (source, OperationId).
inline constexpr std::string_view kReplyDelivered = "instance.reply_delivered";
// Target.
inline constexpr std::string_view kRequestReceived = "instance.request_received";
inline constexpr std::string_view kPayloadStored = "instance.payload_stored";
inline constexpr std::string_view kReserved = "instance.reserved";
inline constexpr std::string_view kReserveLost = "instance.reserve_lost";
inline constexpr std::string_view kFactoryRun = "instance.factory_run";
inline constexpr std::string_view kReady = "instance.ready";
inline constexpr std::string_view kFirstMessageRun = "instance.first_message_run";
inline constexpr std::string_view kMessageRun = "instance.message_run";
inline constexpr std::string_view kEndOfUseRecorded = "instance.end_of_use_recorded";
inline constexpr std::string_view kPayloadReleased = "instance.payload_released";
inline constexpr std::string_view kOutcome = "instance.outcome";
// Close without Reincarnate ended this incarnation (the row is deleted, the instance dropped).
inline constexpr std::string_view kClosing = "instance.closing";
inline constexpr std::string_view kClosed = "instance.closed";
// A new activation met an incarnation of the same Spot still closing in this host run (its
// Close's Delete applied, the Close not yet ended): it waits for that local Close to end.
inline constexpr std::string_view kCloseAwaited = "instance.close_awaited";

}  // namespace spotcheck::location::instance::events

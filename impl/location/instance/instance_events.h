// Event kinds of Instance Spot cold activation (spec §7.1). docs/events.md "Instance Spot cold
// activation" documents every field.
#pragma once

#include <string_view>

namespace spotcheck::location::instance::events {

// Source.
inline constexpr std::string_view kRequestSent = "instance.request_sent";
inline constexpr std::string_view kTypeSelected = "instance.type_selected";
inline constexpr std::string_view kRouted = "instance.routed";
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

}  // namespace spotcheck::location::instance::events

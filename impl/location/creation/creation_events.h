// Event kinds of creation, find and close (docs/events.md "Creation" documents every field).
#pragma once

#include <string_view>

namespace spotcheck::location::creation::events {

// Source (the node whose Manager was called).
inline constexpr std::string_view kRequested = "creation.requested";
inline constexpr std::string_view kCommandSent = "creation.command_sent";
inline constexpr std::string_view kReplyDelivered = "creation.reply_delivered";
inline constexpr std::string_view kResultReread = "creation.result_reread";
inline constexpr std::string_view kAbandonedCancelled = "creation.abandoned_cancelled";
inline constexpr std::string_view kFinished = "creation.finished";

// Target (the node the Creating row was reserved on).
inline constexpr std::string_view kCommandReceived = "creation.command_received";
inline constexpr std::string_view kVerifyFailed = "creation.verify_failed";
inline constexpr std::string_view kFactoryRun = "creation.factory_run";
inline constexpr std::string_view kFactoryReturned = "creation.factory_returned";
inline constexpr std::string_view kResult = "creation.result";
inline constexpr std::string_view kReplySent = "creation.reply_sent";

// Find / Destroy / Close (§7.2).
inline constexpr std::string_view kFound = "find.result";
inline constexpr std::string_view kCloseRequested = "close.requested";
inline constexpr std::string_view kCloseResult = "close.result";
inline constexpr std::string_view kCloseReplyDelivered = "close.reply_delivered";
inline constexpr std::string_view kCloseFinished = "close.finished";

// Final results (§7 "Stored final result").
inline constexpr std::string_view kResultExpired = "creation.result_expired";

}  // namespace spotcheck::location::creation::events

// The two framework-internal records of a creation (spec §7), canonical JSON (keys sorted, no
// whitespace; generations and times as decimal strings; bytes as base64):
//
//   creation request  "creation-request-v1": written by Reserve in the same request as the
//                     Creating row; pendingCreation points at it (reference, SHA-256, size).
//                     Holds the request only — never the placement or capacity (§12).
//   final result      "creation-operation-terminal-v1": written by Commit (Created) or by the
//                     Abort that deletes the Creating row (Rejected / Failed), in the same
//                     request. Never holds the network correlation or the reply route.
//
// Each is at most 1 MiB (checked by the writer).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/location/creation/manager_types.h"
#include "impl/location/creation/operation_key.h"
#include "impl/location/messaging/commands.h"
#include "impl/records/enums.h"

namespace spotcheck::location::creation {

struct CreationRequestRecord {
  OperationKey operation;
  messaging::WireHostRun source;
  CreateMode mode = CreateMode::kCreate;
  records::ObjectKind object_kind = records::ObjectKind::kActor;
  std::string id;
  std::string stable_type;
  std::string args;  // the caller's creation arguments, opaque
  std::int64_t deadline_store_ms = 0;
  std::string reservation_id;
  friend bool operator==(const CreationRequestRecord&, const CreationRequestRecord&) = default;
};

std::string encode(const CreationRequestRecord& record);
std::optional<CreationRequestRecord> decode_creation_request(std::string_view bytes);

struct FinalResultRecord {
  OperationKey operation;
  ReplyOutcome outcome = ReplyOutcome::kFailed;  // created | rejected | failed
  std::optional<messaging::WireRef> ref;         // created only
  std::string stable_type;
  std::string message;
  std::string app_reply;
  std::int64_t retain_until_ms = 0;  // store time: original deadline + 5 minutes
  std::string request_sha256;        // of the creation request it answers
  friend bool operator==(const FinalResultRecord&, const FinalResultRecord&) = default;
};

std::string encode(const FinalResultRecord& record);
std::optional<FinalResultRecord> decode_final_result(std::string_view bytes);

}  // namespace spotcheck::location::creation

// The remote commands of creation and close (spec §7, §7.2) as they cross platform::Transport.
// The Core transport carries bytes only; this is the codec: one JSON object per message
// (nlohmann::json, keys sorted, compact), with the command number in "cmd" and the reply
// correlation in "request" (unique per sending host run; a reply carries its command's value).
//
//   49 actor create      CreateCommand, object_kind = actor
//   47 user spot create  CreateCommand, object_kind = userSpot
//   48 userSpotClose     CloseCommand (also carries Actor Destroy, kind = actor: this slice's
//                        choice — the spec names no separate command for it)
//   20 final result      FinalResultReply, the one reply of 47/48/49
//   50 instanceSpotRequest  InstanceSpotRequest: §7.1's creation info and the first message
//   51 instanceSpotReply    InstanceSpotReply, the one reply of 50 (the target's InstanceOutcome)
//   52 objectMessage        ObjectMessage: a regular message to a Ready Actor / Spot (§7.3)
//   53 objectMessageReply   ObjectMessageReply, the one reply of 52 (MessageOutcome)
//   54 relocation           RelocationCommand: one step of a handoff between the source and the
//                           target (§1.3, §9.1: Restore, chunk, relay-ready or failure, relay,
//                           cutover) or a message Message Follow forwards (§7.3)
//
// §7.1 names no command number for the Instance Spot request or its reply, nor the spec for a
// regular object message: 50..53 are this slice's choice (unused by the spec's numbered commands
// 20, 39, 44, 47, 48, 49).
//
// The network correlation ("request") and the reply route (the envelope's sender) are never
// stored in the Location Store (§7 "Stored final result").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "impl/location/messaging/instance_outcome.h"
#include "impl/location/messaging/operation_id.h"
#include "impl/records/enums.h"
#include "impl/records/keys.h"

namespace spotcheck::location::messaging {

enum class CommandCode : std::uint32_t {
  kFinalResult = 20,
  kUserSpotCreate = 47,
  kUserSpotClose = 48,
  kActorCreate = 49,
  kInstanceSpotRequest = 50,
  kInstanceSpotReply = 51,
  kObjectMessage = 52,
  kObjectMessageReply = 53,
  kRelocation = 54,
};

// One host run on the wire (§3.1).
struct WireHostRun {
  std::string owner_id;
  std::uint64_t lease_generation = 0;
  friend bool operator==(const WireHostRun&, const WireHostRun&) = default;
};

// 47 / 49: create the object the source reserved (the Creating row it secured on the target).
struct CreateCommand {
  std::uint64_t request = 0;
  OperationId op_id;
  std::string source_rid_hex;
  WireHostRun source;
  WireHostRun target;
  records::ObjectKind object_kind = records::ObjectKind::kActor;  // actor | userSpot
  std::string id;
  std::string stable_type;
  std::uint64_t object_generation = 0;
  std::uint64_t store_version = 0;  // StoreVersion of the Creating row as Reserve left it
  std::string reservation_id;
  std::int64_t deadline_store_ms = 0;  // the Manager call's deadline in store time

  CommandCode code() const {
    return object_kind == records::ObjectKind::kActor ? CommandCode::kActorCreate
                                                      : CommandCode::kUserSpotCreate;
  }
  friend bool operator==(const CreateCommand&, const CreateCommand&) = default;
};

// 48: close (or destroy) exactly the ref's generation on its owner.
struct CloseCommand {
  std::uint64_t request = 0;
  OperationId op_id;
  std::string source_rid_hex;
  WireHostRun source;
  WireHostRun target;
  records::AuthorityKind kind = records::AuthorityKind::kSpot;
  std::string id;
  std::uint64_t object_generation = 0;
  std::uint64_t owner_generation = 0;  // AuthorityOwnerGeneration the source read
  std::uint64_t store_version = 0;     // StoreVersion the source read
  std::int64_t deadline_store_ms = 0;

  CommandCode code() const { return CommandCode::kUserSpotClose; }
  friend bool operator==(const CloseCommand&, const CloseCommand&) = default;
};

// The outcome a command-20 reply carries.
enum class ReplyOutcome {
  kExisting,         // GetOrCreate found the object Ready
  kCreated,          // the factory approved; Ready + final result stored in one request
  kRejected,         // the factory declined; row deleted, space returned, result stored
  kFailed,           // the factory threw; row deleted, space returned, typed result stored
  kCancelled,        // a Framework failure before the callback: no final result (§7 table)
  kClosed,           // 48: the ref's generation was removed
  kNotFound,         // 48: no record
  kStaleGeneration,  // 48: another generation of the ID exists
  kMoving,           // 48: the object is being moved (or its owner changed)
};
std::string_view to_string(ReplyOutcome outcome);
std::optional<ReplyOutcome> parse_reply_outcome(std::string_view text);
// Existing | Created | Rejected | Failed: the results §7 lets remote creation complete with.
constexpr bool is_creation_result(ReplyOutcome outcome) {
  return outcome == ReplyOutcome::kExisting || outcome == ReplyOutcome::kCreated ||
         outcome == ReplyOutcome::kRejected || outcome == ReplyOutcome::kFailed;
}

// The object a reply names (ActorRef / SpotRef fields, §7.2).
struct WireRef {
  records::AuthorityKind kind = records::AuthorityKind::kActor;
  std::string id;
  std::uint64_t object_generation = 0;
  std::string mesh_name;
  std::string node_rid_hex;
  friend bool operator==(const WireRef&, const WireRef&) = default;
};

// 20: the final result, freshly built for the connection that asked.
struct FinalResultReply {
  std::uint64_t request = 0;
  OperationId op_id;
  ReplyOutcome outcome = ReplyOutcome::kCancelled;
  std::optional<WireRef> ref;  // for existing / created
  std::string stable_type;
  std::string message;    // typed failure text
  std::string app_reply;  // the factory's optional application reply

  CommandCode code() const { return CommandCode::kFinalResult; }
  friend bool operator==(const FinalResultReply&, const FinalResultReply&) = default;
};

// 50: an Instance Spot request (spec §7.1): the creation info the source sends and the first
// message. The source created no owner and no generation; the target cold-activates the Spot if
// no record exists. `request` is the reply correlation; the target descriptor is the node the
// source addressed (its host run as the source read it; empty on a kRoute forward, where the
// source knows only the route's RID).
struct InstanceSpotRequest {
  std::uint64_t request = 0;
  OperationId op_id;
  std::string stable_type;
  std::string mesh_name;
  std::string target_rid_hex;
  WireHostRun target;
  std::string spot_id;
  std::string source_rid_hex;
  WireHostRun source;
  std::optional<std::string> source_spot_id;  // the sending Spot, when a Spot sends
  std::int64_t deadline_store_ms = 0;
  std::string command39;  // the command-39 information, opaque to this runtime
  std::string args;           // creation arguments, opaque
  std::string first_message;  // the first message body, opaque

  CommandCode code() const { return CommandCode::kInstanceSpotRequest; }
  friend bool operator==(const InstanceSpotRequest&, const InstanceSpotRequest&) = default;
};

// 51: how the target ended one Instance Spot request, freshly built for the connection that asked.
struct InstanceSpotReply {
  std::uint64_t request = 0;
  OperationId op_id;
  InstanceOutcome outcome;

  CommandCode code() const { return CommandCode::kInstanceSpotReply; }
  friend bool operator==(const InstanceSpotReply&, const InstanceSpotReply&) = default;
};

// 52: one regular message to the Ready object (kind, id) of ObjectGeneration `object_generation`
// whose owner the sender read as `target` (AuthorityOwnerGeneration `owner_generation`). A sender
// (`stream`: one sequential flow of sends of the sending host run, e.g. one client task) numbers
// its messages (`sequence`, increasing from 1 across all objects) so the order it sent them to one
// object in can be checked where they run.
struct ObjectMessage {
  std::uint64_t request = 0;
  OperationId op_id;
  std::string source_rid_hex;
  WireHostRun source;
  WireHostRun target;
  records::AuthorityKind kind = records::AuthorityKind::kActor;
  std::string id;
  std::uint64_t object_generation = 0;
  std::uint64_t owner_generation = 0;
  std::uint64_t stream = 0;
  std::uint64_t sequence = 0;
  std::string payload;  // the application's bytes, opaque

  CommandCode code() const { return CommandCode::kObjectMessage; }
  friend bool operator==(const ObjectMessage&, const ObjectMessage&) = default;
};

// How the owner ended one regular message. Only kRan says it ran; every other outcome says it
// did not and never will (the sender may look the object up again and send it once more).
enum class MessageOutcome {
  kRan,              // one turn of the object ran it; `reply` is the application's answer
  kNotHere,          // this host run hosts no instance of the object (never did, or it is gone)
  kStaleGeneration,  // the instance here is of another ObjectGeneration (§7.1): not run
  kNotAdmitted,      // §5: the turn could not start (admission closed, or the instance went)
  kNoHandler,        // no message handler is registered for the object's stable type
};
std::string_view to_string(MessageOutcome outcome);
std::optional<MessageOutcome> parse_message_outcome(std::string_view text);

// 53: the one reply of 52, freshly built for the connection that asked.
struct ObjectMessageReply {
  std::uint64_t request = 0;
  OperationId op_id;
  MessageOutcome outcome = MessageOutcome::kNotHere;
  std::string reply;  // the application's answer for kRan

  CommandCode code() const { return CommandCode::kObjectMessageReply; }
  friend bool operator==(const ObjectMessageReply&, const ObjectMessageReply&) = default;
};

// 54: one step of one relocation attempt on the ordered connection between its source and its
// target (§1.3 steps 4-6, §9.1), or a message the previous owner forwards (§7.3). Every step of
// an attempt carries its binding — RelocationId, TargetAttemptGeneration, the source fence (the
// source host run and the AuthorityOwnerGeneration it owns the object at) — and the object.
enum class RelocationStep {
  kRestore,     // source -> target: the payload declared (length, chunk count, CRC-32C), the deadline
  kChunk,       // source -> target: chunk `index` of the payload (`bytes`)
  kRelayReady,  // target -> source: restored into an unexposed instance, relay reception ready
  kFailed,      // target -> source: an explicit failure before relay-ready (`bytes`: why)
  kRelay,       // source -> target: one message of the ingress hold (`bytes`: its command 52)
  kCutover,     // source -> target: one-way, after the relay
  kFollow,      // previous owner -> next: a message that arrived after the move (`bytes`: its
                // command 52, unchanged; `passed`: the routes it left; `ownerGen`: the
                // AuthorityOwnerGeneration of the last forward)
};
std::string_view to_string(RelocationStep step);
std::optional<RelocationStep> parse_relocation_step(std::string_view text);

struct RelocationCommand {
  RelocationStep step = RelocationStep::kRestore;
  std::string relocation;  // RelocationId, 32 hex digits
  std::uint64_t attempt = 0;  // TargetAttemptGeneration (non-zero)
  std::string source_rid_hex;
  WireHostRun source;
  std::uint64_t owner_generation = 0;  // the AuthorityOwnerGeneration the source owns the object at
  records::AuthorityKind kind = records::AuthorityKind::kActor;
  std::string id;
  std::uint64_t object_generation = 0;
  std::string stable_type;
  std::uint64_t total_length = 0;  // restore
  std::uint64_t chunk_count = 0;   // restore
  std::uint64_t crc32c = 0;        // restore
  std::uint64_t index = 0;         // chunk: its index; follow: the hops so far
  std::int64_t deadline_store_ms = 0;  // restore: the Restore deadline in store time
  std::string bytes;
  std::string passed;  // follow: the routes it was forwarded from, comma-separated hex, in order

  CommandCode code() const { return CommandCode::kRelocation; }
  friend bool operator==(const RelocationCommand&, const RelocationCommand&) = default;
};

using Command = std::variant<CreateCommand, CloseCommand, FinalResultReply, InstanceSpotRequest, InstanceSpotReply,
                             ObjectMessage, ObjectMessageReply, RelocationCommand>;

std::string encode(const Command& command);
// nullopt for anything that is not a well-formed command of this codec.
std::optional<Command> decode(std::string_view bytes);

}  // namespace spotcheck::location::messaging

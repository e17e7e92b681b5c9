// The target side of remote creation (spec §7, commands 47 / 49 -> 20).
//
// For each create command the target, on its own task:
//   1. verifies — before anything runs — that the command names this host run as target, that
//      the source RID and host run match the stored creation request, and that the Creating row
//      is exactly the one the source secured: Reserved, owned by this host run, same ID, kind,
//      stable type, ObjectGeneration, StoreVersion and reservation id, and that the stored
//      request matches pendingCreation's SHA-256 and size;
//   2. checks admission (§5) and the request's deadline;
//   3. runs the registered factory (creation.factory_run);
//   4. records the result in ONE store request: Approved -> Commit (Ready; the capacity already
//      counted stays in use) + final result Created; Rejected / exception -> Abort (row deleted,
//      space returned) + final result Rejected / Failed; the stored request is deleted with it;
//   5. replies command 20 to the sender of the command.
// A Framework failure before the callback (a check failed, admission closed, deadline passed)
// stores no final result; the row is cancelled (Abort) when this host run may still do so, else
// left for the source to cancel, and the reply says `cancelled`.
//
// Resent commands (same OperationId) are deduplicated: while the operation runs they are
// ignored; once answered, the same answer is sent again with the new command's correlation; if
// the final write's outcome stayed unknown, the stored final result is re-read and sent if it
// exists — the factory never runs twice for one operation in one host run, and an unknown
// outcome is never guessed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "impl/location/authority/authority_ops.h"
#include "impl/location/creation/remembered_operations.h"
#include "impl/location/config/location_config.h"
#include "impl/location/creation/creation_config.h"
#include "impl/location/creation/factory.h"
#include "impl/location/creation/stored_records.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/location/messaging/dispatcher.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location::objects {
class ObjectHost;
}  // namespace spotcheck::location::objects

namespace spotcheck::location::creation {

struct NodeContext {
  const LocationConfig& config;
  const CreationConfig& creation;
  platform::Platform& platform;
  store::LocationStore& store;
  OwnerLease& lease;
  AuthorityOps& authority;
  messaging::Dispatcher& dispatcher;
  std::string mesh_name;
  std::string rid_hex;
  std::vector<std::string> object_meshes;  // never empty (CreationConfig::object_meshes)
  // The host run's object runtime: a created object is hosted here, a removed one goes; nullptr
  // for a node that hosts no objects (its creations and closes still work).
  objects::ObjectHost* objects = nullptr;
};

class CreationTarget {
 public:
  CreationTarget(NodeContext context, const FactoryRegistry& factories);
  CreationTarget(const CreationTarget&) = delete;
  CreationTarget& operator=(const CreationTarget&) = delete;

  // The dispatcher's handler for 47/49: never blocks; a new operation gets its own task.
  void handle(platform::RoutingId from, messaging::CreateCommand command);

  std::size_t remembered() const { return _ops.size(); }

 private:
  enum class OpState {
    kRunning,    // a task owns the operation
    kAnswered,   // `reply` was sent; resend it on a duplicate
    kUnsettled,  // the factory ran but the final write's outcome is unknown: re-read on resend
    kRetryable,  // nothing ran (e.g. the row could not be read): a resend starts over
  };
  struct Remembered {
    OpState state = OpState::kRunning;
    std::optional<messaging::FinalResultReply> reply;
    OperationKey operation;
    std::uint64_t object_generation = 0;  // of the command the entry is for (a resend carries the same)
  };
  struct Verified;
  struct Verification;
  static Remembered remembered(OpState state, std::optional<messaging::FinalResultReply> reply,
                               const messaging::CreateCommand& command);

  void run(platform::RoutingId from, const messaging::CreateCommand& command, const std::string& op_key);
  void resend_stored(platform::RoutingId from, const messaging::CreateCommand& command, const std::string& op_key);
  // The checks of §7 before the factory runs, in order: addressing, the Creating row, the request.
  Verification verify(const messaging::CreateCommand& command, platform::RoutingId from);
  std::optional<messaging::FinalResultReply> verify_addressing(const messaging::CreateCommand& command,
                                                               platform::RoutingId from);
  std::optional<messaging::FinalResultReply> verify_row(const messaging::CreateCommand& command,
                                                        const AuthoritySnapshot& row);
  Verification verify_request(const messaging::CreateCommand& command, const AuthoritySnapshot& row);
  // One factory run: its decision, or `threw` with the typed failure text (no factory registered,
  // or the application's exception).
  struct FactoryRun {
    FactoryDecision decision;
    bool threw = false;
    std::string failure;
  };
  FactoryRun run_factory(const messaging::CreateCommand& command, const std::string& args);
  std::optional<messaging::FinalResultReply> record_result(const messaging::CreateCommand& command,
                                                           const Verified& verified, const FinalResultRecord& result,
                                                           bool commit);
  messaging::FinalResultReply cancel(const messaging::CreateCommand& command, const Verified* verified,
                                     std::string reason);
  std::optional<messaging::FinalResultReply> stored_reply(const messaging::CreateCommand& command);
  void reply(platform::RoutingId to, messaging::FinalResultReply reply, bool resent);
  platform::TimeUs local_deadline_us(std::int64_t deadline_store_ms) const;
  platform::TimeUs store_deadline_us() const;

  NodeContext _context;
  const FactoryRegistry& _factories;
  RememberedOperations<Remembered> _ops;
};

// The command-20 reply that answers a stored final result.
messaging::FinalResultReply reply_from_stored(const FinalResultRecord& stored, std::uint64_t request);
// The key of a command's operation as the source computed it.
OperationKey operation_of(const messaging::CreateCommand& command);

}  // namespace spotcheck::location::creation

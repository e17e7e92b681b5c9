// The source side of Create / GetOrCreate for an Actor or a User Spot (spec §7): the node whose
// Manager was called. One call, one deadline (from location lookup through Ready confirmation):
//
//   1. The stored final result of (source RID, source host run generation, OperationId) is read
//      first: a request already answered is answered again from the store.
//   2. The authority row is read. Ready or Creating of the same type: Create -> AlreadyExists;
//      GetOrCreate -> the existing ref, or wait (re-reading) for the in-progress creation until
//      the deadline -> DeadlineExceeded. Another kind or type -> TypeMismatch. A Creating row
//      whose request deadline passed long ago (abandoned) is cancelled first.
//   3. Missing: a target is placed (§4) and Reserve records the Creating row (pendingCreation),
//      its capacity and the creation request in one store request. A Reserve refused because
//      the target's state or capacity changed excludes that host run and places again.
//   4. Command 49 (Actor) / 47 (User Spot) goes to the target; the source waits for command 20,
//      resending the same command (same correlation, same OperationId, same target — never a
//      different owner) while it re-reads the stored final result and the row (§10: a lost
//      reply is never guessed). A `cancelled` reply (Framework failure before the callback)
//      cancels the source's own reservation if it is still there.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "impl/location/creation/creation_target.h"
#include "impl/location/creation/manager_types.h"

namespace spotcheck::location::creation {

struct CreateSpec {
  records::ObjectKind object_kind = records::ObjectKind::kActor;  // actor | userSpot
  std::string id;  // empty for a User Spot Create: the Framework issues a UUID v4
  std::string stable_type;
  CreateMode mode = CreateMode::kCreate;
  std::string args;
  platform::TimeUs deadline_us = 0;  // local clock
  // InMesh; empty: the node's own mesh.
  std::string in_mesh;
  // The same request again (to re-read its stored final result); empty: a new OperationId.
  std::optional<OperationId> op_id;
};

class CreationClient {
 public:
  explicit CreationClient(NodeContext context);
  CreationClient(const CreationClient&) = delete;
  CreationClient& operator=(const CreationClient&) = delete;

  ManagerResult<CreateReply> create(const CreateSpec& spec);

 private:
  struct Call;
  ManagerResult<CreateReply> run(Call& call);
  std::optional<ManagerResult<CreateReply>> on_row(Call& call, const AuthoritySnapshot& row, store::StoreNowMs now_ms);
  std::optional<ManagerResult<CreateReply>> reserve(Call& call);
  ManagerResult<CreateReply> exchange(Call& call, const AuthoritySnapshot& mine);
  ManagerResult<CreateReply> on_reply(Call& call, const AuthoritySnapshot& mine, const messaging::FinalResultReply& reply);
  // This request's stored final result (§7): a reply, none stored, or an error when the read
  // failed (unknown: never taken as "none").
  Result<std::optional<CreateReply>> stored_result(Call& call);
  std::optional<ManagerResult<CreateReply>> check_stored_before_creation(Call& call);
  std::optional<ManagerResult<CreateReply>> after_own_row_gone(Call& call);
  bool cancel_if_abandoned(const AuthoritySnapshot& row);
  void cancel_own(const AuthoritySnapshot& mine, const store::Key& request_key);
  static void exclude_after_second_change(Call& call, const HostRun& target);
  bool time_left(const Call& call) const;
  platform::TimeUs store_deadline_us(const Call& call) const;
  void sleep_before_retry(const Call& call, platform::TimeUs pause_us);
  ManagerError error(ManagerErrorKind kind, std::string message) const;

  NodeContext _context;
  std::set<OperationId> _in_progress;  // calls of this host run now running (resubmission check)
};

// ObjectRef of a Found authority row.
ObjectRef ref_of(const AuthoritySnapshot& row);
ObjectRef ref_of(const messaging::WireRef& ref);

}  // namespace spotcheck::location::creation

// Destroy (Actor) and Close (User Spot) of exactly one generation (spec §7.2), local or over
// command 48 -> 20.
//
// The source reads the row and classifies it against the ref (find.h): no record -> false;
// another generation -> kStaleGeneration; moving -> kMoving. The current generation is removed
// by its owner with Delete (row and capacity in one request): directly when the owner is this
// host run, else by command 48 to the owner, which checks the target host run, the ref's
// generation, its AuthorityOwnerGeneration and move state again before deleting, and answers
// command 20 exactly once per operation (a resent command gets the same answer; an answer is
// never replaced by a store query, so no reply means kDeadlineExceeded).
//
// This slice has no Closing state and no Actor membership: Close deletes the Spot's row.
#pragma once

#include <optional>
#include <string>

#include "impl/location/creation/creation_target.h"
#include "impl/location/creation/manager_types.h"
#include "impl/location/find/find.h"

namespace spotcheck::location::find {

class CloseClient {
 public:
  explicit CloseClient(creation::NodeContext context);
  // true: this call removed the ref's generation; false: there was no record.
  ManagerResult<bool> close(const ObjectRef& ref, platform::TimeUs deadline_us);

 private:
  ManagerResult<bool> run(const ObjectRef& ref, platform::TimeUs deadline_us, const creation::OperationId& op);
  ManagerResult<bool> exchange(const AuthoritySnapshot& row, platform::TimeUs deadline_us,
                               const creation::OperationId& op);
  creation::NodeContext _context;
};

class CloseTarget {
 public:
  explicit CloseTarget(creation::NodeContext context);
  CloseTarget(const CloseTarget&) = delete;
  CloseTarget& operator=(const CloseTarget&) = delete;
  // The dispatcher's handler for 48: never blocks.
  void handle(platform::RoutingId from, messaging::CloseCommand command);

 private:
  enum class OpState { kRunning, kAnswered, kUnsettled, kRetryable };
  struct Remembered {
    OpState state = OpState::kRunning;
    std::optional<messaging::FinalResultReply> reply;
  };
  void run(platform::RoutingId from, const messaging::CloseCommand& command, const std::string& op_key);
  // What the target decided for one 48: an answer (outcome + typed failure text), or no answer:
  // retryable (nothing known; a resend tries again) or unsettled (the Delete's outcome is unknown:
  // never guessed, never answered).
  struct Decision {
    std::optional<messaging::ReplyOutcome> outcome;
    std::string message;
    bool unsettled = false;

    static Decision answer(messaging::ReplyOutcome outcome, std::string message = {}) {
      return Decision{outcome, std::move(message), false};
    }
    static Decision retryable() { return Decision{}; }
    static Decision unknown() { return Decision{std::nullopt, {}, true}; }
  };
  Decision decide(platform::RoutingId from, const messaging::CloseCommand& command);
  // §7.2: the command fixes the source's host run: it comes from that source's RID and that host
  // run is still alive (its owner lease holds); a command of a source run that ended never acts.
  std::optional<Decision> verify_source(platform::RoutingId from, const messaging::CloseCommand& command);
  void reply(platform::RoutingId to, messaging::FinalResultReply reply);

  creation::NodeContext _context;
  creation::RememberedOperations<Remembered> _ops;
};

}  // namespace spotcheck::location::find

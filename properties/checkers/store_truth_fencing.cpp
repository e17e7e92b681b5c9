// Fencing from the store's side (property store-truth; see store_truth_checker.h). §5: "no new
// store change with expired owner eligibility"; §6.1: a Reserve and a NewOwner are conditioned on
// the target's owner lease row, a Commit and a Preserve on the writer's own (only the row's owner
// writes them). So a row the store stored names a host run whose lease row the store held at that
// LeaseGeneration, and the owner's own write applied before that row's ExpiresAt. Both sides come
// from store.applied alone: the protocol's word plays no part.
#include <string>

#include "properties/checkers/store_truth_checker.h"

namespace spotcheck::properties {

std::optional<std::string> StoreTruthChecker::check_owner_lease(const AppliedWrite& write, const AppliedPart& part,
                                                                model::AuthorityOp op, const Row& next) const {
  if (next.state == model::AuthorityState::kMissing) {
    return std::nullopt;  // a removal names no owner
  }
  const std::string named = next.owner + "/" + std::to_string(next.lease_gen);
  const std::optional<model::LeaseRow> lease = _hosts.lease_of(next.owner);
  if (!lease.has_value() || lease->lease_gen != next.lease_gen) {
    return "store.applied " + cite(part.event) + ": " + part.key + " stored owner " + named +
           ", but the store held " +
           (lease.has_value() ? "LeaseGeneration " + std::to_string(lease->lease_gen) + " for that OwnerId"
                              : std::string("no owner lease row of that OwnerId")) +
           " (§5, §6.1: an authority write names only a host run whose owner lease row it is conditioned on)";
  }
  const bool owners_own_write = op == model::AuthorityOp::kCommit || op == model::AuthorityOp::kPreserve;
  if (owners_own_write && write.store_now_ms >= lease->expires_at_ms) {
    return "store.applied " + cite(part.event) + ": " + part.key + " was rewritten by its owner " + named +
           " at StoreNow " + std::to_string(write.store_now_ms) + ", at or after that owner lease's ExpiresAt " +
           std::to_string(lease->expires_at_ms) + " (§5: no store change with expired owner eligibility)";
  }
  return std::nullopt;
}

}  // namespace spotcheck::properties

#include "model/host_row_transitions.h"

namespace spotcheck::model {

namespace {

std::string host_run(std::string_view owner_id, std::int64_t lease_gen) {
  return std::string(owner_id) + "/" + std::to_string(lease_gen);
}

}  // namespace

std::optional<std::string> lease_put_problem(std::string_view key_owner, const std::optional<LeaseRow>& current,
                                             bool ever_created, std::optional<std::int64_t> issued,
                                             const LeaseRow& next) {
  if (next.owner_id != key_owner) {
    return "the row holds OwnerId " + next.owner_id + ", not its key's";
  }
  if (!current.has_value()) {
    if (ever_created) {
      return "OwnerId " + next.owner_id + " was registered again after its lease row was removed (§3.1: never reused)";
    }
    if (issued != next.lease_gen) {
      return "a new owner lease holds LeaseGeneration " + std::to_string(next.lease_gen) +
             (issued.has_value() ? ", but its write issued " + std::to_string(*issued)
                                 : ", but its write issued none from the lease-generation counter") +
             " (§3.1)";
    }
    return std::nullopt;
  }
  if (next.lease_gen != current->lease_gen) {
    return "a renew changed LeaseGeneration " + std::to_string(current->lease_gen) + " -> " +
           std::to_string(next.lease_gen) + " (§3.1: extending expiry never changes it)";
  }
  if (next.expires_at_ms <= current->expires_at_ms) {
    return "a renew moved ExpiresAt " + std::to_string(current->expires_at_ms) + " -> " +
           std::to_string(next.expires_at_ms) + " (a renew extends it)";
  }
  if (next.updated_at_ms < current->updated_at_ms) {
    return "a renew moved UpdatedAt back " + std::to_string(current->updated_at_ms) + " -> " +
           std::to_string(next.updated_at_ms);
  }
  return std::nullopt;
}

std::optional<std::string> live_holder(const DescriptorRow& holder, const std::optional<LeaseRow>& holder_lease,
                                       std::int64_t store_now_ms) {
  if (!holder_lease.has_value() || holder_lease->lease_gen != holder.lease_gen ||
      holder_lease->expires_at_ms <= store_now_ms) {
    return std::nullopt;
  }
  return "host run " + host_run(holder.owner_id, holder.lease_gen) + "'s owner lease was valid until " +
         std::to_string(holder_lease->expires_at_ms) + " > StoreNow " + std::to_string(store_now_ms);
}

std::optional<std::string> descriptor_put_problem(const DescriptorRow& next, const std::optional<LeaseRow>& publisher_lease,
                                                  const std::optional<DescriptorRow>& stored,
                                                  const std::optional<LeaseRow>& stored_holder_lease,
                                                  std::optional<std::int64_t> highest_revision,
                                                  std::int64_t store_now_ms) {
  const std::string run = host_run(next.owner_id, next.lease_gen);
  if (!publisher_lease.has_value() || publisher_lease->lease_gen != next.lease_gen) {
    return "host run " + run + " published without its owner lease row in the store (§4: conditioned on it)";
  }
  if (highest_revision.has_value() && next.revision <= *highest_revision) {
    return "host run " + run + " re-stored Revision " + std::to_string(next.revision) + " after Revision " +
           std::to_string(*highest_revision) +
           " (§4: a RENEW at a stored Revision is a no-op; new content needs a higher one)";
  }
  if (stored.has_value() && (stored->owner_id != next.owner_id || stored->lease_gen != next.lease_gen)) {
    if (const std::optional<std::string> live = live_holder(*stored, stored_holder_lease, store_now_ms)) {
      return "host run " + run + " took over the descriptor while " + *live + " (§4)";
    }
  }
  return std::nullopt;
}

std::optional<std::string> counter_increment_problem(CounterKind kind, std::int64_t before, std::int64_t delta,
                                                     std::int64_t after) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(before, delta, &sum) || after != sum) {
    return "the counter went " + std::to_string(before) + " + " + std::to_string(delta) + " -> " + std::to_string(after);
  }
  if (kind == CounterKind::kGeneration && (delta != 1 || after > kIssuedGenerationMax)) {
    return "a generation counter moved by " + std::to_string(delta) + " to " + std::to_string(after) +
           " (§3.2: it only rises, by one, within 1..2^63-2)";
  }
  if (kind == CounterKind::kCapacity && after < 0) {
    return "a capacity counter went below 0 (" + std::to_string(after) + ")";
  }
  return std::nullopt;
}

}  // namespace spotcheck::model

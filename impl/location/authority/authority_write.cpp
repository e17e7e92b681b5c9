#include "impl/location/authority/authority_write.h"

#include <algorithm>
#include <variant>

#include "impl/check/check.h"
#include "impl/records/authority_record.h"

namespace spotcheck::location {

void PlannedWrite::add_condition(store::Condition condition, ConditionRole role) {
  request.conditions.push_back(std::move(condition));
  condition_roles.push_back(role);
  SPOTCHECK_ASSERT(request.conditions.size() == condition_roles.size());
}

void PlannedWrite::add_mutation(store::Mutation mutation, MutationRole role) {
  SPOTCHECK_ASSERT(role != MutationRole::kCapacity);
  request.mutations.push_back(std::move(mutation));
  mutation_roles.push_back(role);
  SPOTCHECK_ASSERT(request.mutations.size() == mutation_roles.size());
}

void PlannedWrite::add_capacity(std::vector<CapacityChange> changes) {
  for (CapacityChange& change : changes) {
    request.mutations.push_back(change.increment);
    mutation_roles.push_back(MutationRole::kCapacity);
    capacity.push_back(std::move(change));
  }
  SPOTCHECK_ASSERT(request.mutations.size() == mutation_roles.size());
}

namespace {

bool is_ours(const store::Bytes& stored, const PlannedWrite& planned,
             const std::vector<store::Bytes>& earlier_bytes) {
  if (planned.authority_bytes_after.has_value() && stored == *planned.authority_bytes_after) {
    return true;
  }
  return std::find(earlier_bytes.begin(), earlier_bytes.end(), stored) != earlier_bytes.end();
}

// The first record the write puts besides the authority row (e.g. a creation's final result), or null.
const store::Put* attached_put(const PlannedWrite& planned) {
  for (std::size_t i = 0; i < planned.request.mutations.size(); ++i) {
    if (planned.mutation_roles[i] != MutationRole::kAttached) {
      continue;
    }
    if (const auto* put = std::get_if<store::Put>(&planned.request.mutations[i])) {
      return put;
    }
  }
  return nullptr;
}

enum class Removal { kOurs, kAnother, kUnknown };

// The row a removal meant to delete is gone (or re-created since): our write applied, or another
// writer removed it (an abandoned creation cancelled, a recovery). A record the same write puts
// tells them apart — there with our write, absent with another's — so a removal that carried a
// final result is never taken as applied while that result is not stored (§10: re-read, never
// guess; create-storm seed 519 recorded a 'rejected' result that no write stored). Without one the
// row is gone either way and the removal counts as ours.
Removal judge_removal(store::LocationStore& store, platform::Clock& clock, const LocationConfig& config,
                      const PlannedWrite& planned) {
  SPOTCHECK_ASSERT(!planned.authority_bytes_after.has_value());
  const store::Put* put = attached_put(planned);
  if (put == nullptr) {
    return Removal::kOurs;
  }
  const store::ReadResult read = store.read(put->key, clock.now_us() + config.store_request_timeout_us);
  if (std::holds_alternative<store::StoreError>(read)) {
    return Removal::kUnknown;
  }
  const auto* found = std::get_if<store::Found>(&read);
  return found != nullptr && found->value == put->value ? Removal::kOurs : Removal::kAnother;
}

// Re-reads the authority key after an unknown outcome (§10).
WriteOutcome resolve(store::LocationStore& store, platform::Clock& clock,
                     const LocationConfig& config, const PlannedWrite& planned,
                     const std::vector<store::Bytes>& earlier_bytes, bool after_conflict) {
  using Kind = WriteOutcome::Kind;
  for (std::uint32_t attempt = 0; attempt < config.indeterminate_rereads_max; ++attempt) {
    const store::ReadResult read =
        store.read(planned.authority_key, clock.now_us() + config.store_request_timeout_us);
    if (std::holds_alternative<store::StoreError>(read)) {
      continue;
    }
    WriteOutcome outcome;
    if (const auto* missing = std::get_if<store::Missing>(&read)) {
      outcome.now_ms = missing->now_ms;
      if (!planned.authority_bytes_after.has_value()) {
        const Removal removal = judge_removal(store, clock, config, planned);
        if (removal == Removal::kUnknown) {
          continue;  // the attached record could not be read: read again
        }
        outcome.kind = removal == Removal::kOurs ? Kind::kResolvedApplied : Kind::kConflict;  // gone: ours, or not
        outcome.superseded = removal == Removal::kAnother && !after_conflict;
        outcome.message = removal == Removal::kOurs ? "" : "the authority row was removed by another writer";
      } else if (!planned.authority_version_before.has_value() && !after_conflict) {
        outcome.kind = Kind::kNotApplied;  // still absent, as first read
      } else {
        outcome.kind = Kind::kConflict;
        outcome.superseded = !after_conflict;
        outcome.message = "the authority row is missing";
      }
      return outcome;
    }
    const auto& found = std::get<store::Found>(read);
    outcome.now_ms = found.now_ms;
    if (is_ours(found.value, planned, earlier_bytes)) {
      outcome.kind = Kind::kResolvedApplied;
      outcome.authority_version_after = found.version;
      outcome.authority_bytes_after = found.value;
      return outcome;
    }
    if (planned.authority_version_before.has_value() &&
        found.version == *planned.authority_version_before && !after_conflict) {
      outcome.kind = Kind::kNotApplied;
      return outcome;
    }
    if (!planned.authority_bytes_after.has_value()) {
      const records::RecordResult<records::AuthorityRecord> decoded =
          records::decode_authority_record(found.value);
      if (decoded.ok() && decoded.value().object_generation != planned.object_generation_before) {
        const Removal removal = judge_removal(store, clock, config, planned);
        if (removal == Removal::kUnknown) {
          continue;
        }
        if (removal == Removal::kOurs) {
          outcome.kind = Kind::kResolvedApplied;  // the object we deleted was re-created since
          return outcome;
        }
      }
    }
    outcome.kind = Kind::kConflict;
    outcome.superseded = !after_conflict;
    outcome.message = "the authority row changed since it was first read";
    return outcome;
  }
  WriteOutcome unresolved;
  unresolved.kind = Kind::kUnresolved;
  unresolved.message = "the authority row could not be re-read";
  return unresolved;
}

}  // namespace

WriteOutcome execute_authority_write(store::LocationStore& store, platform::Clock& clock,
                                     const LocationConfig& config, const PlannedWrite& planned,
                                     const std::vector<store::Bytes>& earlier_bytes) {
  using Kind = WriteOutcome::Kind;
  SPOTCHECK_ASSERT(planned.request.conditions.size() == planned.condition_roles.size());
  SPOTCHECK_ASSERT(planned.request.mutations.size() == planned.mutation_roles.size());
  SPOTCHECK_ASSERT(!planned.request.mutations.empty());
  SPOTCHECK_ASSERT(planned.mutation_roles.front() == MutationRole::kAuthority);
  SPOTCHECK_ASSERT(planned.condition_roles.front() == ConditionRole::kAuthority);

  const platform::TimeUs sent_us = clock.now_us();
  const store::WriteResult result = store.write(planned.request, sent_us + config.store_request_timeout_us);
  WriteOutcome outcome;
  outcome.sent_us = sent_us;
  if (const auto* applied = std::get_if<store::Applied>(&result)) {
    SPOTCHECK_ASSERT(applied->outcomes.size() == planned.request.mutations.size());
    outcome.kind = Kind::kApplied;
    outcome.outcomes = applied->outcomes;
    outcome.now_ms = applied->now_ms;
    if (planned.authority_bytes_after.has_value()) {
      outcome.authority_version_after = applied->outcomes.front().version;
      outcome.authority_bytes_after = *planned.authority_bytes_after;
      SPOTCHECK_ASSERT(outcome.authority_version_after.value != 0);
    }
    return outcome;
  }
  if (const auto* conflict = std::get_if<store::Conflict>(&result)) {
    outcome.now_ms = conflict->now_ms;
    if (conflict->reason == store::Conflict::Reason::kBoundExceeded) {
      SPOTCHECK_ASSERT(conflict->index < planned.mutation_roles.size());
      outcome.kind = Kind::kBoundExceeded;
      outcome.mutation_role = planned.mutation_roles[conflict->index];
      outcome.bound_mutation = conflict->index;
      SPOTCHECK_ASSERT(outcome.mutation_role != MutationRole::kAuthority);
      return outcome;
    }
    SPOTCHECK_ASSERT(conflict->index < planned.condition_roles.size());
    outcome.kind = Kind::kConflict;
    outcome.condition_role = planned.condition_roles[conflict->index];
    if (outcome.condition_role == ConditionRole::kAuthority && !earlier_bytes.empty()) {
      // An earlier attempt of ours may have applied late: look before calling it a conflict.
      WriteOutcome resolved = resolve(store, clock, config, planned, earlier_bytes, true);
      if (resolved.applied()) {
        resolved.earlier_attempt_applied_late = true;
        return resolved;
      }
    }
    return outcome;
  }
  if (const auto* error = std::get_if<store::StoreError>(&result)) {
    outcome.kind = Kind::kStoreError;
    outcome.message = std::string(store::to_string(error->kind)) + " " + error->message;
    return outcome;
  }
  if (SPOTCHECK_PLANTED(config.planted_bugs, kIndeterminateTakenAsApplied)) {
    outcome.kind = Kind::kResolvedApplied;  // no re-read: the StoreVersion after is unknown
    outcome.authority_bytes_after = planned.authority_bytes_after.value_or(store::Bytes{});
    return outcome;
  }
  return resolve(store, clock, config, planned, earlier_bytes, false);
}

}  // namespace spotcheck::location

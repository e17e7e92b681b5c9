// The legal changes of the rows that describe host runs and count things (spec §3.1, §3.2, §3.3,
// §4), as model/authority_transitions.h is for authority rows: what a checker holds every applied
// store change against (properties/checkers/store_truth_hosts.h keeps the rows, decodes them and
// asks here). Each function returns what the change breaks (one clause, without the event), or
// nullopt when it is legal.
//
//   owner lease  created once per OwnerId (never reused), holding its key's OwnerId and the
//                LeaseGeneration its write issued from the lease-generation counter; renewed under
//                the same OwnerId and LeaseGeneration with a later ExpiresAt and an UpdatedAt that
//                never goes back; deleted (released) at most once.
//   descriptor   published only while the publisher's own owner lease row holds its host run; a
//                host run's next put raises its Revision (a same-Revision RENEW never re-stores); a
//                put over another host run's row only once that run's lease row is gone, another
//                run's, or expired at the StoreNow of the write.
//   counter      each increment leaves the stored value plus its delta; a generation counter only
//                rises, by one, within 1..2^63-2; a capacity counter never goes below 0, and a
//                securing increment never leaves it above the limit the stored descriptor states
//                (model/capacity_counters.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spotcheck::model {

// The highest generation ever issued (§3.2: 2^63-1 is the exhausted sentinel).
inline constexpr std::int64_t kIssuedGenerationMax = INT64_MAX - 1;

struct LeaseRow {
  std::string owner_id;
  std::int64_t lease_gen = 0;
  std::int64_t expires_at_ms = 0;
  std::int64_t updated_at_ms = 0;
};

struct DescriptorRow {
  std::string owner_id;
  std::int64_t lease_gen = 0;
  std::int64_t revision = 0;
};

// A put of owner lease row `next` under the key of OwnerId `key_owner`. `current`: the row the
// store holds there (nullopt: none); `ever_created`: the key held a row before; `issued`: the
// LeaseGeneration the same write issued from the lease-generation counter, if it issued one.
std::optional<std::string> lease_put_problem(std::string_view key_owner, const std::optional<LeaseRow>& current,
                                             bool ever_created, std::optional<std::int64_t> issued,
                                             const LeaseRow& next);

// A put of descriptor row `next` applied at `store_now_ms`. `publisher_lease`: the publisher's own
// owner lease row; `stored`: the row it replaces (nullopt: none) and `stored_holder_lease` that
// row's publisher's lease row; `highest_revision`: the highest Revision this host run stored under
// this key before.
std::optional<std::string> descriptor_put_problem(const DescriptorRow& next, const std::optional<LeaseRow>& publisher_lease,
                                                  const std::optional<DescriptorRow>& stored,
                                                  const std::optional<LeaseRow>& stored_holder_lease,
                                                  std::optional<std::int64_t> highest_revision,
                                                  std::int64_t store_now_ms);

// Why the holder of a descriptor row may not be replaced by another host run at `store_now_ms`
// (its lease row holds its host run and has not expired), or nullopt.
std::optional<std::string> live_holder(const DescriptorRow& holder, const std::optional<LeaseRow>& holder_lease,
                                       std::int64_t store_now_ms);

enum class CounterKind { kGeneration, kCapacity };
// An increment of a counter that held `before` by `delta`, leaving `after`.
std::optional<std::string> counter_increment_problem(CounterKind kind, std::int64_t before, std::int64_t delta,
                                                     std::int64_t after);

}  // namespace spotcheck::model

// The out-of-contract fault set (issue 11): faults that break an assumption the spec's promises
// rest on. Off unless a campaign asks for them (`spotcheck run --out-of-contract`); a violation in
// such a campaign is re-run with them off to name the assumption it depends on, and reported
// apart from in-contract failures (docs/scenarios.md "Out of contract").
//
//   store-clock-jump   the store's clock (StoreNow, ExpiresAt) only moves at about real rate: an
//                      owner lease the store has expired has expired on its holder's admission
//                      deadline too (§5)
//   store-lost-writes  a write the store acknowledged stays applied: a failover never loses it, and a
//                      StoreVersion is never issued twice (§6.1, §10)
//   node-clock-step    a host's local monotonic time only moves forward, at about real rate (§5)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "faults/fault_plan.h"
#include "impl/platform/random.h"

namespace spotcheck::faults {

// A set of out-of-contract kinds: bit i is the i-th of out_of_contract_kinds().
using OutOfContractSet = std::uint32_t;

struct OutOfContractInfo {
  FaultKind kind;
  const char* assumption;  // the spec assumption it breaks, one sentence
};

std::span<const OutOfContractInfo> out_of_contract_kinds();
OutOfContractSet all_out_of_contract();
OutOfContractSet out_of_contract_bit(FaultKind kind);
// "all", or out-of-contract kind names separated by commas; nullopt (with a one-line `error`) for
// anything else. An empty set is never returned.
std::optional<OutOfContractSet> parse_out_of_contract(std::string_view text, std::string& error);
// The kind names, comma-separated ("" for the empty set).
std::string out_of_contract_text(OutOfContractSet set);
// The assumption a kind breaks.
const char* out_of_contract_assumption(FaultKind kind);

// `plan` with the kinds of `set` on. Every kind's switch and intensity are drawn from `random` (a
// stream of their own) in a fixed order whatever `set` holds, so removing one kind from the set
// leaves the others' faults as they were. Plain runs (`swarm` false) turn each kind of the set on
// at the standard intensity; swarm runs turn each on with probability 1/2 at a drawn intensity.
FaultPlan with_out_of_contract(FaultPlan plan, platform::Random& random, OutOfContractSet set, bool swarm);

}  // namespace spotcheck::faults

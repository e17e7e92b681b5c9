#include "faults/out_of_contract.h"

#include <array>

#include "impl/check/check.h"

namespace spotcheck::faults {

namespace {

constexpr std::array<OutOfContractInfo, 3> kKinds{{
    {FaultKind::kStoreClockJump,
     "the store's clock only moves at about real rate: an owner lease the store expired has expired on its "
     "holder's admission deadline too (§5)"},
    {FaultKind::kStoreLostWrites,
     "a write the store acknowledged stays applied and a StoreVersion is never issued twice (§6.1, §10)"},
    {FaultKind::kNodeClockStep, "a host's local monotonic time only moves forward, at about real rate (§5)"},
}};

// One kind's window: the mean gap between its faults and the largest change one makes.
struct OutOfContractWindow {
  TimeUs gap_us = 0;
  TimeUs max_us = 0;
};

// The standard intensity (plain runs) and the swarm ranges, per kind in kKinds order.
constexpr std::array<OutOfContractWindow, 3> kStandard{{
    {platform::seconds(40), platform::seconds(20)},  // clock jump forward by up to 20 s
    {platform::seconds(40), platform::seconds(2)},   // lose up to the last 2 s of writes
    {platform::seconds(40), platform::seconds(20)},  // step by up to 20 s either way
}};
struct Range {
  OutOfContractWindow lo;
  OutOfContractWindow hi;
};
constexpr std::array<Range, 3> kSwarm{{
    {{platform::seconds(10), platform::seconds(1)}, {platform::seconds(60), platform::seconds(30)}},
    {{platform::seconds(10), platform::millis(100)}, {platform::seconds(60), platform::seconds(5)}},
    {{platform::seconds(10), platform::seconds(1)}, {platform::seconds(60), platform::seconds(30)}},
}};

void set_window(FaultPlan& plan, FaultKind kind, OutOfContractWindow window) {
  switch (kind) {
    case FaultKind::kStoreClockJump:
      plan.store_clock_jump_gap_us = window.gap_us;
      plan.store_clock_jump_max_us = window.max_us;
      return;
    case FaultKind::kStoreLostWrites:
      plan.store_lost_writes_gap_us = window.gap_us;
      plan.store_lost_writes_lag_us = window.max_us;
      return;
    case FaultKind::kNodeClockStep:
      plan.node_clock_step_gap_us = window.gap_us;
      plan.node_clock_step_max_us = window.max_us;
      return;
    default:
      SPOTCHECK_ASSERT_ABORT(false && "not an out-of-contract kind");
  }
}

}  // namespace

std::span<const OutOfContractInfo> out_of_contract_kinds() { return kKinds; }

OutOfContractSet all_out_of_contract() { return (OutOfContractSet{1} << kKinds.size()) - 1; }

OutOfContractSet out_of_contract_bit(FaultKind kind) {
  for (std::size_t i = 0; i < kKinds.size(); ++i) {
    if (kKinds[i].kind == kind) {
      return OutOfContractSet{1} << i;
    }
  }
  SPOTCHECK_ASSERT_ABORT(false && "not an out-of-contract kind");
  return 0;
}

const char* out_of_contract_assumption(FaultKind kind) {
  for (const OutOfContractInfo& info : kKinds) {
    if (info.kind == kind) {
      return info.assumption;
    }
  }
  SPOTCHECK_ASSERT_ABORT(false && "not an out-of-contract kind");
  return "";
}

std::optional<OutOfContractSet> parse_out_of_contract(std::string_view text, std::string& error) {
  if (text == "all") {
    return all_out_of_contract();
  }
  OutOfContractSet set = 0;
  while (true) {
    const std::size_t comma = text.find(',');
    const std::string_view name = text.substr(0, comma);
    OutOfContractSet bit = 0;
    for (const OutOfContractInfo& info : kKinds) {
      bit |= name == to_string(info.kind) ? out_of_contract_bit(info.kind) : 0;
    }
    if (bit == 0) {
      std::string shown(name.substr(0, 64));
      for (char& c : shown) {
        c = (c < 0x20 || c == 0x7f) ? '?' : c;  // one line, whatever was typed
      }
      error = "unknown out-of-contract fault kind '" + shown +
              "' (expected all, or a comma list of store-clock-jump, store-lost-writes, node-clock-step)";
      return std::nullopt;
    }
    set |= bit;
    if (comma == std::string_view::npos) {
      return set;
    }
    text.remove_prefix(comma + 1);
  }
}

std::string out_of_contract_text(OutOfContractSet set) {
  std::string text;
  for (const OutOfContractInfo& info : kKinds) {
    if ((set & out_of_contract_bit(info.kind)) != 0) {
      text += (text.empty() ? "" : ",") + std::string(to_string(info.kind));
    }
  }
  return text;
}

FaultPlan with_out_of_contract(FaultPlan plan, platform::Random& random, OutOfContractSet set, bool swarm) {
  SPOTCHECK_ASSERT_ABORT((set & ~all_out_of_contract()) == 0);
  for (std::size_t i = 0; i < kKinds.size(); ++i) {
    const bool coin = random.chance(0.5);
    const OutOfContractWindow drawn{random.between(kSwarm[i].lo.gap_us, kSwarm[i].hi.gap_us),
                       random.between(kSwarm[i].lo.max_us, kSwarm[i].hi.max_us)};
    if ((set & out_of_contract_bit(kKinds[i].kind)) == 0 || (swarm && !coin)) {
      continue;
    }
    set_window(plan, kKinds[i].kind, swarm ? drawn : kStandard[i]);
  }
  return plan;
}

}  // namespace spotcheck::faults

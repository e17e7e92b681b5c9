#include "tests/store_memory/model_based_check.h"

#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "impl/store/memory/memory_location_store.h"
#include "model/store_model.h"
#include "tests/store_memory/fake_store_clock.h"

namespace spotcheck::store::memory::testing {
namespace {

constexpr std::size_t kKeyCount = 8;  // a small key space so operations collide
constexpr std::int64_t kScanTtlMs = 100;
constexpr std::size_t kMaxLiveScans = 3;
constexpr std::size_t kMaxTrackedScans = 6;     // scans the program may still continue
constexpr std::size_t kMaxVersionsPerKey = 8;   // remembered for stale-version conditions

Key key_name(std::size_t index) { return "k" + std::to_string(index); }

// The system under test and its oracle. The oracle lives here, not in RapidCheck's model state,
// because it learns the provider's version numbers from results (the model cannot predict them);
// RapidCheck's model state therefore carries nothing.
struct Sut {
  struct TrackedScan {
    model::ModelScanId id = 0;
    ScanRequest next_request;
  };

  explicit Sut(const TestOnlyFaults& faults)
      : store(clock.clock(), MemoryStoreOptions{kScanTtlMs, kMaxLiveScans, 7}),
        oracle(model::ScanExpiryPolicy{kScanTtlMs, kMaxLiveScans}) {
    store.test_only_faults() = faults;
  }

  void remember(const Key& key, StoreVersion version) {
    auto& versions = seen_versions[key];
    versions.push_back(version);
    if (versions.size() > kMaxVersionsPerKey) {
      versions.erase(versions.begin());
    }
  }

  FakeStoreClock clock;
  MemoryLocationStore store;
  model::StoreModel oracle;
  std::vector<TrackedScan> scans;  // bound: kMaxTrackedScans
  std::map<Key, std::vector<StoreVersion>> seen_versions;
};

struct NoState {};
using Command = rc::state::Command<NoState, Sut>;

void fail_on(const std::optional<std::string>& problem) {
  if (problem.has_value()) {
    RC_FAIL(*problem);
  }
}

struct ReadKey : Command {
  std::size_t key = *rc::gen::inRange<std::size_t>(0, kKeyCount);

  void run(const NoState&, Sut& sut) const override {
    const ReadResult result = sut.store.read(key_name(key), 0);
    fail_on(sut.oracle.observe_read(key_name(key), result));
  }
  void show(std::ostream& os) const override { os << "Read(" << key_name(key) << ")"; }
};

struct ConditionSpec {
  enum Kind { kCurrentVersion, kStaleVersion, kMadeUpVersion, kAbsent };
  int kind = kCurrentVersion;
  std::size_t key = 0;
  std::size_t pick = 0;
};

struct MutationSpec {
  enum Kind { kPut, kPutCounterLike, kDelete, kIncrement };
  int kind = kPut;
  std::size_t key = 0;
  int value = 0;
  std::int64_t delta = 1;
  std::int64_t min = 0;
  std::int64_t max = 0;
};

struct WriteKeys : Command {
  std::vector<ConditionSpec> conditions = generate_conditions();
  std::vector<MutationSpec> mutations = generate_mutations();

  static std::vector<ConditionSpec> generate_conditions() {
    std::vector<ConditionSpec> specs(*rc::gen::inRange<std::size_t>(0, 3));
    for (auto& spec : specs) {
      spec.kind = *rc::gen::inRange(0, 4);
      spec.key = *rc::gen::inRange<std::size_t>(0, kKeyCount);
      spec.pick = *rc::gen::inRange<std::size_t>(0, kMaxVersionsPerKey);
    }
    return specs;
  }
  static std::vector<MutationSpec> generate_mutations() {
    // Mostly distinct keys; a repeated key makes an invalid request, which is checked too.
    std::vector<MutationSpec> specs(*rc::gen::inRange<std::size_t>(1, 4));
    for (auto& spec : specs) {
      spec.kind = *rc::gen::weightedElement<int>(
          {{4, MutationSpec::kPut}, {1, MutationSpec::kPutCounterLike}, {2, MutationSpec::kDelete},
           {4, MutationSpec::kIncrement}});
      spec.key = *rc::gen::inRange<std::size_t>(0, kKeyCount);
      spec.value = *rc::gen::inRange(0, 5);
      spec.delta = *rc::gen::inRange<std::int64_t>(-2, 3);
      spec.min = *rc::gen::inRange<std::int64_t>(-2, 1);
      spec.max = *rc::gen::inRange<std::int64_t>(0, 4);
    }
    return specs;
  }

  WriteRequest build(const Sut& sut) const {
    WriteRequest request;
    for (const ConditionSpec& spec : conditions) {
      const Key key = key_name(spec.key);
      switch (spec.kind) {
        case ConditionSpec::kCurrentVersion: {
          const auto current = sut.oracle.record(key);
          request.conditions.push_back(ExpectVersion{key, current ? current->version : StoreVersion{999'999}});
          break;
        }
        case ConditionSpec::kStaleVersion: {
          const auto it = sut.seen_versions.find(key);
          const StoreVersion stale = it == sut.seen_versions.end() || it->second.empty()
                                         ? StoreVersion{1}
                                         : it->second[spec.pick % it->second.size()];
          request.conditions.push_back(ExpectVersion{key, stale});
          break;
        }
        case ConditionSpec::kMadeUpVersion:
          request.conditions.push_back(ExpectVersion{key, StoreVersion{1 + spec.pick}});
          break;
        default:
          request.conditions.push_back(ExpectAbsent{key});
          break;
      }
    }
    for (const MutationSpec& spec : mutations) {
      const Key key = key_name(spec.key);
      switch (spec.kind) {
        case MutationSpec::kPut:
          request.mutations.push_back(Put{key, "v" + std::to_string(spec.value)});
          break;
        case MutationSpec::kPutCounterLike:
          request.mutations.push_back(Put{key, std::to_string(spec.value)});
          break;
        case MutationSpec::kDelete:
          request.mutations.push_back(Delete{key});
          break;
        default:
          request.mutations.push_back(Increment{key, spec.delta, spec.min, spec.max});
          break;
      }
    }
    return request;
  }

  void run(const NoState&, Sut& sut) const override {
    const WriteRequest request = build(sut);
    const WriteResult result = sut.store.write(request, 0);
    fail_on(sut.oracle.observe_write(request, result));
    if (const auto* applied = std::get_if<Applied>(&result)) {
      for (std::size_t i = 0; i < applied->outcomes.size(); ++i) {
        if (applied->outcomes[i].version.value != 0) {
          sut.remember(key_name(mutations[i].key), applied->outcomes[i].version);
        }
      }
    }
  }
  void show(std::ostream& os) const override {
    os << "Write(conditions:";
    for (const auto& c : conditions) {
      static const char* const kNames[] = {"current", "stale", "made-up", "absent"};
      os << " " << kNames[c.kind] << ":" << key_name(c.key);
    }
    os << "; mutations:";
    for (const auto& m : mutations) {
      static const char* const kNames[] = {"put", "put-decimal", "delete", "increment"};
      os << " " << kNames[m.kind] << ":" << key_name(m.key);
      if (m.kind == MutationSpec::kIncrement) {
        os << "(" << m.delta << " in [" << m.min << "," << m.max << "])";
      } else if (m.kind != MutationSpec::kDelete) {
        os << "=" << m.value;
      }
    }
    os << ")";
  }
};

struct BeginScan : Command {
  std::size_t start = *rc::gen::inRange<std::size_t>(0, kKeyCount);
  std::size_t span = *rc::gen::inRange<std::size_t>(0, kKeyCount + 1);  // kKeyCount: no end
  std::uint32_t max_entries = *rc::gen::inRange<std::uint32_t>(1, 4);

  void run(const NoState&, Sut& sut) const override {
    ScanRequest request{key_name(start), span >= kKeyCount ? Key() : key_name(start + span), std::nullopt,
                        max_entries};
    if (!request.end.empty() && request.end < request.start) {
      request.end = Key();  // "k10" < "k9": keep the request valid, scan to the end instead
    }
    const model::ModelScanId id = sut.oracle.open_scan(request);
    const ScanResult result = sut.store.scan(request, 0);
    fail_on(sut.oracle.observe_scan_page(id, request, result));
    const auto* page = std::get_if<ScanPage>(&result);
    RC_ASSERT(page != nullptr);
    if (page->continuation.has_value()) {
      request.continuation = page->continuation;
      sut.scans.push_back(Sut::TrackedScan{id, request});
      if (sut.scans.size() > kMaxTrackedScans) {
        sut.scans.erase(sut.scans.begin());
      }
    }
  }
  void show(std::ostream& os) const override {
    os << "BeginScan(" << key_name(start) << ", span " << span << ", " << max_entries << " per page)";
  }
};

struct ContinueScan : Command {
  std::size_t slot = *rc::gen::inRange<std::size_t>(0, kMaxTrackedScans);

  void run(const NoState&, Sut& sut) const override {
    if (sut.scans.empty()) {
      return;
    }
    const std::size_t index = slot % sut.scans.size();
    Sut::TrackedScan& tracked = sut.scans[index];
    const ScanResult result = sut.store.scan(tracked.next_request, 0);
    fail_on(sut.oracle.observe_scan_page(tracked.id, tracked.next_request, result));
    const auto* page = std::get_if<ScanPage>(&result);
    if (page != nullptr && page->continuation.has_value()) {
      tracked.next_request.continuation = page->continuation;
    } else {
      sut.scans.erase(sut.scans.begin() + static_cast<std::ptrdiff_t>(index));
    }
  }
  void show(std::ostream& os) const override { os << "ContinueScan(slot " << slot << ")"; }
};

struct PassStoreTime : Command {
  std::int64_t ms = *rc::gen::weightedElement<std::int64_t>({{4, 1}, {2, kScanTtlMs / 2}, {1, kScanTtlMs + 1}});

  void run(const NoState&, Sut& sut) const override { sut.clock.advance(ms); }
  void show(std::ostream& os) const override { os << "PassStoreTime(" << ms << " ms)"; }
};

}  // namespace

bool run_model_based_check(const ModelBasedCheckParams& params) {
  rc::detail::TestParams test_params;
  test_params.seed = params.seed;
  test_params.maxSuccess = params.max_success;
  test_params.maxSize = params.max_size;
  rc::detail::TestMetadata metadata;
  metadata.id = "memory store vs model::StoreModel";
  metadata.description = metadata.id;
  const TestOnlyFaults faults = params.faults;
  const rc::detail::TestResult result = rc::detail::checkTestable(
      [faults] {
        Sut sut(faults);
        rc::state::check(NoState{}, sut,
                         rc::state::gen::execOneOfWithArgs<ReadKey, WriteKeys, WriteKeys, BeginScan, ContinueScan,
                                                           ContinueScan, PassStoreTime>());
      },
      metadata, test_params);
  rc::detail::printResultMessage(result, std::cerr);
  std::cerr << std::endl;
  return result.is<rc::detail::SuccessResult>();
}

}  // namespace spotcheck::store::memory::testing

#include "tests/store_contract/contract_fixture.h"

#include <set>
#include <sstream>

namespace spotcheck::store::contract {

namespace {

std::string describe_error(const StoreError& e) {
  return std::string("StoreError{") + to_string(e.kind) + ", " + e.message + "}";
}

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace

std::string describe(const ReadResult& result) {
  return std::visit(
      Overloaded{
          [](const Missing& m) { return "Missing{now_ms=" + std::to_string(m.now_ms) + "}"; },
          [](const Found& f) {
            return "Found{" + std::to_string(f.value.size()) + " bytes, version=" +
                   std::to_string(f.version.value) + "}";
          },
          [](const StoreError& e) { return describe_error(e); },
      },
      result);
}

std::string describe(const WriteResult& result) {
  return std::visit(
      Overloaded{
          [](const Applied& a) { return "Applied{" + std::to_string(a.outcomes.size()) + " outcomes}"; },
          [](const Conflict& c) {
            const char* reason =
                c.reason == Conflict::Reason::kVersionMismatch ? "version-mismatch" : "bound-exceeded";
            return std::string("Conflict{") + reason + ", index=" + std::to_string(c.index) + "}";
          },
          [](const StoreError& e) { return describe_error(e); },
          [](const Indeterminate& i) { return "Indeterminate{" + i.reason + "}"; },
      },
      result);
}

std::string describe(const ScanResult& result) {
  return std::visit(
      Overloaded{
          [](const ScanPage& p) {
            return "ScanPage{" + std::to_string(p.entries.size()) + " entries, continuation=" +
                   (p.continuation ? std::to_string(p.continuation->size()) + " bytes" : "none") + "}";
          },
          [](const ScanExpired&) { return std::string("ScanExpired"); },
          [](const StoreError& e) { return describe_error(e); },
      },
      result);
}

std::string describe(const PutResult& result) {
  return std::visit(
      Overloaded{
          [](const Stored& s) {
            return std::string("Stored{already_present=") + (s.already_present ? "true" : "false") + "}";
          },
          [](const PayloadConflict&) { return std::string("PayloadConflict"); },
          [](const StoreError& e) { return describe_error(e); },
          [](const Indeterminate& i) { return "Indeterminate{" + i.reason + "}"; },
      },
      result);
}

std::string describe(const GetResult& result) {
  return std::visit(
      Overloaded{
          [](const PayloadFound& f) { return "PayloadFound{" + std::to_string(f.payload.size()) + " bytes}"; },
          [](const PayloadMissing&) { return std::string("PayloadMissing"); },
          [](const StoreError& e) { return describe_error(e); },
      },
      result);
}

std::string describe(const DeleteResult& result) {
  return std::visit(
      Overloaded{
          [](const Deleted& d) {
            return std::string("Deleted{was_present=") + (d.was_present ? "true" : "false") + "}";
          },
          [](const StoreError& e) { return describe_error(e); },
          [](const Indeterminate& i) { return "Indeterminate{" + i.reason + "}"; },
      },
      result);
}

Key prefix_end(const Key& prefix) {
  EXPECT_FALSE(prefix.empty());
  Key end = prefix;
  EXPECT_NE(static_cast<unsigned char>(end.back()), 0xffU);
  end.back() = static_cast<char>(static_cast<unsigned char>(end.back()) + 1);
  return end;
}

void ContractFixtureBase::set_up_prefix() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  // e.g. "contract/Memory/LocationStoreContract.CasWithCurrentVersionApplies/"
  _prefix = std::string("contract/") + info->test_suite_name() + "." + info->name() + "/";
  EXPECT_LT(_prefix.size(), kMaxKeyBytes / 2);
}

// ---- LocationStoreContract --------------------------------------------------------------------

void LocationStoreContract::SetUp() {
  set_up_prefix();
  _provider = GetParam().make();
  ASSERT_NE(_provider.location, nullptr) << "the factory made no LocationStore";
  ASSERT_TRUE(static_cast<bool>(_provider.let_store_time_pass));
  ASSERT_GT(_provider.scan_continuation_ttl_ms, 0);
}

DeadlineUs LocationStoreContract::deadline() {
  return _provider.deadline_us ? _provider.deadline_us() : kNoDeadlineUs;
}

StoreVersion LocationStoreContract::put(const Key& key, const Bytes& value) {
  WriteRequest request;
  request.mutations.push_back(Put{key, value});
  const WriteResult result = write(request);
  const auto* applied = std::get_if<Applied>(&result);
  EXPECT_NE(applied, nullptr) << describe(result);
  if (applied == nullptr) {
    return StoreVersion{};
  }
  EXPECT_EQ(applied->outcomes.size(), 1U);
  EXPECT_NE(applied->outcomes.at(0).version.value, 0U);
  return applied->outcomes.at(0).version;
}

void LocationStoreContract::put_many(const std::vector<std::pair<Key, Bytes>>& entries) {
  std::size_t next = 0;
  while (next < entries.size()) {
    WriteRequest request;
    for (; next < entries.size() && request.mutations.size() < kMaxMutations; ++next) {
      request.mutations.push_back(Put{entries[next].first, entries[next].second});
    }
    const WriteResult result = write(request);
    ASSERT_TRUE(std::holds_alternative<Applied>(result)) << describe(result);
  }
}

Found LocationStoreContract::read_found(const Key& key) {
  const ReadResult result = read(key);
  const auto* found = std::get_if<Found>(&result);
  EXPECT_NE(found, nullptr) << key << ": " << describe(result);
  if (found == nullptr) {
    return Found{};
  }
  EXPECT_NE(found->version.value, 0U);
  return *found;
}

void LocationStoreContract::expect_missing(const Key& key) {
  const ReadResult result = read(key);
  EXPECT_TRUE(std::holds_alternative<Missing>(result)) << key << ": " << describe(result);
}

LocationStoreContract::ScanOutcome LocationStoreContract::scan_all(const Key& start, const Key& end,
                                                                   std::uint32_t max_entries) {
  ScanOutcome outcome;
  ScanRequest request{start, end, std::nullopt, max_entries};
  std::set<Key> seen;
  // Bound: every page but the last carries at least one entry; the ranges here stay far below.
  constexpr std::size_t kMaxPages = 100'000;
  for (std::size_t page_index = 0; page_index < kMaxPages; ++page_index) {
    const ScanResult result = scan(request);
    const auto* page = std::get_if<ScanPage>(&result);
    EXPECT_NE(page, nullptr) << "page " << page_index << ": " << describe(result);
    if (page == nullptr) {
      return outcome;
    }
    std::size_t page_bytes = 0;
    EXPECT_LE(page->entries.size(), max_entries);
    for (const ScanEntry& entry : page->entries) {
      EXPECT_GE(entry.key, start);
      if (!end.empty()) {
        EXPECT_LT(entry.key, end);
      }
      EXPECT_NE(entry.version.value, 0U);
      EXPECT_TRUE(seen.insert(entry.key).second) << "key returned twice: " << entry.key;
      if (!outcome.entries.empty()) {
        EXPECT_LT(outcome.entries.back().key, entry.key) << "keys out of byte order";
      }
      page_bytes += entry.key.size() + entry.value.size();
      outcome.entries.push_back(entry);
    }
    EXPECT_LE(page_bytes, kMaxScanPageBytes);
    outcome.page_sizes.push_back(page->entries.size());
    if (!page->continuation.has_value()) {
      outcome.complete = true;
      return outcome;
    }
    EXPECT_GE(page->entries.size(), 1U) << "a non-last page must carry entries";
    EXPECT_FALSE(page->continuation->empty());
    EXPECT_LE(page->continuation->size(), kMaxContinuationBytes);
    request.continuation = page->continuation;
  }
  ADD_FAILURE() << "scan did not end within " << kMaxPages << " pages";
  return outcome;
}

// ---- RelocationStoreContract ------------------------------------------------------------------

void RelocationStoreContract::SetUp() {
  set_up_prefix();
  _provider = GetParam().make();
  ASSERT_NE(_provider.relocation, nullptr) << "the factory made no RelocationStore";
  ASSERT_TRUE(static_cast<bool>(_provider.let_store_time_pass));
}

DeadlineUs RelocationStoreContract::deadline() {
  return _provider.deadline_us ? _provider.deadline_us() : kNoDeadlineUs;
}

}  // namespace spotcheck::store::contract

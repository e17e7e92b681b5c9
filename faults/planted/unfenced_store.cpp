#include "faults/planted/unfenced_store.h"

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "impl/check/check.h"
#include "impl/records/keys.h"

namespace spotcheck::planted {

#if SPOTCHECK_PLANTED_BUGS
namespace {

bool starts_with(const store::Key& key, std::string_view prefix) { return key.starts_with(prefix); }

const store::Key* mutated_key(const store::Mutation& mutation) {
  if (const auto* put = std::get_if<store::Put>(&mutation)) {
    return &put->key;
  }
  if (const auto* removal = std::get_if<store::Delete>(&mutation)) {
    return &removal->key;
  }
  return nullptr;
}

// The host run learns its own owner lease key from its own lease writes (register and renew put
// only that record); an authority write is one that puts or deletes an authority row.
class UnfencedStore final : public store::LocationStore {
 public:
  explicit UnfencedStore(std::unique_ptr<store::LocationStore> inner) : _inner(std::move(inner)) {
    SPOTCHECK_ASSERT_ABORT(_inner != nullptr);
  }

  store::ReadResult read(const store::Key& key, store::DeadlineUs deadline_us) override {
    return _inner->read(key, deadline_us);
  }
  store::ScanResult scan(const store::ScanRequest& request, store::DeadlineUs deadline_us) override {
    return _inner->scan(request, deadline_us);
  }

  store::WriteResult write(const store::WriteRequest& request, store::DeadlineUs deadline_us) override {
    learn_own_lease(request);
    if (!is_authority_write(request) || _own_lease_key.empty()) {
      return _inner->write(request, deadline_us);
    }
    // Drop the own-lease condition; keep where every kept condition came from.
    store::WriteRequest unfenced{{}, request.mutations};
    std::vector<std::size_t> original_index;
    for (std::size_t i = 0; i < request.conditions.size(); ++i) {
      const auto* expect = std::get_if<store::ExpectVersion>(&request.conditions[i]);
      if (expect != nullptr && expect->key == _own_lease_key) {
        continue;
      }
      unfenced.conditions.push_back(request.conditions[i]);
      original_index.push_back(i);
    }
    SPOTCHECK_ASSERT_ABORT(original_index.size() == unfenced.conditions.size());
    store::WriteResult result = _inner->write(unfenced, deadline_us);
    if (auto* conflict = std::get_if<store::Conflict>(&result);
        conflict != nullptr && conflict->reason == store::Conflict::Reason::kVersionMismatch) {
      SPOTCHECK_ASSERT_ABORT(conflict->index < original_index.size());
      conflict->index = original_index[conflict->index];  // as the caller numbered its conditions
    }
    return result;
  }

 private:
  void learn_own_lease(const store::WriteRequest& request) {
    const std::string lease_prefix = records::owner_lease_preimage("");
    for (const store::Mutation& mutation : request.mutations) {
      if (const auto* put = std::get_if<store::Put>(&mutation); put != nullptr && starts_with(put->key, lease_prefix)) {
        _own_lease_key = put->key;
      }
    }
  }

  static bool is_authority_write(const store::WriteRequest& request) {
    // records/keys.cpp: an authority row's preimage is "authority" NUL kind NUL id.
    constexpr std::string_view kAuthorityPrefix("authority\0", 10);
    for (const store::Mutation& mutation : request.mutations) {
      if (const store::Key* key = mutated_key(mutation); key != nullptr && starts_with(*key, kAuthorityPrefix)) {
        return true;
      }
    }
    return false;
  }

  std::unique_ptr<store::LocationStore> _inner;
  store::Key _own_lease_key;  // empty until the host run wrote its lease record
};

}  // namespace
#endif

std::unique_ptr<store::LocationStore> plant_at_store_seam(std::unique_ptr<store::LocationStore> inner,
                                                          const PlantedBugs& bugs) {
#if SPOTCHECK_PLANTED_BUGS
  if (SPOTCHECK_PLANTED(bugs, kUnfencedWrites)) {
    return std::make_unique<UnfencedStore>(std::move(inner));
  }
#endif
  (void)bugs;
  return inner;
}

}  // namespace spotcheck::planted

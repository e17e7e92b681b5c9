// Parked tasks waiting for one wake-up point (a gate, a process inbox).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace spotcheck::sim {

struct WaitRef {
  std::uint32_t slot = 0;    // task slot
  std::uint64_t token = 0;   // the wait's unique token; stale refs are ignored on wake
};

class WaitList {
 public:
  void add(WaitRef ref) { refs_.push_back(ref); }
  void remove(std::uint64_t token) {
    auto found = std::find_if(refs_.begin(), refs_.end(), [token](const WaitRef& ref) { return ref.token == token; });
    if (found != refs_.end()) {
      refs_.erase(found);
    }
  }
  std::vector<WaitRef> take() { return std::exchange(refs_, {}); }
  void clear() { refs_.clear(); }
  bool empty() const { return refs_.empty(); }
  std::size_t size() const { return refs_.size(); }

 private:
  std::vector<WaitRef> refs_;
};

}  // namespace spotcheck::sim

// What a command target remembers about the operations it was sent (by operation key text), so
// a resent command is answered from memory instead of running again. Bounded: past `bound`
// entries the oldest settled ones are forgotten; a running one never is.
// Used by the creation target (commands 47/49) and the Close target (command 48).
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <string>

namespace spotcheck::location::creation {

// `Entry` has a `state` whose enum has a `kRunning` value.
template <class Entry>
class RememberedOperations {
 public:
  explicit RememberedOperations(std::size_t bound) : _bound(bound) {}

  // The entry remembered for `op_key`, or nullptr.
  Entry* find(const std::string& op_key) {
    auto it = _entries.find(op_key);
    return it == _entries.end() ? nullptr : &it->second;
  }

  void remember(const std::string& op_key, Entry entry) {
    auto it = _entries.find(op_key);
    if (it != _entries.end()) {
      it->second = std::move(entry);
      return;
    }
    _entries.emplace(op_key, std::move(entry));
    _order.push_back(op_key);
    // Forget the oldest settled operations beyond the bound (never a running one).
    for (std::size_t scanned = 0; _entries.size() > _bound && scanned < _order.size(); ++scanned) {
      const std::string oldest = _order.front();
      _order.pop_front();
      auto old = _entries.find(oldest);
      if (old != _entries.end() && old->second.state == decltype(old->second.state)::kRunning) {
        _order.push_back(oldest);
        continue;
      }
      _entries.erase(oldest);
    }
  }

  std::size_t size() const { return _entries.size(); }

 private:
  std::size_t _bound;
  std::map<std::string, Entry> _entries;  // ordered, bounded
  std::deque<std::string> _order;         // insertion order, for forgetting the oldest
};

}  // namespace spotcheck::location::creation

// Hash maps keyed by std::string that can be looked up with a std::string_view (no copy per
// event). Checkers only look up and insert; they never iterate these (iteration order is not
// deterministic), so anything reported in order lives in an ordered container instead.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace spotcheck::properties {

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

template <class Value>
using StringMap = std::unordered_map<std::string, Value, StringHash, std::equal_to<>>;
using StringSet = std::unordered_set<std::string, StringHash, std::equal_to<>>;

}  // namespace spotcheck::properties

// What a violation is about, as data: the objects and host runs it concerns and the events its
// message cites. Filled by the property suite while the violating event is judged (checkers cite
// events with PropertyChecker::cite; the objects and host runs are those the violating and the
// cited events name), carried by scenarios::Violation, and read by the story (replay/story)
// instead of the message's text. Header-only data: the scenario registry carries it as is.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spotcheck::properties {

struct ViolationSubjects {
  std::vector<std::string> objects;    // object IDs ('player:3'), first named first
  std::vector<std::string> host_runs;  // OwnerIds, first named first
  std::vector<std::uint64_t> events;   // the events the message cites, ascending, unique

  void add_object(std::string_view id) { add_unique(objects, id); }
  void add_host_run(std::string_view owner) { add_unique(host_runs, owner); }
  void add_event(std::uint64_t index) {
    const auto at = std::lower_bound(events.begin(), events.end(), index);
    if (at == events.end() || *at != index) {
      events.insert(at, index);
    }
  }
  bool empty() const { return objects.empty() && host_runs.empty() && events.empty(); }
  bool cites(std::uint64_t index) const { return std::binary_search(events.begin(), events.end(), index); }

  // The fields by which an event names an object and host runs (docs/events.md conventions):
  // the suite reads them from trace events, the story from trace lines.
  static constexpr std::string_view kObjectField = "id";
  static constexpr std::array<std::string_view, 4> kHostRunFields = {"owner", "by_owner", "prev_owner",
                                                                     "source_owner"};

 private:
  static void add_unique(std::vector<std::string>& values, std::string_view value) {
    if (!value.empty() && std::find(values.begin(), values.end(), value) == values.end()) {
      values.emplace_back(value);
    }
  }
};

}  // namespace spotcheck::properties

#include "replay/diagram/story_picture.h"

#include <algorithm>
#include <deque>
#include <set>

#include "impl/platform/event_kinds.h"
#include "replay/diagram/clock_readings.h"
#include "replay/diagram/diagram_arrows.h"
#include "replay/diagram/diagram_marks.h"
#include "replay/diagram/lease_windows.h"
#include "replay/diagram/message_log.h"
#include "replay/diagram/record_version_log.h"

namespace spotcheck::replay {

namespace {

// From the story's first event to the violation.
DiagramWindow window_of(const Story& story, const scenarios::Violation& violation) {
  DiagramWindow w{violation.time_us, violation.time_us};
  for (const StoryEvent& e : story.events) {
    w.from_us = std::min(w.from_us, e.line.time_us);
    w.to_us = std::max(w.to_us, e.line.time_us);
  }
  return w;
}

std::vector<std::string> subjects_of(const Story& story) {
  std::vector<std::string> subjects = story.objects;
  subjects.insert(subjects.end(), story.owners.begin(), story.owners.end());
  return subjects;
}

// Everything the picture takes from the trace, read in one pass.
class TraceReading {
 public:
  TraceReading(const Story& story, const scenarios::Violation& violation)
      : _story(story),
        _violation(violation),
        _window(window_of(story, violation)),
        _messages(_names, _window.from_us),
        _records(_names, subjects_of(story)) {
    for (const StoryEvent& e : story.events) {
      _story_indexes.insert(e.line.index);
      _nodes.insert(e.line.node);
    }
    _nodes.erase("world");
  }
  TraceReading(const TraceReading&) = delete;
  TraceReading& operator=(const TraceReading&) = delete;

  void read(const TraceLine& line) {
    _names.read(line);
    _leases.read(line, _clocks);
    _clocks.read(line);
    _messages.read(line);
    _records.read(line);
    if (is_lifecycle_event(line) && _nodes.count(line.node) > 0 && _story_indexes.count(line.index) == 0 &&
        (line.time_us >= _window.from_us || line.kind == kinds::kProcessPause)) {
      _lifecycle.push_back(line);
      if (_lifecycle.size() > reports::kDiagramMarksMax) {
        _lifecycle.pop_front();
      }
    }
  }

  StoryPicture picture() const;

 private:
  std::vector<reports::DiagramMark> marks(const DiagramLanes& lanes) const;
  std::vector<reports::DiagramSpan> spans(const DiagramLanes& lanes) const;
  std::optional<reports::DiagramViolation> violation(const DiagramLanes& lanes) const;

  const Story& _story;
  const scenarios::Violation& _violation;
  DiagramWindow _window;
  std::set<std::uint64_t> _story_indexes;
  std::set<std::string> _nodes;
  ProcessNames _names;
  ClockReadings _clocks;
  LeaseWindows _leases;
  MessageLog _messages;
  RecordVersionLog _records;
  std::deque<TraceLine> _lifecycle;  // the latest lifecycle events of the story's nodes the story left out
};

// The latest `max` of `items` once sorted by `key`.
template <class T, class Key>
std::vector<T> latest_by(std::vector<T> items, std::size_t max, Key key) {
  std::stable_sort(items.begin(), items.end(), [&](const T& a, const T& b) { return key(a) < key(b); });
  if (items.size() > max) {
    items.erase(items.begin(), items.end() - static_cast<std::ptrdiff_t>(max));
  }
  return items;
}

std::vector<reports::DiagramMark> TraceReading::marks(const DiagramLanes& lanes) const {
  std::vector<reports::DiagramMark> marks;
  for (const StoryEvent& e : _story.events) {
    const bool violating = e.line.index == _violation.event_index;
    marks.push_back(diagram_mark(e.line, e.key || violating, e.fault, lanes, _names));
  }
  for (const TraceLine& line : _lifecycle) {
    if (line.time_us >= _window.from_us) {
      marks.push_back(diagram_mark(line, false, true, lanes, _names));
    }
  }
  return latest_by(std::move(marks), reports::kDiagramMarksMax, [](const reports::DiagramMark& m) { return m.index; });
}

std::vector<reports::DiagramSpan> TraceReading::spans(const DiagramLanes& lanes) const {
  std::vector<reports::DiagramSpan> spans = lease_spans(_leases.windows(_clocks), lanes, _window);
  for (const StoryEvent& e : _story.events) {
    if (auto pause = pause_span(e.line, lanes, _window)) {
      spans.push_back(std::move(*pause));
    }
  }
  for (const TraceLine& line : _lifecycle) {
    if (auto pause = pause_span(line, lanes, _window)) {
      spans.push_back(std::move(*pause));
    }
  }
  return latest_by(std::move(spans), reports::kDiagramSpansMax,
                   [](const reports::DiagramSpan& s) { return s.from_us; });
}

std::optional<reports::DiagramViolation> TraceReading::violation(const DiagramLanes& lanes) const {
  reports::DiagramViolation v{std::nullopt, _violation.time_us, _violation.event_index, _violation.property,
                              _violation.message};
  for (const StoryEvent& e : _story.events) {
    if (e.line.index == _violation.event_index) {
      v.lane = e.line.node == "world" ? std::nullopt : lanes.of_node(e.line.node);
      v.time_us = e.line.time_us;
    }
  }
  return v;
}

StoryPicture TraceReading::picture() const {
  const std::vector<std::string> nodes =
      nodes_in_run_order(std::vector<std::string>(_nodes.begin(), _nodes.end()), _names);
  std::set<std::int64_t> node_rids;
  for (const std::string& node : nodes) {
    if (const auto rid = _names.rid_of(node)) {
      node_rids.insert(*rid);
    }
  }
  const auto& log = _messages.arrows();
  const ChosenArrows chosen = choose_arrows(log, node_rids, _names, subjects_of(_story), reports::kDiagramArrowsMax);
  const DiagramLanes lanes(nodes, chosen.store_rids, _names);
  StoryPicture picture;
  reports::SequenceDiagram& d = picture.diagram;
  d.lanes = lanes.lanes();
  for (const std::size_t i : chosen.arrows) {
    d.arrows.push_back(diagram_arrow(log[i], lanes));
  }
  d.arrows_left_out = chosen.left_out;
  d.spans = spans(lanes);
  d.marks = marks(lanes);
  d.violation = violation(lanes);
  d.from_us = _window.from_us;
  d.to_us = _window.to_us;
  picture.versions = _records.versions();
  return picture;
}

}  // namespace

StoryPicture picture_story(const std::vector<std::string>& event_lines, const Story& story,
                           const scenarios::Violation& violation) {
  TraceReading reading(story, violation);
  for (const std::string& text : event_lines) {
    const auto line = parse_trace_line(text);
    if (line.has_value() && line->index <= violation.event_index) {
      reading.read(*line);
    }
  }
  return reading.picture();
}

}  // namespace spotcheck::replay

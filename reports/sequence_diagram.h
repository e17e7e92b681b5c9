// The picture of one failing seed (the HTML report's stories): an inline <svg> sequence diagram
// with a lane per node and per store and time running down. Messages and store requests are
// arrows (lost ones dashed and crossed), owner-lease windows and admission windows are bars on the
// node lanes (the admission window ending in a deadline tick), pauses are shaded spans, kills and
// starts are marked, the story's events are dots labelled in the left margin, and the violating
// event is highlighted with the property's sentence.
//
// This file only lays the diagram out; replay/diagram/ fills it from a run's trace. Rows are the
// distinct instants of what is drawn, in time order (a long quiet gap is shown as one), so the
// picture stays readable however long the run was. Bounded: at most the k*Max items below are
// drawn (the rest are counted), every text is escaped, the same diagram gives the same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spotcheck::reports {

inline constexpr std::size_t kDiagramLanesMax = 16;
inline constexpr std::size_t kDiagramArrowsMax = 120;
inline constexpr std::size_t kDiagramSpansMax = 80;
inline constexpr std::size_t kDiagramMarksMax = 160;

struct DiagramLane {
  std::string name;  // "node-2", "Location Store"
  bool store = false;
};

enum class ArrowKind { kMessage, kStoreRequest, kStoreReply };

// One message or store request: from the sender's lane at sent_us to the receiver's lane at
// ended_us (its delivery, or where it was lost).
struct DiagramArrow {
  std::size_t from_lane = 0;
  std::size_t to_lane = 0;
  ArrowKind kind = ArrowKind::kMessage;
  std::int64_t sent_us = 0;
  std::int64_t ended_us = 0;
  bool lost = false;
  std::string label;   // shown beside the arrow ("put authority/actor/player:0"); may be empty
  std::string detail;  // its tooltip: which message, when sent and delivered or why lost
};

enum class SpanKind { kOwnerLease, kAdmission, kPause };

// A window on one node lane: an owner lease up to its ExpiresAt, admission up to the local
// deadline, a pause up to its end. Drawn clipped to the diagram's time window.
struct DiagramSpan {
  std::size_t lane = 0;
  SpanKind kind = SpanKind::kPause;
  std::int64_t from_us = 0;
  std::int64_t to_us = 0;
  bool ends_at_deadline = false;  // an admission window that ran to its deadline: a tick there
  std::string detail;
};

enum class MarkKind { kEvent, kKey, kFault, kKill, kStart };

// One event: a dot on its lane (no lane: the whole world, a rule across every lane), its label in
// the left margin.
struct DiagramMark {
  std::optional<std::size_t> lane;
  MarkKind kind = MarkKind::kEvent;
  std::int64_t time_us = 0;
  std::uint64_t index = 0;
  std::string label;
};

struct DiagramViolation {
  std::optional<std::size_t> lane;  // the node of the violating event (none: the world's)
  std::int64_t time_us = 0;
  std::uint64_t index = 0;
  std::string property;
  std::string message;  // the property's sentence
};

struct SequenceDiagram {
  std::vector<DiagramLane> lanes;
  std::vector<DiagramArrow> arrows;  // in the order they were sent
  std::vector<DiagramSpan> spans;
  std::vector<DiagramMark> marks;
  std::optional<DiagramViolation> violation;
  std::uint64_t arrows_left_out = 0;  // messages of the window that were not drawn
  std::int64_t from_us = 0;           // the time window shown
  std::int64_t to_us = 0;
};

// The <svg> element. `id` (letters, digits, '-') keeps the element ids of several diagrams on one
// page apart.
std::string sequence_diagram_svg(const SequenceDiagram& diagram, std::string_view id);

// The CSS the diagram's classes need (the page's <style> carries it once for every diagram).
extern const std::string_view kSequenceDiagramStyle;

}  // namespace spotcheck::reports

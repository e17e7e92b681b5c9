// The events and windows drawn on the diagram's lanes: the story's events as marks (the violating
// one and those its message cites as key marks, faults as fault marks, kills and starts as their
// own), the pauses as spans, and each host run's owner-lease and admission windows as spans.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "replay/diagram/diagram_lanes.h"
#include "replay/diagram/lease_windows.h"
#include "replay/story/process_names.h"
#include "replay/story/trace_line.h"
#include "reports/sequence_diagram.h"

namespace spotcheck::replay {

// The instants a diagram shows.
struct DiagramWindow {
  std::int64_t from_us = 0;
  std::int64_t to_us = 0;
};

// Whether the event is a node's pause, kill, start, exit or giving up (drawn even when the story
// left it out).
bool is_lifecycle_event(const TraceLine& line);

// A mark on the event's node's lane (a store-host event: on the lane of the node it names; none:
// the world's).
reports::DiagramMark diagram_mark(const TraceLine& line, bool key, bool fault, const DiagramLanes& lanes,
                                  const ProcessNames& names);

// A pause event's span, when its node has a lane and the pause reaches into the window.
std::optional<reports::DiagramSpan> pause_span(const TraceLine& line, const DiagramLanes& lanes,
                                               const DiagramWindow& window);

// The owner-lease and admission spans of the windows of laned nodes that reach into the window.
std::vector<reports::DiagramSpan> lease_spans(const std::vector<LeaseWindow>& windows, const DiagramLanes& lanes,
                                              const DiagramWindow& window);

}  // namespace spotcheck::replay

#include "replay/diagram/diagram_marks.h"

#include <algorithm>

#include "impl/platform/event_kinds.h"
#include "sim/time/time_text.h"

namespace spotcheck::replay {

namespace {

reports::MarkKind mark_kind(const TraceLine& line, bool key, bool fault) {
  if (key) {
    return reports::MarkKind::kKey;
  }
  if (line.kind == kinds::kProcessKill) {
    return reports::MarkKind::kKill;
  }
  if (line.kind == kinds::kProcessStart) {
    return reports::MarkKind::kStart;
  }
  return fault ? reports::MarkKind::kFault : reports::MarkKind::kEvent;
}

// "#3328 object.work player:0", "#2519 pause 27.4s", "#12 start run=2".
std::string mark_label(const TraceLine& line) {
  std::string label = "#" + std::to_string(line.index) + " " + line.kind;
  if (const auto id = text_field(line, "id")) {
    label += " " + *id;
  }
  if (const auto outcome = text_field(line, "outcome")) {
    label += " " + *outcome;
  }
  if (const auto duration = number_field(line, "duration_us")) {
    label += " " + sim::seconds_short(*duration);
  }
  if (const auto run = number_field(line, "run")) {
    label += " run=" + std::to_string(*run);
  }
  if (const auto op = text_field(line, "op")) {
    label += " " + *op;
  }
  return label;
}

std::optional<std::size_t> lane_of_event(const TraceLine& line, const DiagramLanes& lanes, const ProcessNames& names) {
  if (line.node != "world") {
    return lanes.of_node(line.node);
  }
  const bool names_a_node = line.kind.starts_with("store.") && line.kind != kinds::kStoreApplied;
  return names_a_node ? lanes.of_node(names.of_pid(number_field(line, "node"))) : std::nullopt;
}

}  // namespace

bool is_lifecycle_event(const TraceLine& line) {
  return line.kind == kinds::kProcessPause || line.kind == kinds::kProcessKill || line.kind == kinds::kProcessStart ||
         line.kind == kinds::kProcessExit || line.kind == kinds::kNodeGaveUp;
}

reports::DiagramMark diagram_mark(const TraceLine& line, bool key, bool fault, const DiagramLanes& lanes,
                                  const ProcessNames& names) {
  return reports::DiagramMark{lane_of_event(line, lanes, names), mark_kind(line, key, fault), line.time_us, line.index,
                              mark_label(line)};
}

std::optional<reports::DiagramSpan> pause_span(const TraceLine& line, const DiagramLanes& lanes,
                                               const DiagramWindow& window) {
  const auto lane = lanes.of_node(line.node);
  const std::int64_t until = number_field(line, "until_us").value_or(line.time_us);
  if (line.kind != kinds::kProcessPause || !lane.has_value() || until < window.from_us || line.time_us > window.to_us) {
    return std::nullopt;
  }
  return reports::DiagramSpan{*lane,
                              reports::SpanKind::kPause,
                              line.time_us,
                              until,
                              false,
                              line.node + " paused at " + sim::seconds_exact(line.time_us) + " until " +
                                  sim::seconds_exact(until) + " (#" + std::to_string(line.index) + ")"};
}

std::vector<reports::DiagramSpan> lease_spans(const std::vector<LeaseWindow>& windows, const DiagramLanes& lanes,
                                              const DiagramWindow& window) {
  std::vector<reports::DiagramSpan> spans;
  for (const LeaseWindow& w : windows) {
    const auto lane = lanes.of_node(w.node);
    const std::int64_t cut = w.cut_us.value_or(window.to_us);
    const std::int64_t lease_end = std::min(w.lease_until_us, cut);
    const std::int64_t admission_end = std::min(w.admission_until_us, cut);
    if (!lane.has_value() || w.from_us > window.to_us || std::max(lease_end, admission_end) < window.from_us) {
      continue;
    }
    const std::string run =
        "host run " + w.owner + "/" + std::to_string(w.lease_gen) + " (#" + std::to_string(w.index) + ")";
    const std::string cut_text =
        w.cut_us.has_value() ? ", cut at " + sim::seconds_exact(*w.cut_us) + " (" + w.cut_by + ")" : "";
    spans.push_back(reports::DiagramSpan{*lane, reports::SpanKind::kOwnerLease, w.from_us, lease_end, false,
                                         "owner lease of " + run + " until ExpiresAt " + std::to_string(w.expires_ms) +
                                             " ms (store clock) = " + sim::seconds_exact(w.lease_until_us) + cut_text});
    spans.push_back(reports::DiagramSpan{
        *lane, reports::SpanKind::kAdmission, w.from_us, admission_end, w.admission_until_us <= cut,
        "admission of " + run + " until the deadline " + std::to_string(w.deadline_us) +
            " us (local clock) = " + sim::seconds_exact(w.admission_until_us) + cut_text});
  }
  return spans;
}

}  // namespace spotcheck::replay

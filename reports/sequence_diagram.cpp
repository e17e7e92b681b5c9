#include "reports/sequence_diagram.h"

#include <algorithm>
#include <map>

#include "reports/diagram_rows.h"
#include "reports/markup_escape.h"
#include "reports/text_clip.h"
#include "sim/time/time_text.h"

namespace spotcheck::reports {

const std::string_view kSequenceDiagramStyle =
    ".sequence-diagram{background:#fff;font-family:'DejaVu Sans Mono',ui-monospace,monospace;font-size:10px;"
    "display:block;margin:1em 0;border:1px solid #ddd}"
    ".sequence-diagram .lane rect{fill:#eef3fb;stroke:#4a6fa5}.sequence-diagram .lane.store rect{fill:#fbf1e1;"
    "stroke:#a5794a}.sequence-diagram .lane text{font-weight:bold;fill:#222}"
    ".sequence-diagram .lane line{stroke:#999;stroke-dasharray:3 3}"
    ".sequence-diagram .time,.sequence-diagram .heading,.sequence-diagram .left-out{fill:#777}"
    ".sequence-diagram .label{fill:#222}.sequence-diagram .label.key{fill:#a11;font-weight:bold}"
    ".sequence-diagram .label.fault{fill:#8a4b00}"
    ".sequence-diagram .quiet line{stroke:#ccc;stroke-dasharray:1 3}.sequence-diagram .quiet text{fill:#888;"
    "font-style:italic}"
    ".sequence-diagram .span.lease rect{fill:#a9d3a9}.sequence-diagram .span.admission rect{fill:#2e8b57}"
    ".sequence-diagram .span.admission line{stroke:#1d6b3f;stroke-width:2}"
    ".sequence-diagram .span.admission text{fill:#1d6b3f;font-size:9px}"
    ".sequence-diagram .span.pause rect{fill:#999;fill-opacity:.28;stroke:#666;stroke-dasharray:2 2}"
    ".sequence-diagram .arrow line,.sequence-diagram .arrow path.route{stroke-width:1.2;fill:none}"
    ".sequence-diagram .arrow.message line,.sequence-diagram .arrow.message path.route{stroke:#6a3d9a}"
    ".sequence-diagram .arrow.store-request line{stroke:#1f5fa8}"
    ".sequence-diagram .arrow.store-reply line{stroke:#86a8d0}"
    ".sequence-diagram .arrow.lost line,.sequence-diagram .arrow.lost path.route{stroke:#d12;"
    "stroke-dasharray:4 3}"
    ".sequence-diagram .arrow .cross{stroke:#d12;stroke-width:2.2}"
    ".sequence-diagram .arrow text{fill:#1f5fa8;font-size:9px}.sequence-diagram .arrow.lost text{fill:#d12}"
    ".sequence-diagram .mark.event{fill:#fff;stroke:#333}.sequence-diagram .mark.key{fill:#d12;stroke:#700}"
    ".sequence-diagram .mark.fault{fill:#f0b050;stroke:#8a4b00}"
    ".sequence-diagram .mark.kill{stroke:#000;stroke-width:2.5}.sequence-diagram .mark.start{fill:#2e8b57}"
    ".sequence-diagram .mark.world{stroke:#8a4b00;stroke-dasharray:6 3}"
    ".sequence-diagram .violation-band{fill:#fbd3d3}"
    ".sequence-diagram circle.violation{fill:#d12;stroke:#600;stroke-width:2}"
    ".sequence-diagram .violation-link{stroke:#d12;stroke-width:1.5}"
    ".sequence-diagram .violation-sentence rect{fill:#fff3f3;stroke:#d12;stroke-width:1.5}"
    ".sequence-diagram .violation-sentence text{fill:#a11;font-weight:bold;font-size:11px}";

namespace {

using markup::escape;

constexpr int kTimeX = 6;
constexpr int kLabelX = 84;
constexpr int kGutter = 330;  // the left margin: times and story labels
constexpr std::size_t kLabelCharsMax = 40;
constexpr int kLaneGap = 180;  // an arrow label (28 characters of 9px monospace, about 150px) fits between two lanes
constexpr int kHeaderY = 8;
constexpr int kHeaderHeight = 24;
constexpr int kFirstRowY = 62;
constexpr int kWidthMin = 760;
constexpr std::size_t kArrowLabelCharsMax = 28;
constexpr std::size_t kSentenceLinesMax = 6;
constexpr int kSentenceLineStep = 15;

std::string n(std::int64_t value) { return std::to_string(value); }

std::string title(std::string_view text) { return "<title>" + escape(text) + "</title>"; }

// The picture's frame: the time window, where rows and lanes are.
struct Frame {
  std::int64_t from_us;
  std::int64_t to_us;
  std::size_t lanes;
  DiagramRows rows;
  int width;

  std::int64_t clip(std::int64_t time_us) const { return std::clamp(time_us, from_us, to_us); }
  int y(std::int64_t time_us) const { return rows.y(clip(time_us)); }
  int lane_x(std::size_t lane) const { return kGutter + kLaneGap / 2 + static_cast<int>(lane) * kLaneGap; }
  bool has_lane(std::optional<std::size_t> lane) const { return lane.has_value() && *lane < lanes; }
};

// What is drawn of the input: the bounded prefix of each list.
template <class T>
std::vector<T> first(const std::vector<T>& items, std::size_t max) {
  return std::vector<T>(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), max)));
}

Frame frame_of(const SequenceDiagram& d, std::size_t lanes) {
  const std::int64_t from = std::min(d.from_us, d.to_us);
  const std::int64_t to = std::max(d.from_us, d.to_us);
  auto clip = [&](std::int64_t t) { return std::clamp(t, from, to); };
  std::vector<std::int64_t> times;
  for (const DiagramArrow& a : first(d.arrows, kDiagramArrowsMax)) {
    times.push_back(clip(a.sent_us));
    times.push_back(clip(a.ended_us));
  }
  for (const DiagramSpan& s : first(d.spans, kDiagramSpansMax)) {
    times.push_back(clip(s.from_us));
    times.push_back(clip(s.to_us));
  }
  for (const DiagramMark& m : first(d.marks, kDiagramMarksMax)) {
    times.push_back(clip(m.time_us));
  }
  if (d.violation.has_value()) {
    times.push_back(clip(d.violation->time_us));
  }
  const int width = std::max(kWidthMin, kGutter + static_cast<int>(lanes) * kLaneGap + 20);
  return Frame{from, to, lanes, DiagramRows(std::move(times), kFirstRowY), width};
}

std::string defs(std::string_view id) {
  return "<defs><marker id=\"" + escape(id) +
         "-head\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
         "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#444\"/></marker></defs>\n";
}

std::string lanes_svg(const std::vector<DiagramLane>& lanes, const Frame& f) {
  std::string out;
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const int x = f.lane_x(i);
    out += "<g class=\"lane" + std::string(lanes[i].store ? " store" : "") + "\">" + title(lanes[i].name) +
           "<rect x=\"" + n(x - kLaneGap / 2 + 8) + "\" y=\"" + n(kHeaderY) + "\" width=\"" + n(kLaneGap - 16) +
           "\" height=\"" + n(kHeaderHeight) + "\" rx=\"4\"/><text x=\"" + n(x) + "\" y=\"" + n(kHeaderY + 16) +
           "\" text-anchor=\"middle\">" + escape(clip_text(lanes[i].name, 20)) + "</text><line x1=\"" + n(x) +
           "\" y1=\"" + n(kHeaderY + kHeaderHeight) + "\" x2=\"" + n(x) + "\" y2=\"" + n(f.rows.bottom() + 12) +
           "\"/></g>\n";
  }
  return out;
}

// The time of every row in the margin, and a note before each long quiet gap.
std::string time_axis_svg(const Frame& f) {
  std::string out = "<text class=\"heading\" x=\"" + n(kTimeX) + "\" y=\"" + n(kFirstRowY - 14) +
                    "\">time</text><text class=\"heading\" x=\"" + n(kLabelX) + "\" y=\"" + n(kFirstRowY - 14) +
                    "\">story event</text>\n";
  for (const DiagramRow& row : f.rows.rows()) {
    if (row.quiet_before_us > 0) {
      const int y = row.y - DiagramRows::kRowStep;
      out += "<g class=\"quiet\"><line x1=\"" + n(kTimeX) + "\" y1=\"" + n(y) + "\" x2=\"" + n(f.width) + "\" y2=\"" +
             n(y) + "\"/><text x=\"" + n(kLabelX) + "\" y=\"" + n(y - 3) + "\">" +
             escape(sim::seconds_short(row.quiet_before_us)) + " later</text></g>\n";
    }
    out += "<text class=\"time\" x=\"" + n(kTimeX) + "\" y=\"" + n(row.y + 3) + "\">" +
           escape(sim::seconds_exact(row.time_us)) + "</text>\n";
  }
  return out;
}

std::string span_svg(const DiagramSpan& s, const Frame& f) {
  const int x = f.lane_x(s.lane);
  const int y1 = f.y(s.from_us);
  const int y2 = std::max(f.y(s.to_us), y1 + 2);
  static const std::map<SpanKind, std::pair<const char*, int>> kStyle = {{SpanKind::kOwnerLease, {"lease", -13}},
                                                                         {SpanKind::kAdmission, {"admission", -7}},
                                                                         {SpanKind::kPause, {"pause", -20}}};
  const auto& [name, dx] = kStyle.at(s.kind);
  const int width = s.kind == SpanKind::kPause ? 40 : 5;
  std::string out = "<g class=\"span " + std::string(name) + "\">" + title(s.detail) + "<rect x=\"" + n(x + dx) +
                    "\" y=\"" + n(y1) + "\" width=\"" + n(width) + "\" height=\"" + n(y2 - y1) + "\"/>";
  if (s.kind == SpanKind::kAdmission && s.ends_at_deadline && s.to_us <= f.to_us) {
    out += "<line class=\"deadline\" x1=\"" + n(x - 16) + "\" y1=\"" + n(y2) + "\" x2=\"" + n(x + 4) + "\" y2=\"" +
           n(y2) + "\"/><text class=\"deadline\" x=\"" + n(x + 6) + "\" y=\"" + n(y2 + 3) + "\">deadline</text>";
  }
  return out + "</g>\n";
}

const char* arrow_class(const DiagramArrow& a) {
  switch (a.kind) {
    case ArrowKind::kStoreRequest:
      return "store-request";
    case ArrowKind::kStoreReply:
      return "store-reply";
    case ArrowKind::kMessage:
      break;
  }
  return "message";
}

// A lost arrow stops two thirds of the way, at a cross; a message to its own lane loops.
std::string arrow_svg(const DiagramArrow& a, const Frame& f, std::string_view id) {
  const int x1 = f.lane_x(a.from_lane);
  const int y1 = f.y(a.sent_us);
  const int x2 = f.lane_x(a.to_lane);
  const int y2 = std::max(f.y(a.ended_us), a.lost && f.y(a.ended_us) == y1 ? y1 + 6 : y1);
  const int xe = a.lost ? x1 + (x2 - x1) * 2 / 3 : x2;
  const int ye = a.lost ? y1 + (y2 - y1) * 2 / 3 + (y2 > y1 ? 1 : 0) : y2;
  const std::string head = a.lost ? "" : " marker-end=\"url(#" + escape(id) + "-head)\"";
  std::string out =
      "<g class=\"arrow " + std::string(arrow_class(a)) + (a.lost ? " lost" : "") + "\">" + title(a.detail);
  if (a.from_lane == a.to_lane) {
    out += "<path class=\"route\" d=\"M" + n(x1) + "," + n(y1) + " h24 V" + n(ye) + " h" + (a.lost ? "-12" : "-24") +
           "\"" + head + "/>";
  } else {
    out += "<line x1=\"" + n(x1) + "\" y1=\"" + n(y1) + "\" x2=\"" + n(xe) + "\" y2=\"" + n(ye) + "\"" + head + "/>";
  }
  const int xc = a.from_lane == a.to_lane ? x1 + 12 : xe;
  if (a.lost) {
    out += "<path class=\"cross\" d=\"M" + n(xc - 4) + "," + n(ye - 4) + " L" + n(xc + 4) + "," + n(ye + 4) + " M" +
           n(xc - 4) + "," + n(ye + 4) + " L" + n(xc + 4) + "," + n(ye - 4) + "\"/>";
  }
  if (!a.label.empty()) {
    out += "<text x=\"" + n((x1 + xe) / 2 + (a.from_lane == a.to_lane ? 28 : 0)) + "\" y=\"" + n((y1 + ye) / 2 - 3) +
           "\" text-anchor=\"middle\">" + escape(clip_text(a.label, kArrowLabelCharsMax)) + "</text>";
  }
  return out + "</g>\n";
}

const char* mark_class(MarkKind kind) {
  switch (kind) {
    case MarkKind::kKey:
      return "key";
    case MarkKind::kFault:
      return "fault";
    case MarkKind::kKill:
      return "kill";
    case MarkKind::kStart:
      return "start";
    case MarkKind::kEvent:
      break;
  }
  return "event";
}

std::string mark_svg(const DiagramMark& m, const Frame& f) {
  const int y = f.y(m.time_us);
  const std::string tip = title(sim::seconds_exact(m.time_us) + " " + m.label);
  const std::string cls = std::string("mark ") + mark_class(m.kind);
  if (!f.has_lane(m.lane)) {
    return "<line class=\"mark world\" x1=\"" + n(kGutter) + "\" y1=\"" + n(y) + "\" x2=\"" + n(f.width - 10) +
           "\" y2=\"" + n(y) + "\">" + tip + "</line>\n";
  }
  const int x = f.lane_x(*m.lane);
  if (m.kind == MarkKind::kKill) {
    return "<path class=\"" + cls + "\" d=\"M" + n(x - 6) + "," + n(y - 6) + " L" + n(x + 6) + "," + n(y + 6) + " M" +
           n(x - 6) + "," + n(y + 6) + " L" + n(x + 6) + "," + n(y - 6) + "\">" + tip + "</path>\n";
  }
  if (m.kind == MarkKind::kStart) {
    return "<rect class=\"" + cls + "\" x=\"" + n(x - 4) + "\" y=\"" + n(y - 4) + "\" width=\"8\" height=\"8\">" + tip +
           "</rect>\n";
  }
  return "<circle class=\"" + cls + "\" cx=\"" + n(x) + "\" cy=\"" + n(y) + "\" r=\"3.5\">" + tip + "</circle>\n";
}

// The labels of a row's marks in the margin, coloured by the weightiest of them.
std::string margin_labels_svg(const std::vector<DiagramMark>& marks, const Frame& f) {
  std::map<int, std::pair<std::string, int>> by_row;  // y -> (text, weight)
  for (const DiagramMark& m : marks) {
    if (m.label.empty()) {
      continue;
    }
    auto& [text, weight] = by_row[f.y(m.time_us)];
    text += (text.empty() ? "" : "; ") + m.label;
    weight = std::max(weight, m.kind == MarkKind::kKey ? 2 : m.kind == MarkKind::kEvent ? 0 : 1);
  }
  std::string out;
  for (const auto& [y, entry] : by_row) {
    static const char* const kWeights[] = {"label", "label fault", "label key"};
    out += "<text class=\"" + std::string(kWeights[entry.second]) + "\" x=\"" + n(kLabelX) + "\" y=\"" + n(y + 3) +
           "\">" + escape(clip_text(entry.first, kLabelCharsMax)) + "</text>\n";
  }
  return out;
}

std::string violation_band_svg(const DiagramViolation& v, const Frame& f) {
  return "<rect class=\"violation-band\" x=\"0\" y=\"" + n(f.y(v.time_us) - 7) + "\" width=\"" + n(f.width) +
         "\" height=\"14\"/>\n";
}

// The violating event's circle and, under the last row, the property's sentence.
std::string violation_svg(const DiagramViolation& v, const Frame& f, int sentence_y) {
  const int y = f.y(v.time_us);
  const int x = f.has_lane(v.lane) ? f.lane_x(*v.lane) : kGutter;
  const std::string text = v.property + ": " + v.message;
  const std::size_t chars = static_cast<std::size_t>(f.width - 24) / 7;
  const std::vector<std::string> lines = wrap_text(text, chars, kSentenceLinesMax);
  const int height = 10 + static_cast<int>(lines.size()) * kSentenceLineStep;
  std::string out = "<g class=\"violation\">" + title("#" + std::to_string(v.index) + " " + text) +
                    "<line class=\"violation-link\" x1=\"" + n(x) + "\" y1=\"" + n(y) + "\" x2=\"" + n(x) + "\" y2=\"" +
                    n(sentence_y) + "\"/><circle class=\"violation\" cx=\"" + n(x) + "\" cy=\"" + n(y) +
                    "\" r=\"7\"/>\n<g class=\"violation-sentence\"><rect x=\"4\" y=\"" + n(sentence_y) + "\" width=\"" +
                    n(f.width - 8) + "\" height=\"" + n(height) + "\" rx=\"4\"/><text>";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += "<tspan x=\"12\" y=\"" + n(sentence_y + 16 + static_cast<int>(i) * kSentenceLineStep) + "\">" +
           escape(lines[i]) + "</tspan>";
  }
  return out + "</text></g></g>\n";
}

int sentence_height(const SequenceDiagram& d, const Frame& f) {
  if (!d.violation.has_value()) {
    return 0;
  }
  const std::size_t chars = static_cast<std::size_t>(f.width - 24) / 7;
  const std::string text = d.violation->property + ": " + d.violation->message;
  return 10 + static_cast<int>(wrap_text(text, chars, kSentenceLinesMax).size()) * kSentenceLineStep;
}

std::string left_out_svg(std::uint64_t left_out) {
  if (left_out == 0) {
    return {};
  }
  return "<text class=\"left-out\" x=\"" + n(kTimeX) + "\" y=\"" + n(kHeaderY + 12) + "\">" +
         n(static_cast<std::int64_t>(left_out)) + " more message(s) of this window not drawn</text>\n";
}

}  // namespace

std::string sequence_diagram_svg(const SequenceDiagram& d, std::string_view id) {
  const std::vector<DiagramLane> lanes = first(d.lanes, kDiagramLanesMax);
  const Frame f = frame_of(d, lanes.size());
  auto on_lanes = [&](std::size_t a, std::size_t b) { return a < lanes.size() && b < lanes.size(); };
  const int sentence_y = f.rows.bottom() + 28;
  const int height = sentence_y + sentence_height(d, f) + 8;
  std::uint64_t left_out = d.arrows_left_out + (d.arrows.size() - std::min(d.arrows.size(), kDiagramArrowsMax));
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sequence-diagram\" id=\"" + escape(id) +
                    "\" width=\"" + n(f.width) + "\" height=\"" + n(height) + "\" viewBox=\"0 0 " + n(f.width) + " " +
                    n(height) + "\" role=\"img\" aria-label=\"sequence diagram\">\n" + defs(id);
  if (d.violation.has_value()) {
    out += violation_band_svg(*d.violation, f);
  }
  out += lanes_svg(lanes, f) + time_axis_svg(f) + left_out_svg(left_out);
  for (const DiagramSpan& s : first(d.spans, kDiagramSpansMax)) {
    out += s.lane < lanes.size() ? span_svg(s, f) : "";
  }
  for (const DiagramArrow& a : first(d.arrows, kDiagramArrowsMax)) {
    out += on_lanes(a.from_lane, a.to_lane) ? arrow_svg(a, f, id) : "";
  }
  const std::vector<DiagramMark> marks = first(d.marks, kDiagramMarksMax);
  for (const DiagramMark& m : marks) {
    out += mark_svg(m, f);
  }
  out += margin_labels_svg(marks, f);
  if (d.violation.has_value()) {
    out += violation_svg(*d.violation, f, sentence_y);
  }
  return out + "</svg>\n";
}

}  // namespace spotcheck::reports

#include "replay/diagram/diagram_arrows.h"

#include <algorithm>

#include "replay/diagram/record_subjects.h"
#include "sim/time/time_text.h"

namespace spotcheck::replay {

namespace {

bool writes_about(const MessageArrow& a, const std::vector<std::string>& subjects) {
  for (const std::string& write : a.writes) {  // "put <key>"
    const std::size_t space = write.find(' ');
    if (space != std::string::npos && key_about_subjects(std::string_view(write).substr(space + 1), subjects)) {
      return true;
    }
  }
  return false;
}

bool weighty(const std::vector<MessageArrow>& log, const MessageArrow& a, const std::vector<std::string>& subjects) {
  const MessageArrow& request = a.answers.has_value() ? log[*a.answers] : a;
  return a.lost || writes_about(request, subjects);
}

// The latest `max` of `places` (which are in log order).
std::vector<std::size_t> latest(const std::vector<std::size_t>& places, std::size_t max) {
  const std::size_t skip = places.size() > max ? places.size() - max : 0;
  return std::vector<std::size_t>(places.begin() + static_cast<std::ptrdiff_t>(skip), places.end());
}

}  // namespace

ChosenArrows choose_arrows(const std::vector<MessageArrow>& log, const std::set<std::int64_t>& node_rids,
                           const ProcessNames& names, const std::vector<std::string>& subjects, std::size_t max) {
  auto reachable = [&](std::int64_t rid) { return node_rids.count(rid) > 0 || !names.is_process(rid); };
  std::vector<std::size_t> first_choice, others;
  for (std::size_t i = 0; i < log.size(); ++i) {
    const MessageArrow& a = log[i];
    const bool candidate = (node_rids.count(a.from_rid) > 0 && reachable(a.to_rid)) ||
                           (node_rids.count(a.to_rid) > 0 && reachable(a.from_rid));
    if (candidate) {
      (weighty(log, a, subjects) ? first_choice : others).push_back(i);
    }
  }
  ChosenArrows chosen;
  chosen.arrows = latest(first_choice, max);
  const std::vector<std::size_t> rest = latest(others, std::min(max - chosen.arrows.size(), max / 2));
  chosen.arrows.insert(chosen.arrows.end(), rest.begin(), rest.end());
  std::sort(chosen.arrows.begin(), chosen.arrows.end(), [&](std::size_t x, std::size_t y) {
    return std::make_pair(log[x].sent_index, x) < std::make_pair(log[y].sent_index, y);
  });
  chosen.left_out = first_choice.size() + others.size() - chosen.arrows.size();
  for (const std::size_t i : chosen.arrows) {
    for (const std::int64_t rid : {log[i].from_rid, log[i].to_rid}) {
      if (!names.is_process(rid)) {
        chosen.store_rids.insert(rid);
      }
    }
  }
  return chosen;
}

namespace {

reports::ArrowKind arrow_kind(MessageKind kind) {
  switch (kind) {
    case MessageKind::kStoreRequest:
      return reports::ArrowKind::kStoreRequest;
    case MessageKind::kStoreReply:
      return reports::ArrowKind::kStoreReply;
    case MessageKind::kMessage:
      break;
  }
  return reports::ArrowKind::kMessage;
}

std::string arrow_label(const MessageArrow& a) {
  if (a.lost || a.why == "refused") {
    return a.why;
  }
  if (a.writes.empty()) {
    return "";
  }
  return a.writes.front() + (a.writes.size() > 1 ? " +" + std::to_string(a.writes.size() - 1) : "");
}

std::string arrow_detail(const MessageArrow& a, const DiagramLanes& lanes) {
  std::string text = (a.message != 0 ? "message " + std::to_string(a.message) : std::string("store call")) + ": " +
                     lanes.name_of_rid(a.from_rid) + " -> " + lanes.name_of_rid(a.to_rid) + ", sent #" +
                     std::to_string(a.sent_index) + " at " + sim::seconds_exact(a.sent_us) + ", " +
                     (a.lost ? "lost" : "delivered") + " #" + std::to_string(a.ended_index) + " at " +
                     sim::seconds_exact(a.ended_us);
  if (!a.why.empty()) {
    text += " (" + a.why + ")";
  }
  for (const std::string& write : a.writes) {
    text += "; " + write;
  }
  return text;
}

}  // namespace

reports::DiagramArrow diagram_arrow(const MessageArrow& a, const DiagramLanes& lanes) {
  reports::DiagramArrow out;
  out.from_lane = lanes.of_rid(a.from_rid).value_or(0);
  out.to_lane = lanes.of_rid(a.to_rid).value_or(0);
  out.kind = arrow_kind(a.kind);
  out.sent_us = a.sent_us;
  out.ended_us = a.ended_us;
  out.lost = a.lost;
  out.label = arrow_label(a);
  out.detail = arrow_detail(a, lanes);
  return out;
}

}  // namespace spotcheck::replay

// Which messages of the story's window its diagram draws, and how. A message is a candidate when
// it runs between two of the story's nodes or between one of them and a store. Kept first: the
// lost ones and the store requests (and their replies) that wrote a record about the violation's
// subjects; then the latest others, up to the bound and at most half of it (they are context); the
// rest are counted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "replay/diagram/diagram_lanes.h"
#include "replay/diagram/message_log.h"
#include "replay/story/process_names.h"
#include "reports/sequence_diagram.h"

namespace spotcheck::replay {

struct ChosenArrows {
  std::vector<std::size_t> arrows;    // places in the log's arrows, in the order they were sent
  std::set<std::int64_t> store_rids;  // the stores they reach
  std::uint64_t left_out = 0;         // candidates not chosen
};

ChosenArrows choose_arrows(const std::vector<MessageArrow>& log, const std::set<std::int64_t>& node_rids,
                           const ProcessNames& names, const std::vector<std::string>& subjects, std::size_t max);

// The arrow as drawn; both its ends must have lanes.
reports::DiagramArrow diagram_arrow(const MessageArrow& arrow, const DiagramLanes& lanes);

}  // namespace spotcheck::replay

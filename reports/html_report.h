// One self-contained HTML page for a campaign (`spotcheck run --html FILE`): the verdict, the
// figures of the text summary, violations by property, every failing seed with its replay and
// shrink commands, determinism mismatches, and the stories of the first failures.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "reports/campaign_result.h"

namespace spotcheck::reports {

// The story of one failing seed, already told (replay/story prints it; the CLI replays the seed
// with its trace kept). Lines starting with "  *" mark key events, "  !" faults.
struct FailureStory {
  std::uint64_t seed = 0;
  std::vector<std::string> lines;
};

inline constexpr std::size_t kHtmlFailuresShownMax = 500;

void write_html_report(const CampaignResult& result, const std::vector<FailureStory>& stories, std::ostream& out);

}  // namespace spotcheck::reports

// One self-contained HTML page for a campaign (`spotcheck run --html FILE`): the verdict, the
// figures of the text summary, violations by property, every failing seed with its replay and
// shrink commands, determinism mismatches, and the stories of the first failures.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "reports/campaign_result.h"
#include "reports/story_html.h"

namespace spotcheck::reports {

inline constexpr std::size_t kHtmlFailuresShownMax = 500;

void write_html_report(const CampaignResult& result, const std::vector<FailureStory>& stories, std::ostream& out);

}  // namespace spotcheck::reports

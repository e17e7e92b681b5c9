// A campaign's result as JSON (`spotcheck run --summary-json FILE`), and back: what `spotcheck
// merge` joins from the shards of a campaign run on several machines. Versioned
// ("spotcheckCampaign": 1). Reading is for untrusted files: bounded size and depth, one-line errors.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "reports/campaign_result.h"

namespace spotcheck::reports {

inline constexpr int kCampaignJsonVersion = 1;
inline constexpr std::size_t kCampaignJsonBytesMax = 256u << 20;  // 1,000 kept failures of each list fit

std::string campaign_to_json(const CampaignResult& result);
// The result, or a one-line error (what is wrong, and where).
std::variant<CampaignResult, std::string> campaign_from_json(std::string_view text);

}  // namespace spotcheck::reports

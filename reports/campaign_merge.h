// The shards of one campaign (`spotcheck run --shard K/N`, one per machine) joined into the result
// of the whole campaign (`spotcheck merge`): counts and marks summed, kept failures and distinct
// failures in seed order, as one machine running every seed would have reported them.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "reports/campaign_result.h"

namespace spotcheck::reports {

// Every shard K/N of one campaign (same scenario, range, swarm and fault options), each once; or a
// one-line error saying which is missing, repeated or of another campaign.
std::variant<CampaignResult, std::string> merge_campaigns(std::vector<CampaignResult> shards);

}  // namespace spotcheck::reports

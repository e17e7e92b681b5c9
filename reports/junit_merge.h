// The JUnit reports of a campaign's shards (reports/junit_xml.h, one per `spotcheck run --shard`)
// joined into the report of the whole campaign: every seed's test case in seed order (a streaming
// merge: memory does not grow with the seed count), the determinism cases after them, the suite's
// counts recounted.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "reports/campaign_result.h"

namespace spotcheck::reports {

// Writes the merged report of `paths` (each a JUnit file this tool wrote) for `whole` (the merged
// result: its scenario and wall time) to `out`; a one-line error when a file cannot be read or is
// not one of ours (nothing is promised about `out` then).
// `properties`: the suite's <property> list (the shards' own are dropped).
std::optional<std::string> merge_junit(const std::vector<std::string>& paths, const CampaignResult& whole,
                                       const std::vector<std::pair<std::string, std::string>>& properties,
                                       std::ostream& out);

}  // namespace spotcheck::reports

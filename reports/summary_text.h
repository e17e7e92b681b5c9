// The campaign summary a person reads at the end of `spotcheck run`.
#pragma once

#include <ostream>

#include "reports/campaign_result.h"

namespace spotcheck::reports {

void write_summary_text(const CampaignResult& result, std::ostream& out);

}  // namespace spotcheck::reports

// JUnit XML for CI dashboards: one test case per seed; a failing seed carries its replay command.
#pragma once

#include <ostream>

#include "reports/campaign_result.h"

namespace spotcheck::reports {

void write_junit_xml(const CampaignResult& result, std::ostream& out);

}  // namespace spotcheck::reports

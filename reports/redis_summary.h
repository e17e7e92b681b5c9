// The text `spotcheck redis` prints at the end of a real-Redis integration run: scenario, requests
// and outcomes, protocol activity, the audits' verdicts, the fault log.
#pragma once

#include <string>

#include "scenarios/integration/integration_run.h"

namespace spotcheck::reports {

std::string format_redis_summary(const scenarios::integration::IntegrationReport& report);

}  // namespace spotcheck::reports

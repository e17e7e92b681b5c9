// The program of one synthetic node (what runs in each process's main).
#pragma once

#include <vector>

#include "impl/platform/platform.h"
#include "scenarios/synthetic/synthetic_config.h"

namespace spotcheck::scenarios::synthetic {

void run_synthetic_node(platform::Platform& platform, const SyntheticConfig& config,
                        const std::vector<platform::RoutingId>& peers);

}  // namespace spotcheck::scenarios::synthetic

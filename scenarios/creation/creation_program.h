// One node process of the creation scenarios: a CreationNode (real impl/location code: owner
// lease, descriptor, dispatcher, creation/close targets, Manager) with factories that approve,
// reject or throw as the workload draws, and client tasks issuing Manager calls wrapped in
// request.start / request.end (so the liveness property applies).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "impl/location/config/location_config.h"
#include "impl/location/creation/creation_config.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"
#include "scenarios/creation/creation_workload.h"

namespace spotcheck::scenarios::creation {

struct CreationNodeEnv {
  const location::LocationConfig* config = nullptr;
  const location::creation::CreationConfig* creation = nullptr;
  const CreationWorkload* workload = nullptr;
  // The store client of one host run (crosses the simulated link to the store server).
  std::function<std::unique_ptr<store::LocationStore>()> make_store;
  // Ends this host run and starts a new one a little later (after its lease was lost for good).
  std::function<void()> request_restart;
};

// The process main: runs until the process is killed (it never returns on its own).
void run_creation_node(platform::Platform& platform, const CreationNodeEnv& env);

}  // namespace spotcheck::scenarios::creation

// One node process of the creation scenarios: a CreationNode (real impl/location code: owner
// lease, descriptor, dispatcher, creation/close targets, Manager) with factories that approve,
// reject or throw as the workload draws, and client tasks issuing Manager calls wrapped in
// request.start / request.end (so the liveness property applies).
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "impl/location/config/location_config.h"
#include "impl/location/creation/creation_config.h"
#include "impl/location/creation/manager_types.h"
#include "impl/location/messaging/operation_id.h"
#include "impl/records/enums.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"
#include "scenarios/creation/creation_workload.h"

namespace spotcheck::scenarios::creation {

// What one node's clients keep across its host runs, as an application keeps its own records: the
// creation calls made with the client's own OperationId, to retry with it later.
struct ClientMemory {
  struct Call {
    records::ObjectKind object_kind = records::ObjectKind::kActor;
    location::creation::CreateMode mode = location::creation::CreateMode::kCreate;
    std::string id;  // empty: a User Spot Create (the Framework issues the ID)
    location::messaging::OperationId op;
    bool answered = false;  // false: still running, or its host run ended before the answer
    std::string kept_by;    // the OwnerId of the host run that kept it
  };
  static constexpr std::size_t kCallsMax = 16;
  std::deque<Call> calls;  // the newest last

  void note_answered(const location::messaging::OperationId& op) {
    for (Call& call : calls) {
      if (call.op == op) {
        call.answered = true;
      }
    }
  }
};

struct CreationNodeEnv {
  const location::LocationConfig* config = nullptr;
  const location::creation::CreationConfig* creation = nullptr;
  const CreationWorkload* workload = nullptr;
  // The store client of one host run (crosses the simulated link to the store server).
  std::function<std::unique_ptr<store::LocationStore>()> make_store;
  // Ends this host run and starts a new one a little later (after its lease was lost for good).
  std::function<void()> request_restart;
  // The node's client records; outlives its host runs.
  ClientMemory* memory = nullptr;
};

// The process main: runs until the process is killed (it never returns on its own).
void run_creation_node(platform::Platform& platform, const CreationNodeEnv& env);

}  // namespace spotcheck::scenarios::creation

// The Instance Spot tests' cluster: the Location tests' one Cluster (tests/location_support)
// with, per server node, the Instance Spot capabilities of its stable types in the descriptor,
// a Room factory, and — attached to every host run once it published — an InstanceRegistry, an
// InstanceTarget and an InstanceSource using that host run's Relocation Store client.
//
// Delivery of an Instance Spot request (InstanceSource::Deliver) is simulated: a task on the
// target's process runs InstanceTarget::handle and the source task waits (bounded) for it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "impl/location/instance/instance_source.h"
#include "impl/location/instance/instance_target.h"
#include "tests/location_support/cluster.h"

namespace spotcheck::location::instance::testing {

using platform::TimeUs;

struct InstanceNodeSpec {
  records::ObjectRole role = records::ObjectRole::kServer;
  std::vector<std::string> instance_types;  // Instance Spot stable types registered
};

// Counts factory runs and handler runs, shared by every node.
struct Counters {
  std::map<std::string, int> factory_runs;                        // by SpotId
  std::map<std::string, std::vector<std::string>> messages;       // by SpotId: bodies in run order
  std::map<std::string, std::set<std::string>> first_messages;    // by SpotId: op ids run as first
  platform::TimeUs factory_delay_us = 0;
  bool reject = false;
};

class InstanceCluster : public creation::testing::Cluster {
 public:
  explicit InstanceCluster(std::vector<InstanceNodeSpec> nodes, std::uint64_t seed = 1);
  ~InstanceCluster();  // ends every host run while _runs and _counters are alive
  InstanceCluster(const InstanceCluster&) = delete;
  InstanceCluster& operator=(const InstanceCluster&) = delete;

  // Sends one Instance Spot request from node i (a task) and returns its outcome handle.
  std::shared_ptr<std::optional<InstanceOutcome>> send_from(std::size_t i, InstanceCall call);
  // Runs InstanceTarget::handle(request) on node i's process (a request delivered to a target
  // chosen by the test rather than by placement).
  std::shared_ptr<std::optional<InstanceOutcome>> handle_on(std::size_t i, InstanceRequest request);
  // InstanceSource::prepare on node i (run to completion): the request and its placement.
  InstanceOutcome prepare_on(std::size_t i, const InstanceCall& call, InstanceRequest& request);
  InstanceCall call(std::string spot_id, std::optional<std::string> type, std::string body);

  Counters& counters() { return _counters; }
  // The authority row of a SpotId as the store engine holds it now.
  std::optional<records::AuthorityRecord> spot_row(const std::string& spot_id);

 private:
  struct InstanceHostRun;  // what attach() builds in each host run
  InstanceOutcome deliver(std::size_t from, const std::string& target_rid_hex, const InstanceRequest& request,
                          TimeUs deadline_us);

  std::vector<InstanceNodeSpec> _specs;
  std::vector<InstanceHostRun*> _runs;  // by node: its current host run's services, null when down
  Counters _counters;
};

}  // namespace spotcheck::location::instance::testing

// The Instance Spot tests' cluster: the Location tests' one Cluster (tests/location_support)
// with, per server node, the Instance Spot capabilities of its stable types in the descriptor,
// a Room factory, and — attached to every host run once it published — an InstanceRegistry, an
// InstanceTarget behind an InstanceEndpoint and an InstanceSource using that host run's
// Relocation Store client and its CreationNode's Dispatcher.
//
// An Instance Spot request travels as command 50 and its reply as command 51 over the
// simulated network (sim::Network): a test loses, delays or partitions them there
// (`network()`, `partition_replies_to`, `set_links_between_nodes`), never in the cluster.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "impl/location/instance/instance_endpoint.h"
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

// The application's Close after a first message (workload, not a fault): the application closes
// (Close without Reincarnate) a Spot this long after its first message ran, uniform in
// [0, close_delay_max_us], with this probability per incarnation — drawn from the target
// process's own stream.
struct ApplicationCloses {
  double close_after_first_probability = 0;
  TimeUs close_delay_max_us = 0;
  // A later message's handler asks for Close at once (its reply has not left yet).
  double close_on_message_probability = 0;
};

class InstanceCluster : public creation::testing::Cluster {
 public:
  // `location`: the LocationConfig of every node (e.g. a planted bug in planted_bugs).
  // `source`: every source's send timeout (by default as long as call()'s deadline).
  explicit InstanceCluster(std::vector<InstanceNodeSpec> nodes, std::uint64_t seed = 1, LocationConfig location = {},
                           InstanceSourceConfig source = {platform::seconds(30)});
  ~InstanceCluster();  // ends every host run while _runs and _counters are alive
  InstanceCluster(const InstanceCluster&) = delete;
  InstanceCluster& operator=(const InstanceCluster&) = delete;

  // Sends one Instance Spot request from node i (a task) and returns its outcome handle.
  std::shared_ptr<std::optional<InstanceOutcome>> send_from(std::size_t i, InstanceCall call);
  // Runs InstanceTarget::handle(request) on node i's process (a request delivered to a target
  // chosen by the test rather than by placement).
  std::shared_ptr<std::optional<InstanceOutcome>> handle_on(std::size_t i, InstanceRequest request);
  // InstanceSource::prepare on node i (run to completion): the request and its placement.
  PreparedRequest prepare_on(std::size_t i, const InstanceCall& call);
  InstanceCall call(std::string spot_id, std::optional<std::string> type, std::string body);
  // InstanceTarget::close(spot_id) on node i's current host run (a task).
  std::shared_ptr<std::optional<InstanceOutcome>> close_on(std::size_t i, std::string spot_id);
  // InstanceTarget::reincarnate(spot_id, initialize, now + 10 s) on node i's current host run.
  std::shared_ptr<std::optional<InstanceOutcome>> reincarnate_on(std::size_t i, std::string spot_id,
                                                                 std::string initialize);

  // Node i's current host run's target (null when down).
  InstanceTarget* target(std::size_t i);

  ApplicationCloses& closes() { return _closes; }

  // The simulated network between the nodes.
  sim::Network& network() { return world().network(); }
  // Every message from the other nodes to node `to` is dropped (a one-way partition) until
  // `until_us` (world time): a target runs what it receives, its reply never arrives.
  void partition_replies_to(std::size_t to, TimeUs until_us);
  // Every connection between two distinct nodes gets `config` (latency, loss).
  void set_links_between_nodes(const sim::LinkConfig& config);
  // Messages the network dropped on their way to node `to` so far (net.drop).
  std::size_t dropped_to(std::size_t to) const;

  Counters& counters() { return _counters; }
  // The authority row of a SpotId as the store engine holds it now.
  std::optional<records::AuthorityRecord> spot_row(const std::string& spot_id);

 private:
  struct InstanceHostRun;  // what attach() builds in each host run

  std::vector<InstanceNodeSpec> _specs;
  InstanceSourceConfig _source_config;
  std::vector<InstanceHostRun*> _runs;  // by node: its current host run's services, null when down
  Counters _counters;
  ApplicationCloses _closes;
};

}  // namespace spotcheck::location::instance::testing

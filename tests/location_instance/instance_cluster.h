// The Instance Spot tests' cluster: the Location tests' one Cluster (tests/location_support)
// with, per server node, the Instance Spot capabilities of its stable types in the descriptor,
// a Room factory, and — attached to every host run once it published — an InstanceRegistry, an
// InstanceTarget and an InstanceSource using that host run's Relocation Store client.
//
// Delivery of an Instance Spot request (InstanceSource::Deliver) is simulated: a task on the
// target's process runs InstanceTarget::handle and the source task waits (bounded) for it.
#pragma once

#include <cstdint>
#include <functional>
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

// Faults of the simulated delivery and the application's Close, drawn from the world's
// "instance-faults" stream where a probability is given (deterministic per seed).
struct DeliveryFaults {
  // The target runs handle() to the end but its answer never reaches the source (`send` counts
  // the sends of one OperationId from 0). Either hook or probability.
  std::function<bool(const InstanceRequest&, int send)> lose_reply;
  double lose_reply_probability = 0;
  // Extra delay of the answer on its way back to the source.
  std::function<TimeUs(const InstanceRequest&, int send, const InstanceOutcome&)> reply_delay_us;
  // Network delay before the target takes the request: uniform in [0, request_delay_max_us].
  TimeUs request_delay_max_us = 0;
  // The source's send timeout: it waits at most this long for one answer (0: until the deadline).
  TimeUs reply_timeout_us = 0;
  // The application closes (Close without Reincarnate) a Spot this long after its first message
  // ran: uniform in [0, close_delay_max_us], with this probability per incarnation.
  double close_after_first_probability = 0;
  TimeUs close_delay_max_us = 0;
};

class InstanceCluster : public creation::testing::Cluster {
 public:
  // `location`: the LocationConfig of every node (e.g. a planted test_only_bugs flag).
  explicit InstanceCluster(std::vector<InstanceNodeSpec> nodes, std::uint64_t seed = 1, LocationConfig location = {});
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
  // InstanceTarget::close(spot_id) on node i's current host run (a task).
  std::shared_ptr<std::optional<InstanceOutcome>> close_on(std::size_t i, std::string spot_id);

  // Node i's current host run's target (null when down).
  InstanceTarget* target(std::size_t i);

  DeliveryFaults& faults() { return _faults; }
  // Answers dropped by DeliveryFaults so far.
  int replies_lost() const { return _replies_lost; }

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
  DeliveryFaults _faults;
  std::map<std::string, int> _sends;  // by OperationId hex: sends so far
  int _replies_lost = 0;
};

}  // namespace spotcheck::location::instance::testing

// Delivery of Instance Spot requests between the nodes of one simulated run (the
// InstanceSource::Deliver seam): a task on the target's process runs InstanceTarget::handle and
// the source's task waits for the answer, bounded by the send timeout and the deadline. Before
// faults stop an answer may be lost (the target ran the request to the end; the source sees no
// answer) or delayed, and the request waits a little before the target takes it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "impl/location/instance/instance_source.h"
#include "impl/location/instance/instance_target.h"
#include "scenarios/instance/instance_workload.h"
#include "sim/world.h"

namespace spotcheck::scenarios::instance {

namespace li = spotcheck::location::instance;

class InstanceDelivery {
 public:
  InstanceDelivery(sim::World& world, DeliveryFaults faults, platform::TimeUs faults_stop_us);

  // Node `rid_hex` (a process of the world) exists; its host runs attach their target / platform.
  void add_node(sim::ProcessId pid, std::string rid_hex);

  // One host run's services, registered while they live (RAII: detached in the destructor).
  class Attached {
   public:
    Attached(InstanceDelivery& delivery, std::size_t node, platform::Platform& platform, li::InstanceTarget* target);
    ~Attached();
    Attached(const Attached&) = delete;
    Attached& operator=(const Attached&) = delete;

   private:
    InstanceDelivery& _delivery;
    std::size_t _node;
  };

  // Hands `request` from node `from` to the node named `target_rid_hex`; called in the source's
  // task (blocks on its clock).
  li::InstanceOutcome deliver(std::size_t from, const std::string& target_rid_hex, const li::InstanceRequest& request,
                              platform::TimeUs deadline_us);

  int replies_lost() const { return _replies_lost; }

 private:
  struct Node {
    sim::ProcessId pid = 0;
    std::string rid_hex;
    platform::Platform* platform = nullptr;   // the current host run's, null when down
    li::InstanceTarget* target = nullptr;     // null on a client node or when down
  };
  bool faulty() const { return _world.now_us() < _faults_stop_us; }

  sim::World& _world;
  DeliveryFaults _faults;
  platform::TimeUs _faults_stop_us;
  std::vector<Node> _nodes;
  int _replies_lost = 0;
};

}  // namespace spotcheck::scenarios::instance

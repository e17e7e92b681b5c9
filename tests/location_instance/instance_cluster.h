// The Instance Spot tests' cluster: like tests/location_creation's Cluster (one CreationNode per
// simulated process against sim::StoreServer, the property suite attached), plus per node an
// InstanceSource and an InstanceTarget with the node's own Relocation Store client. Every
// Location Store write and every Relocation Store call is logged in order, with hooks that run
// just before them (so a test can look at the store engines at that instant).
//
// Delivery of an Instance Spot request (InstanceSource::Deliver) is simulated: a task on the
// target's process runs InstanceTarget::handle and the source task waits (bounded) for it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "impl/location/creation/creation_node.h"
#include "impl/location/instance/instance_source.h"
#include "impl/location/instance/instance_target.h"
#include "properties/property_suite.h"
#include "sim/store_host/store_server.h"
#include "sim/world.h"

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

// One logged store step: "loc_write" (Location Store) or "rel_put" / "rel_get" / "rel_remove".
struct StoreStep {
  std::size_t node = 0;
  std::string what;
  std::string key;
};

class InstanceCluster {
 public:
  explicit InstanceCluster(std::vector<InstanceNodeSpec> nodes, std::uint64_t seed = 1);
  ~InstanceCluster();
  InstanceCluster(const InstanceCluster&) = delete;
  InstanceCluster& operator=(const InstanceCluster&) = delete;

  std::function<void(std::size_t node, const store::WriteRequest&)> before_write;
  std::function<void(std::size_t node, const store::WriteRequest&, const store::WriteResult&)> after_write;
  std::function<void(std::size_t node, const store::Key& reference)> before_relocation_remove;

  void start();
  void spawn_on(std::size_t i, std::function<void()> body);
  bool run_until(const std::function<bool()>& done, TimeUs limit);

  // Sends one Instance Spot request from node i (a task) and returns its outcome handle.
  std::shared_ptr<std::optional<InstanceOutcome>> send_from(std::size_t i, InstanceCall call);
  // Runs `body` on node i's process until it returned.
  void run_on(std::size_t i, const std::function<void(creation::CreationNode&)>& body);
  // Runs InstanceTarget::handle(request) on node i's process (a request delivered to a target
  // chosen by the test rather than by placement).
  std::shared_ptr<std::optional<InstanceOutcome>> handle_on(std::size_t i, InstanceRequest request);
  // InstanceSource::prepare on node i (run to completion): the request and its placement.
  InstanceOutcome prepare_on(std::size_t i, const InstanceCall& call, InstanceRequest& request);
  InstanceCall call(std::string spot_id, std::optional<std::string> type, std::string body);

  sim::World& world() { return *_world; }
  sim::StoreServer& store() { return *_store; }
  creation::CreationNode* node(std::size_t i) { return _slots[i].node; }
  InstanceTarget* target(std::size_t i) { return _slots[i].target; }
  std::string rid_hex(std::size_t i) const;
  std::size_t size() const { return _slots.size(); }
  Counters& counters() { return _counters; }
  const std::vector<StoreStep>& steps() const { return _steps; }
  std::vector<sim::TraceEvent> events(std::string_view kind, std::string_view key = {},
                                      std::string_view value = {}) const;
  const std::optional<properties::PropertyViolation>& violation() const { return _suite.violation(); }
  // The authority row of a SpotId as the store engine holds it now.
  std::optional<records::AuthorityRecord> spot_row(const std::string& spot_id);

  static constexpr std::string_view kMesh = "game";

 private:
  struct Slot {
    sim::ProcessId pid = 0;
    platform::RoutingId rid = 0;
    InstanceNodeSpec spec;
    creation::CreationNode* node = nullptr;
    InstanceTarget* target = nullptr;
    InstanceSource* source = nullptr;
    platform::Platform* platform = nullptr;
  };
  class LoggingStore;
  class LoggingRelocation;
  void node_main(std::size_t i, platform::Platform& platform);
  records::MeshNodeDescriptorRecord descriptor(std::size_t i) const;
  InstanceOutcome deliver(std::size_t from, const std::string& target_rid_hex, const InstanceRequest& request,
                          TimeUs deadline_us);

  properties::PropertySuite _suite;
  std::unique_ptr<sim::World> _world;
  std::unique_ptr<sim::StoreServer> _store;
  std::vector<Slot> _slots;
  std::vector<StoreStep> _steps;
  Counters _counters;
  LocationConfig _location;
  creation::CreationConfig _creation;
};

}  // namespace spotcheck::location::instance::testing

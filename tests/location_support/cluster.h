// The one simulated cluster of the Location tests (tests/location_creation, tests/location_instance):
// N processes, each one host run of a CreationNode (real impl/location code) against the
// simulated store server, every Location Store write logged, the property suite (every
// registered property) judging every event. Tests drive Manager calls as tasks on chosen nodes
// and run the world until they finish.
//
// A test family extends it without copying it:
//   - NodeSpec::capabilities: what a server node's descriptor advertises;
//   - install_factories: the creation factories of every host run (before the node starts);
//   - attach: services built next to the CreationNode once it published (with the host run's
//     Relocation Store client), living as long as that host run — e.g. the Instance Spot target
//     and source (tests/location_instance/instance_cluster.h);
//   - before_write / after_write / before_relocation_remove: run in the calling task around the
//     store calls, so a test can look at the store engines at that instant.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/location/manager/creation_node.h"
#include "impl/store/spi/relocation_store.h"
#include "properties/property_suite.h"
#include "sim/store_host/store_server.h"
#include "sim/world.h"

namespace spotcheck::location::creation::testing {

inline constexpr std::string_view kDefaultMesh = "game";
inline constexpr platform::RoutingId kDefaultFirstRid = 0x00a1'0000;

using platform::TimeUs;

// The creation tests' object capabilities: actor Player, User Spots Room and Lobby.
std::vector<records::ObjectCapability> default_capabilities();

struct NodeSpec {
  records::ObjectRole role = records::ObjectRole::kServer;
  std::uint32_t actors_limit = 0;
  std::string mesh{kDefaultMesh};
  std::vector<records::ObjectCapability> capabilities = default_capabilities();  // server role only
};

struct ClusterOptions {
  std::uint64_t seed = 1;
  std::vector<NodeSpec> nodes{NodeSpec{}, NodeSpec{}};
  LocationConfig location;
  CreationConfig creation;
  platform::RoutingId first_rid = kDefaultFirstRid;  // node i's RoutingId is first_rid + i
};

// One store write a node sent, and how it ended.
struct LoggedWrite {
  std::size_t node = 0;
  store::WriteRequest request;
  std::string outcome;  // applied | conflict | store_error | indeterminate
};

// One host run of node `index` once it published, as Cluster::attach sees it. node.platform()
// and node.store() (the logged Location Store client) are the host run's.
struct PublishedNode {
  std::size_t index = 0;
  CreationNode& node;
  store::RelocationStore& relocation;  // the host run's Relocation Store client (hooked)
};

class Cluster {
 public:
  explicit Cluster(ClusterOptions options = {});
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  // Registers the factories of one host run of node i (called at every start; set it before
  // start()). The platform is that host run's: a factory may sleep on its clock.
  std::function<void(std::size_t node, platform::Platform&, FactoryRegistry&)> install_factories;
  // Called in every host run once its node published (set it before start()); what it returns
  // lives until that host run ends and dies before the CreationNode.
  std::function<std::shared_ptr<void>(const PublishedNode&)> attach;
  // Run in the writing task before each Location Store write is sent / after its result came
  // back (may use store().location_engine()).
  std::function<void(std::size_t node, const store::WriteRequest&)> before_write;
  std::function<void(std::size_t node, const store::WriteRequest&, const store::WriteResult&)> after_write;
  // Run in the calling task before each Relocation Store put / remove is sent.
  std::function<void(std::size_t node, const store::PayloadPut&)> before_relocation_put;
  std::function<void(std::size_t node, const store::Key& reference)> before_relocation_remove;

  // Starts every process and runs until each has published its descriptor.
  void start();
  // Runs `body` as a task of node i and the world until it returned (or `limit` passed: fails).
  void run_on(std::size_t i, const std::function<void(CreationNode&)>& body, TimeUs limit = platform::seconds(120));
  // Starts `body` as a task of node i without running the world.
  void spawn_on(std::size_t i, std::function<void(CreationNode&)> body);
  // Runs the world until done() or `limit` (virtual) passed; returns done().
  bool run_until(const std::function<bool()>& done, TimeUs limit);
  void run_for(TimeUs duration);

  sim::World& world() { return *_world; }
  sim::StoreServer& store() { return *_store; }
  const LocationConfig& location_config() const { return _options.location; }
  sim::ProcessId pid(std::size_t i) const { return _slots[i].pid; }
  platform::RoutingId rid(std::size_t i) const { return _slots[i].rid; }
  std::string rid_hex(std::size_t i) const;
  CreationNode* node(std::size_t i) { return _slots[i].node; }
  std::size_t size() const { return _slots.size(); }

  const std::vector<LoggedWrite>& writes() const { return _writes; }
  // Events of `kind` in the trace so far, optionally filtered by a text field's value.
  std::vector<sim::TraceEvent> events(std::string_view kind, std::string_view key = {},
                                      std::string_view value = {}) const;
  const std::optional<properties::PropertyViolation>& violation() const { return _suite.violation(); }

  static constexpr std::string_view kMesh = kDefaultMesh;

 protected:
  // Ends the run: the property suite is detached, every host run unwound (its destructors run,
  // attached services included), the store and the world destroyed. A derived cluster whose
  // attached services point into its own members calls it first in its destructor; ~Cluster
  // calls it too (a second call does nothing).
  void tear_down();

 private:
  struct Slot {
    sim::ProcessId pid = 0;
    platform::RoutingId rid = 0;
    NodeSpec spec;
    CreationNode* node = nullptr;
  };
  class LoggingStore;
  class HookedRelocation;
  void node_main(std::size_t i, platform::Platform& platform);
  records::MeshNodeDescriptorRecord descriptor(std::size_t i) const;

  ClusterOptions _options;
  properties::PropertySuite _suite;
  std::unique_ptr<sim::World> _world;
  std::unique_ptr<sim::StoreServer> _store;
  std::vector<Slot> _slots;
  std::vector<LoggedWrite> _writes;
};

// Store key helpers for assertions.
store::Key actor_key(std::string_view id);
store::Key spot_key(std::string_view id);

}  // namespace spotcheck::location::creation::testing

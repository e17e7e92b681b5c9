// A small simulated cluster for the creation tests: N processes, each one host run of a
// CreationNode (real impl/location code) against the simulated store server, every store write
// logged, the property suite (every registered property) judging every event. Tests drive
// Manager calls as tasks on chosen nodes and run the world until they finish.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/location/creation/creation_node.h"
#include "properties/property_suite.h"
#include "sim/store_host/store_server.h"
#include "sim/world.h"

namespace spotcheck::location::creation::testing {

inline constexpr std::string_view kDefaultMesh = "game";

using platform::TimeUs;

struct NodeSpec {
  records::ObjectRole role = records::ObjectRole::kServer;
  std::uint32_t actors_limit = 0;
  std::string mesh{kDefaultMesh};
};

struct ClusterOptions {
  std::uint64_t seed = 1;
  std::vector<NodeSpec> nodes{NodeSpec{}, NodeSpec{}};
  LocationConfig location;
  CreationConfig creation;
};

// One store write a node sent, and how it ended.
struct LoggedWrite {
  std::size_t node = 0;
  store::WriteRequest request;
  std::string outcome;  // applied | conflict | store_error | indeterminate
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
  // Runs in the writing task before each write is sent (may use store().location_engine()).
  std::function<void(std::size_t node, const store::WriteRequest&)> before_write;

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

 private:
  struct Slot {
    sim::ProcessId pid = 0;
    platform::RoutingId rid = 0;
    NodeSpec spec;
    CreationNode* node = nullptr;
  };
  class LoggingStore;
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

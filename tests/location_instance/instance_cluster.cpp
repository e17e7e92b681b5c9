#include "tests/location_instance/instance_cluster.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <variant>

#include "impl/records/keys.h"

namespace spotcheck::location::instance::testing {

namespace {

constexpr platform::RoutingId kFirstRid = 0x00b1'0000;

// Server nodes advertise User Spot Room and an Instance Spot capability per registered type.
creation::testing::ClusterOptions cluster_options(const std::vector<InstanceNodeSpec>& nodes, std::uint64_t seed,
                                                  const LocationConfig& location) {
  creation::testing::ClusterOptions options;
  options.seed = seed;
  options.location = location;
  options.first_rid = kFirstRid;
  options.nodes.clear();
  for (const InstanceNodeSpec& node : nodes) {
    creation::testing::NodeSpec spec;
    spec.role = node.role;
    spec.capabilities = {{records::ObjectKind::kUserSpot, "Room", records::CapabilityPolicy::kRecreate, false, 0}};
    for (const std::string& type : node.instance_types) {
      spec.capabilities.push_back(
          {records::ObjectKind::kInstanceSpot, type, records::CapabilityPolicy::kRecreate, false, 0});
    }
    options.nodes.push_back(std::move(spec));
  }
  return options;
}

}  // namespace

// One host run's Instance Spot services: the registry of its node's types (counting into the
// cluster's Counters), the target and the source. Registered in the cluster while they live.
struct InstanceCluster::InstanceHostRun {
  InstanceHostRun(InstanceCluster& cluster, const creation::testing::PublishedNode& run)
      : platform(run.node.platform()),
        instances(registry(cluster, run.index, run.node.platform())),
        target(InstanceTargetContext{cluster.location_config(), run.node.platform(), run.node.store(), run.relocation,
                                     run.node.lease(), run.node.authority(), run.node.mesh_name(), run.node.rid_hex()},
               instances),
        endpoint(run.node.platform(), run.node.dispatcher(), target),
        source(cluster.location_config(), run.node.platform(), run.node.store(), run.node.lease(),
               run.node.dispatcher(), run.node.mesh_name(), run.node.rid_hex(), cluster._source_config),
        slot(cluster._runs[run.index]) {
    EXPECT_EQ(slot, nullptr) << "two host runs of node " << run.index << " at once";
    slot = this;
  }
  ~InstanceHostRun() { slot = nullptr; }
  InstanceHostRun(const InstanceHostRun&) = delete;
  InstanceHostRun& operator=(const InstanceHostRun&) = delete;

  // The application's Close after a first message (ApplicationCloses), drawn from the target
  // process's stream.
  static void maybe_close_after_first(InstanceCluster& cluster, std::size_t node, const InstanceMessage& message) {
    const ApplicationCloses& closes = cluster._closes;
    InstanceHostRun* run = cluster._runs[node];
    if (run == nullptr) {
      return;
    }
    platform::Random& random = run->platform.random;
    if (!message.first) {
      if (closes.close_on_message_probability > 0 && random.chance(closes.close_on_message_probability)) {
        cluster.world().spawn(cluster.pid(node), "instance-close-now",
                              [run, spot = message.spot_id] { run->target.close(spot); });
      }
      return;
    }
    if (closes.close_after_first_probability <= 0) {
      return;
    }
    if (!random.chance(closes.close_after_first_probability)) {
      return;
    }
    const TimeUs delay_us = closes.close_delay_max_us > 0 ? random.between(0, closes.close_delay_max_us) : 0;
    cluster.world().spawn(cluster.pid(node), "instance-close", [run, delay_us, spot = message.spot_id] {
      run->platform.clock.sleep_for(delay_us);
      run->target.close(spot);
    });
  }

  static InstanceRegistry registry(InstanceCluster& cluster, std::size_t node, platform::Platform& platform) {
    InstanceRegistry instances;
    for (const std::string& type : cluster._specs[node].instance_types) {
      instances.add(
          type,
          [&cluster, &platform](const creation::FactoryContext& context) {
            ++cluster._counters.factory_runs[context.id];
            if (cluster._counters.factory_delay_us > 0) {
              platform.clock.sleep_for(cluster._counters.factory_delay_us);
            }
            if (cluster._counters.reject) {
              return creation::FactoryDecision::reject("no");
            }
            return creation::FactoryDecision::approve();
          },
          [&cluster, node](const InstanceMessage& message) {
            cluster._counters.messages[message.spot_id].push_back(message.body);
            if (message.first) {
              cluster._counters.first_messages[message.spot_id].insert(message.op_id.hex());
            }
            maybe_close_after_first(cluster, node, message);
          });
    }
    return instances;
  }

  platform::Platform& platform;
  InstanceRegistry instances;
  InstanceTarget target;
  InstanceEndpoint endpoint;  // command 50 -> target -> command 51
  InstanceSource source;
  InstanceHostRun*& slot;
};

InstanceCluster::InstanceCluster(std::vector<InstanceNodeSpec> nodes, std::uint64_t seed, LocationConfig location,
                                 InstanceSourceConfig source)
    : Cluster(cluster_options(nodes, seed, location)),
      _specs(std::move(nodes)),
      _source_config(source),
      _runs(_specs.size(), nullptr) {
  install_factories = [](std::size_t, platform::Platform&, creation::FactoryRegistry& factories) {
    factories.add(records::ObjectKind::kUserSpot, "Room",
                  [](const creation::FactoryContext&) { return creation::FactoryDecision::approve(); });
  };
  attach = [this](const creation::testing::PublishedNode& run) -> std::shared_ptr<void> {
    return std::make_shared<InstanceHostRun>(*this, run);
  };
}

InstanceCluster::~InstanceCluster() { tear_down(); }

InstanceCall InstanceCluster::call(std::string spot_id, std::optional<std::string> type, std::string body) {
  InstanceCall call;
  call.spot_id = std::move(spot_id);
  call.stable_type = std::move(type);
  call.first_message = std::move(body);
  call.deadline_us = world().now_us() + platform::seconds(30);
  return call;
}

void InstanceCluster::partition_replies_to(std::size_t to, TimeUs until_us) {
  for (std::size_t from = 0; from < size(); ++from) {
    if (from != to) {
      network().partition_one_way(rid(from), rid(to));
    }
  }
  world().at(until_us, [this, to] {
    for (std::size_t from = 0; from < size(); ++from) {
      if (from != to) {
        network().heal(rid(from), rid(to));
      }
    }
  });
}

void InstanceCluster::set_links_between_nodes(const sim::LinkConfig& config) {
  for (std::size_t a = 0; a < size(); ++a) {
    for (std::size_t b = 0; b < size(); ++b) {
      if (a != b) {
        network().set_link_config(rid(a), rid(b), config);
      }
    }
  }
}

std::size_t InstanceCluster::dropped_to(std::size_t to) const {
  std::size_t dropped = 0;
  for (const sim::TraceEvent& event : events("net.drop")) {
    dropped += event.number("to") == static_cast<std::int64_t>(rid(to)) ? 1 : 0;
  }
  return dropped;
}

InstanceTarget* InstanceCluster::target(std::size_t i) { return _runs[i] == nullptr ? nullptr : &_runs[i]->target; }

std::shared_ptr<std::optional<InstanceOutcome>> InstanceCluster::close_on(std::size_t i, std::string spot_id) {
  auto result = std::make_shared<std::optional<InstanceOutcome>>();
  InstanceTarget* target = _runs[i] == nullptr ? nullptr : &_runs[i]->target;
  EXPECT_NE(target, nullptr) << "node " << i << " is not up";
  spawn_on(i, [target, spot_id = std::move(spot_id), result](creation::CreationNode&) {
    result->emplace(target->close(spot_id));
  });
  return result;
}

std::shared_ptr<std::optional<InstanceOutcome>> InstanceCluster::reincarnate_on(std::size_t i, std::string spot_id,
                                                                               std::string initialize) {
  auto result = std::make_shared<std::optional<InstanceOutcome>>();
  InstanceTarget* target = _runs[i] == nullptr ? nullptr : &_runs[i]->target;
  EXPECT_NE(target, nullptr) << "node " << i << " is not up";
  spawn_on(i, [target, spot_id = std::move(spot_id), initialize = std::move(initialize),
               result](creation::CreationNode& node) {
    result->emplace(target->reincarnate(spot_id, initialize, node.deadline_in(platform::seconds(10))));
  });
  return result;
}

std::shared_ptr<std::optional<InstanceOutcome>> InstanceCluster::send_from(std::size_t i, InstanceCall call) {
  auto result = std::make_shared<std::optional<InstanceOutcome>>();
  InstanceSource* source = _runs[i] == nullptr ? nullptr : &_runs[i]->source;
  EXPECT_NE(source, nullptr) << "node " << i << " is not up";
  spawn_on(i, [source, call, result](creation::CreationNode&) { result->emplace(source->send(call)); });
  return result;
}

std::shared_ptr<std::optional<InstanceOutcome>> InstanceCluster::handle_on(std::size_t i, InstanceRequest request) {
  auto result = std::make_shared<std::optional<InstanceOutcome>>();
  InstanceTarget* target = _runs[i] == nullptr ? nullptr : &_runs[i]->target;
  EXPECT_NE(target, nullptr) << "node " << i << " is not up";
  spawn_on(i, [target, request = std::move(request), result](creation::CreationNode&) {
    result->emplace(target->handle(request));
  });
  return result;
}

PreparedRequest InstanceCluster::prepare_on(std::size_t i, const InstanceCall& call) {
  std::optional<PreparedRequest> out;
  InstanceSource* source = _runs[i] == nullptr ? nullptr : &_runs[i]->source;
  EXPECT_NE(source, nullptr) << "node " << i << " is not up";
  run_on(i, [&](creation::CreationNode&) { out.emplace(source->prepare(call)); });
  EXPECT_TRUE(out.has_value());
  return out.value_or(PreparedRequest{});
}

std::optional<records::AuthorityRecord> InstanceCluster::spot_row(const std::string& spot_id) {
  const store::ReadResult read = store().location_engine().read(creation::testing::spot_key(spot_id), INT64_MAX);
  const auto* found = std::get_if<store::Found>(&read);
  if (found == nullptr) {
    return std::nullopt;
  }
  records::RecordResult<records::AuthorityRecord> decoded = records::decode_authority_record(found->value);
  if (!decoded.ok()) {
    throw std::runtime_error("undecodable authority row");
  }
  return decoded.value();
}

}  // namespace spotcheck::location::instance::testing

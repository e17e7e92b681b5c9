// Capacity accounting (§3.3, §4) as a RapidCheck property: after any sequence of authority
// operations by several host runs — with lost replies, lost requests and refusals injected —
// every per-node store counter equals the sum of the allocations of the authority rows placed on
// that node, and every row's state and generations are legal.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <memory>

#include "impl/location/authority/authority_snapshot.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/records/authority_record.h"
#include "impl/records/limits.h"
#include "impl/store/spi/counter_text.h"
#include "tests/location/fixtures.h"
#include "tests/location/store_inspect.h"

namespace spotcheck::location {
namespace {

using testing::StoreFault;
using testing::TestNode;
using testing::World;

// counter key -> expected value, from the authority rows.
std::map<store::Key, std::int64_t> expected_counters(World& world) {
  std::map<store::Key, std::int64_t> sums;
  for (const auto& [key, row] :
       testing::list_range(world.store, keys::authority_range_begin(), keys::authority_range_end())) {
    records::RecordResult<records::AuthorityRecord> record = records::decode_authority_record(row.first);
    RC_ASSERT(record.ok());
    const records::Allocation& allocation = record.value().allocation;
    const std::string& mesh = allocation.descriptor.mesh_name;
    const std::string& rid = allocation.descriptor.routing_id_hex;
    RC_ASSERT(records::is_issued_generation(record.value().object_generation));
    RC_ASSERT(records::is_issued_generation(record.value().authority_owner_generation));
    if (allocation.capacity.actors > 0) {
      sums[keys::capacity_actors(mesh, rid)] += allocation.capacity.actors;
    }
    if (allocation.capacity.spots > 0) {
      sums[keys::capacity_spots(mesh, rid)] += allocation.capacity.spots;
    }
    if (allocation.capacity.spot_type.has_value()) {
      const records::SpotTypeSlot& slot = *allocation.capacity.spot_type;
      sums[keys::capacity_spot_type(mesh, rid, slot.object_kind, slot.stable_type)] += slot.count;
    }
  }
  return sums;
}

void check_capacity_accounting(World& world) {
  std::map<store::Key, std::int64_t> expected = expected_counters(world);
  const std::string capacity_begin = std::string("capacity") + '\0';
  const std::string capacity_end = std::string("capacity") + '\1';
  std::map<store::Key, std::int64_t> stored;
  for (const auto& [key, row] : testing::list_range(world.store, capacity_begin, capacity_end)) {
    const std::optional<std::int64_t> value = store::parse_counter(row.first);
    RC_ASSERT(value.has_value());
    RC_ASSERT(*value >= 0);
    if (*value != 0) {
      stored[key] = *value;
    }
  }
  RC_ASSERT(stored == expected);
}

struct Step {
  int op = 0;     // 0 reserve, 1 commit, 2 abort, 3 preserve, 4 new_owner, 5 delete, 6 sweep-less
                  // non-owner delete attempt
  int node = 0;   // acting / target node
  int id = 0;     // which object
  int fault = 0;  // 0..5 none; 6 lost reply (applied); 7 lost request; 8 unavailable
};

ReserveRequest request_for(int id) {
  const std::string name = "obj-" + std::to_string(id);
  return id < 3 ? testing::actor_request(name) : testing::room_request(name);
}

AuthorityKey key_for(int id) { return request_for(id).key; }

RC_GTEST_PROP(CapacityProperty, CountersEqualTheSumOfAllocations, ()) {
  const auto steps = *rc::gen::container<std::vector<Step>>(rc::gen::build<Step>(
      rc::gen::set(&Step::op, rc::gen::inRange(0, 7)), rc::gen::set(&Step::node, rc::gen::inRange(0, 3)),
      rc::gen::set(&Step::id, rc::gen::inRange(0, 5)), rc::gen::set(&Step::fault, rc::gen::inRange(0, 9))));
  World world;
  LocationConfig config;
  std::vector<std::unique_ptr<TestNode>> nodes;
  nodes.push_back(std::make_unique<TestNode>(world, config, 1, testing::NodeSpec{.rid = "aa01"}));
  nodes.push_back(std::make_unique<TestNode>(world, config, 2, testing::NodeSpec{.rid = "bb02", .actors_limit = 2}));
  nodes.push_back(std::make_unique<TestNode>(world, config, 3, testing::NodeSpec{.rid = "cc03", .room_limit = 1}));
  for (auto& node : nodes) {
    node->start();
  }
  auto owner_of = [&](const records::AuthorityRecord& record) -> TestNode* {
    for (auto& node : nodes) {
      if (node->lease.host_run() == HostRun{record.owner_id, record.owner_lease_generation}) {
        return node.get();
      }
    }
    return nullptr;
  };
  for (const Step& step : steps) {
    TestNode& actor = *nodes[static_cast<std::size_t>(step.node)];
    Result<AuthorityRead> read = actor.authority.read(key_for(step.id));
    RC_ASSERT(read.ok());
    const std::optional<AuthoritySnapshot>& current = read.value().current;
    if (step.fault == 6) {
      world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, 0});
    } else if (step.fault == 7) {
      world.store.write_faults.push_back({StoreFault::Kind::kLoseRequest, 0, 0});
    } else if (step.fault == 8) {
      world.store.write_faults.push_back({StoreFault::Kind::kUnavailable, 0, 0});
    }
    const std::size_t writes_before = world.store.writes;
    switch (step.op) {
      case 0:
        (void)nodes[(static_cast<std::size_t>(step.node) + 1) % nodes.size()]->authority.reserve(
            request_for(step.id), actor.view());
        break;
      case 1:
        if (current && owner_of(current->record) != nullptr) {
          (void)owner_of(current->record)->authority.commit(*current);
        }
        break;
      case 2:
        if (current) {
          (void)actor.authority.abort(*current);
        }
        break;
      case 3:
        if (current && owner_of(current->record) != nullptr) {
          (void)owner_of(current->record)->authority.preserve(*current, "p" + std::to_string(step.fault));
        }
        break;
      case 4:
        if (current) {
          (void)actor.authority.new_owner(*current, actor.view());
        }
        break;
      case 5:
        if (current && owner_of(current->record) != nullptr) {
          (void)owner_of(current->record)->authority.remove(*current);
        }
        break;
      case 6:
        if (current && owner_of(current->record) != &actor) {
          Result<Done> refused = actor.authority.remove(*current);
          RC_ASSERT(!refused.ok());
          RC_ASSERT(world.store.writes == writes_before);
        }
        break;
      default:
        RC_FAIL("unknown step");
    }
    world.store.write_faults.clear();  // an unused fault must not leak into the next step
    check_capacity_accounting(world);
  }
}

}  // namespace
}  // namespace spotcheck::location

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/world.h"
#include "tests/sim/sim_test_support.h"

namespace spotcheck::sim {
namespace {

using platform::Platform;
using testing::events_of_kind;
using testing::quiet_config;

struct Received {
  std::string bytes;
  TimeUs at_us;
  RoutingId from;
};

// Two processes: "a" (routing id 1) runs `sender`, "b" (routing id 2) records what it receives.
struct Pair {
  explicit Pair(WorldConfig config, std::function<void(Platform&)> sender) : world(std::move(config)) {
    a = world.add_process("a", 1, std::move(sender));
    b = world.add_process("b", 2, [this](Platform& p) {
      for (int i = 0; i < 100'000; ++i) {
        auto envelope = p.transport.receive(platform::kNever);
        if (envelope) {
          received.push_back({envelope->bytes, p.clock.now_us(), envelope->from});
        }
      }
    });
    world.start(a);
    world.start(b);
  }
  std::vector<std::string> bytes() const {
    std::vector<std::string> out;
    for (const Received& each : received) {
      out.push_back(each.bytes);
    }
    return out;
  }
  World world;
  ProcessId a = 0;
  ProcessId b = 0;
  std::vector<Received> received;
};

WorldConfig with_link(LinkConfig link, std::uint64_t seed = 1) {
  WorldConfig config = quiet_config(seed);
  config.network.link = link;
  return config;
}

TEST(Network, LatencyWithinBoundsAndFifoPerConnection) {
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    Pair pair(with_link({100, 5'000, 0.0}, seed), [](Platform& p) {
      for (int i = 0; i < 200; ++i) {
        p.transport.send(2, std::to_string(i));
        if (i % 3 == 0) {
          p.clock.sleep_for(50);
        }
      }
      p.clock.sleep_for(platform::seconds(10));
    });
    pair.world.run_until(platform::seconds(1), 100'000);
    ASSERT_EQ(pair.received.size(), 200U);
    TimeUs previous_at = 0;
    for (int i = 0; i < 200; ++i) {
      EXPECT_EQ(pair.received[i].bytes, std::to_string(i));  // FIFO despite random latencies
      EXPECT_EQ(pair.received[i].from, 1U);
      EXPECT_GE(pair.received[i].at_us, previous_at);
      previous_at = pair.received[i].at_us;
    }
    EXPECT_GE(pair.received.front().at_us, 100);
    EXPECT_LE(pair.received.back().at_us, 67 * 50 + 5'000);
  }
}

// A heavy tail: every tail latency lies in [latency_max, tail_max], spread over the doublings
// (log-uniform: about as many in the lowest doubling as in the highest).
TEST(Network, TailLatencyIsLogUniformUpToItsBound) {
  LinkConfig link{100, 1'000, 0.0};
  link.tail_probability = 1.0;
  link.tail_max_us = 1'024'000;  // ten doublings above 1 ms
  Pair pair(with_link(link), [](Platform& p) {
    for (int i = 0; i < 400; ++i) {
      p.transport.send(2, std::to_string(i));
      p.clock.sleep_for(platform::seconds(3));  // one at a time: FIFO never holds one back
    }
  });
  pair.world.run_until(platform::seconds(1'300), 1'000'000);
  ASSERT_EQ(pair.received.size(), 400U);
  int low = 0;
  int high = 0;
  for (int i = 0; i < 400; ++i) {
    const TimeUs latency_us = pair.received[i].at_us - i * platform::seconds(3);
    EXPECT_GE(latency_us, 1'000);
    EXPECT_LE(latency_us, 1'024'000);
    low += latency_us < 2'000 ? 1 : 0;
    high += latency_us >= 512'000 ? 1 : 0;
  }
  EXPECT_GT(low, 10);   // about 400/11 each
  EXPECT_GT(high, 10);
}

// A stalled direction holds what is sent until the stall ends, then delivers all of it in order;
// the other direction and later messages are not held.
TEST(Network, AStalledLinkDeliversEverythingInOrderWhenItEnds) {
  Pair pair(with_link({100, 1'000, 0.0}), [](Platform& p) {
    p.clock.sleep_until(platform::millis(10));  // after the stall began
    for (int i = 0; i < 5; ++i) {
      p.transport.send(2, std::to_string(i));
      p.clock.sleep_for(platform::millis(100));
    }
    p.clock.sleep_until(platform::seconds(3));
    p.transport.send(2, "after");
    p.clock.sleep_for(platform::seconds(10));
  });
  pair.world.at(1, [&pair] { pair.world.network().stall(1, 2, platform::seconds(2)); });
  pair.world.run_until(platform::seconds(5), 100'000);
  ASSERT_EQ(pair.bytes(), (std::vector<std::string>{"0", "1", "2", "3", "4", "after"}));
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(pair.received[i].at_us, platform::seconds(2));
  }
  EXPECT_LT(pair.received[5].at_us, platform::seconds(3) + 1'001);
  EXPECT_EQ(events_of_kind(pair.world.trace(), "net.stall").size(), 1U);
  EXPECT_TRUE(events_of_kind(pair.world.trace(), "net.drop").empty());
}

TEST(Network, LossDropsAtSendTime) {
  Pair pair(with_link({10, 10, 1.0}), [](Platform& p) {
    for (int i = 0; i < 5; ++i) {
      p.transport.send(2, "x");
    }
    p.clock.sleep_for(platform::seconds(10));
  });
  pair.world.run_until(platform::seconds(1), 10'000);
  EXPECT_TRUE(pair.received.empty());
  const auto drops = events_of_kind(pair.world.trace(), "net.drop");
  ASSERT_EQ(drops.size(), 5U);
  EXPECT_EQ(drops[0].text("why"), "loss");
}

TEST(Network, SymmetricPartitionBlocksBothDirectionsUntilHealed) {
  Pair pair(with_link({10, 10, 0.0}), [](Platform& p) {
    p.transport.send(2, "before");
    p.clock.sleep_for(100);
    p.transport.send(2, "during");
    p.clock.sleep_for(1'000);
    p.transport.send(2, "after");
    p.clock.sleep_for(platform::seconds(10));
  });
  const RoutingId side_a[] = {1};
  const RoutingId side_b[] = {2};
  pair.world.at(50, [&] {
    pair.world.network().partition(side_a, side_b);
    EXPECT_FALSE(pair.world.network().can_reach(1, 2));
    EXPECT_FALSE(pair.world.network().can_reach(2, 1));
  });
  pair.world.at(500, [&] { pair.world.network().heal(1, 2); });
  pair.world.run_until(platform::seconds(1), 10'000);
  EXPECT_EQ(pair.bytes(), (std::vector<std::string>{"before", "after"}));
}

TEST(Network, PartitionDropsMessagesAlreadyInFlight) {
  Pair pair(with_link({1'000, 1'000, 0.0}), [](Platform& p) {
    p.transport.send(2, "in-flight");
    p.clock.sleep_for(platform::seconds(10));
  });
  pair.world.at(500, [&] { pair.world.network().partition_one_way(1, 2); });
  pair.world.run_until(platform::seconds(1), 10'000);
  EXPECT_TRUE(pair.received.empty());
  const auto drops = events_of_kind(pair.world.trace(), "net.drop");
  ASSERT_EQ(drops.size(), 1U);
  EXPECT_EQ(drops[0].text("why"), "partition");
  EXPECT_EQ(drops[0].time_us, 1'000);
}

TEST(Network, OneWayPartitionLeavesTheOtherDirection) {
  WorldConfig config = with_link({10, 10, 0.0});
  World world(config);
  std::vector<std::string> at_a;
  std::vector<std::string> at_b;
  auto receiver = [](std::vector<std::string>& sink) {
    return [&sink](Platform& p) {
      p.tasks.spawn("rx", [&p, &sink] {
        for (int i = 0; i < 100; ++i) {
          if (auto envelope = p.transport.receive(platform::kNever)) {
            sink.push_back(envelope->bytes);
          }
        }
      });
      p.clock.sleep_for(100);
      p.transport.send(p.transport.self() == 1 ? 2 : 1, "hi");
      p.clock.sleep_for(platform::seconds(10));
    };
  };
  world.start(world.add_process("a", 1, receiver(at_a)));
  world.start(world.add_process("b", 2, receiver(at_b)));
  world.network().partition_one_way(1, 2);
  EXPECT_FALSE(world.network().can_reach(1, 2));
  EXPECT_TRUE(world.network().can_reach(2, 1));
  world.run_until(platform::seconds(1), 10'000);
  EXPECT_TRUE(at_b.empty());
  EXPECT_EQ(at_a, (std::vector<std::string>{"hi"}));
}

TEST(Network, DisconnectLosesInFlightAndRefusesUntilReconnect) {
  Pair pair(with_link({1'000, 1'000, 0.0}), [](Platform& p) {
    p.transport.send(2, "lost-in-flight");
    p.clock.sleep_for(600);
    p.transport.send(2, "refused");
    p.clock.sleep_for(1'000);
    p.transport.send(2, "delivered");
    p.clock.sleep_for(platform::seconds(10));
  });
  pair.world.at(500, [&] { pair.world.network().disconnect(1, 2); });
  pair.world.at(700, [&] { pair.world.network().reconnect(1, 2); });
  pair.world.run_until(platform::seconds(1), 10'000);
  EXPECT_EQ(pair.bytes(), (std::vector<std::string>{"delivered"}));
  std::vector<std::string> whys;
  for (const TraceEvent& drop : events_of_kind(pair.world.trace(), "net.drop")) {
    whys.emplace_back(*drop.text("why"));
  }
  // "refused" was sent at 600 while disconnected; "lost-in-flight" was lost at its arrival (1000).
  EXPECT_EQ(whys, (std::vector<std::string>{"disconnected", "disconnected"}));
}

TEST(Network, TypedDeliveryRunsAtArrivalOverTheSameLinks) {
  WorldConfig config = with_link({300, 300, 0.0});
  World world(config);
  const ProcessId server = world.add_process("store", 9, [](Platform& p) { p.clock.sleep_for(platform::seconds(10)); });
  world.start(server);
  std::vector<std::pair<int, TimeUs>> handled;
  world.at(100, [&] {
    for (int i = 0; i < 3; ++i) {
      EXPECT_TRUE(world.network().deliver(5, 9, [&, i] { handled.emplace_back(i, world.now_us()); }));
    }
  });
  world.at(1'000, [&] {
    const RoutingId side_a[] = {5};
    const RoutingId side_b[] = {9};
    world.network().partition(side_a, side_b);
    EXPECT_FALSE(world.network().deliver(5, 9, [&] { handled.emplace_back(99, world.now_us()); }));
  });
  world.run_until(platform::seconds(1), 10'000);
  const std::vector<std::pair<int, TimeUs>> expected = {{0, 400}, {1, 400}, {2, 400}};
  EXPECT_EQ(handled, expected);  // FIFO even at equal arrival times
}

TEST(Network, TypedDeliveryToAPausedProcessWaitsForThePause) {
  WorldConfig config = with_link({100, 100, 0.0});
  World world(config);
  const ProcessId server = world.add_process("store", 9, [](Platform& p) { p.clock.sleep_for(platform::seconds(10)); });
  world.start(server);
  TimeUs handled_at = -1;
  world.at(10, [&] { world.pause(server, 1'000); });
  world.at(20, [&] { world.network().deliver(5, 9, [&] { handled_at = world.now_us(); }); });
  world.run_until(platform::seconds(1), 10'000);
  EXPECT_EQ(handled_at, 1'010);
  EXPECT_EQ(events_of_kind(world.trace(), "net.deferred").size(), 1U);
}

TEST(Network, TypedDeliveryToADeadProcessIsDropped) {
  WorldConfig config = with_link({100, 100, 0.0});
  World world(config);
  const ProcessId server = world.add_process("store", 9, [](Platform& p) { p.clock.sleep_for(platform::seconds(10)); });
  world.start(server);
  bool handled = false;
  world.at(10, [&] { world.network().deliver(5, 9, [&] { handled = true; }); });
  world.at(50, [&] { world.kill(server); });
  world.run_until(platform::seconds(1), 10'000);
  EXPECT_FALSE(handled);
  const auto drops = events_of_kind(world.trace(), "net.drop");
  ASSERT_EQ(drops.size(), 1U);
  EXPECT_EQ(drops[0].text("why"), "peer_down");
}

TEST(Network, ReceiveDeadlinePasses) {
  World world(quiet_config());
  bool got = true;
  TimeUs at = -1;
  const ProcessId node = world.add_process("n1", 1, [&](Platform& p) {
    got = p.transport.receive(p.clock.now_us() + 700).has_value();
    at = p.clock.now_us();
  });
  world.start(node);
  world.run_until(platform::seconds(1), 1'000);
  EXPECT_FALSE(got);
  EXPECT_EQ(at, 700);
}

}  // namespace
}  // namespace spotcheck::sim

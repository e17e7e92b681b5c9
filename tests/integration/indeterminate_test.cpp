// Indeterminate replies for real: the redis-server is frozen (SIGSTOP) while nodes write, or a
// loopback proxy loses replies after the server applied the request. The runtime must re-read,
// converge, and never let two host runs own one object: properties clean, capacity counters
// equal to the rows, one Active owner per row matching the trace (differences only on objects
// whose reply was lost, reported apart).
#include <gtest/gtest.h>

#include <iostream>

#include <signal.h>

#include <functional>
#include <memory>
#include <string_view>

#include "reports/redis_summary.h"
#include "tests/integration/integration_test_env.h"
#include "tests/store_redis/faulty_proxy.h"

namespace spotcheck::scenarios::integration {
namespace {

using platform::millis;
using platform::seconds;
using store::redis::testing::PrivateRedisServer;
using store::redis::testing::FaultyProxy;
using testing::make_request;

// The contention workload, write-heavy: each node owns a few of a larger pool, so most requests
// end in a conditional write (Preserve, Delete, Reserve/Commit) that a fault can hit.
IntegrationRequest write_heavy_request(const std::string& url, std::uint64_t seed) {
  IntegrationRequest request = make_request("contention", url, seconds(5), seed);
  request.scenario.node_count = 3;
  request.scenario.workload.object_count = 9;
  request.scenario.workload.delete_probability = 0.1;
  return request;
}

// Aims a fault at single writes through the nodes' store hooks: after `skip` writes, every
// `every`-th write is sent with the fault on, and the fault ends once that call returned (its
// reply lost, or its timeout passed). At most `times` times.
class AimedWriteFault {
 public:
  AimedWriteFault(int skip, int every, int times, std::function<void()> on, std::function<void()> off)
      : _skip(skip), _every(every), _times(times), _on(std::move(on)), _off(std::move(off)) {}

  StoreCallHooks hooks() {
    StoreCallHooks out;
    out.before = [this](std::string_view op) {
      if (op != "write") {
        return;
      }
      ++_writes;
      if (_writes > _skip && (_writes - _skip) % _every == 0 && _hits < _times) {
        ++_hits;
        _active = true;
        _on();
      }
    };
    out.after = [this](std::string_view) {
      if (_active) {
        _active = false;
        _off();
      }
    };
    return out;
  }
  int hits() const { return _hits; }

 private:
  int _skip;
  int _every;
  int _times;
  std::function<void()> _on;
  std::function<void()> _off;
  int _writes = 0;
  int _hits = 0;
  bool _active = false;
};

void expect_converged(const IntegrationReport& report) {
  const std::string summary = reports::format_redis_summary(report);
  std::cout << summary;  // the run's figures in the test log
  ASSERT_TRUE(report.setup_error.empty()) << report.setup_error;
  EXPECT_FALSE(report.violation.has_value()) << summary;
  EXPECT_TRUE(report.run.ok()) << summary;
  EXPECT_TRUE(report.capacity.ok()) << summary;
  EXPECT_TRUE(report.owners.ok()) << summary;
  EXPECT_TRUE(report.passed()) << report.failure_reason() << "\n" << summary;
  const properties::ActivityCounts& a = report.activity;
  EXPECT_GT(a.commits, 0u) << summary;
  // Replies were really lost: the runtime went back to the store to learn what happened
  // (store.indeterminate before a lease re-read or after an unsettled authority re-read, or an
  // authority change established by re-reading, resolved=1).
  EXPECT_GT(a.indeterminate_replies + a.resolved_by_reread, 0u) << summary;
  EXPECT_GT(a.leases_renewed, 0u) << summary;
  // After the faults the nodes work again: objects are used after the last fault ended.
  EXPECT_GT(a.object_work, 0u) << summary;
}

TEST(IntegrationIndeterminate, FrozenRedisServerMakesWritesIndeterminateAndTheRuntimeConverges) {
  PrivateRedisServer server;  // frozen below: must not be the server other tests share
  SPOTCHECK_REQUIRE_PRIVATE_SERVER(server);
  IntegrationRequest request = write_heavy_request(server.url(), 21);
  const int pid = server.pid();
  // Outages longer than a store request timeout (300 ms), shorter than the owner lease TTL.
  for (const platform::TimeUs at_us : {millis(1'200), millis(3'400)}) {
    request.store_faults.push_back(StoreFault{"SIGSTOP redis-server", at_us, millis(700),
                                              [pid] { ::kill(pid, SIGSTOP); }, [pid] { ::kill(pid, SIGCONT); },
                                              std::nullopt});
  }
  // And single writes sent to a frozen server: the server takes the request in once it runs
  // again, racing the writer's re-read on a new connection (applied late, or not at all).
  AimedWriteFault aimed(20, 9, 8, [pid] { ::kill(pid, SIGSTOP); }, [pid] { ::kill(pid, SIGCONT); });
  request.store_hooks = aimed.hooks();
  const IntegrationReport report = run_integration(request);
  ::kill(pid, SIGCONT);  // whatever happened, leave the server running for its stop script
  expect_converged(report);
  EXPECT_EQ(report.fault_log.size(), 5u) << reports::format_redis_summary(report);
  EXPECT_GE(aimed.hits(), 4) << reports::format_redis_summary(report);
}

TEST(IntegrationIndeterminate, LostRepliesAndCutConnectionsAreReReadAndTheRuntimeConverges) {
  SPOTCHECK_REDIS_URL_OR_RETURN(url);
  const store::redis::RedisUrlParse parsed = store::redis::parse_redis_url(url);
  ASSERT_TRUE(parsed.url.has_value());
  if (!parsed.url->password.empty() || parsed.url->host != "127.0.0.1") {
    GTEST_SKIP() << "the proxy needs the fixture's loopback server without a password";
  }
  FaultyProxy proxy(parsed.url->port);
  ASSERT_TRUE(proxy.error().empty()) << proxy.error();
  IntegrationRequest request = write_heavy_request(proxy.url(), 22);
  FaultyProxy* shared = &proxy;
  // Single writes whose reply is lost after the server applied them (the re-read that follows
  // finds the write: resolved=1), or whose connection is cut right after the request.
  AimedWriteFault aimed(20, 6, 12, [shared] { shared->drop_replies(true); }, [shared] { shared->drop_replies(false); });
  request.store_hooks = aimed.hooks();
  // And windows in which every connection is cut right after its request: many calls fail at once.
  for (int k = 0; k < 3; ++k) {
    request.store_faults.push_back(StoreFault{"proxy cuts connections", millis(1'300) + k * millis(1'200), millis(100),
                                              [shared] { shared->cut_after_request(true); },
                                              [shared] { shared->cut_after_request(false); }, std::nullopt});
  }
  const IntegrationReport report = run_integration(request);
  proxy.drop_replies(false);
  proxy.cut_after_request(false);
  expect_converged(report);
  EXPECT_EQ(report.fault_log.size(), 7u) << reports::format_redis_summary(report);
  EXPECT_GE(aimed.hits(), 8) << reports::format_redis_summary(report);
  // A lost reply of an applied write was established by re-reading.
  EXPECT_GT(report.activity.resolved_by_reread, 0u) << reports::format_redis_summary(report);
}

}  // namespace
}  // namespace spotcheck::scenarios::integration

// redis-server restarted mid-run with AOF (same port, same data dir): the nodes' calls meet a
// dead connection (Indeterminate when one was in flight), a refused connect while it is down
// (Unavailable), NOSCRIPT once it is back (the script cache is empty), and the runtime converges:
// properties clean, capacity counters equal the rows, one owner per row as the trace says.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <string>
#include <thread>

#include "reports/redis_summary.h"
#include "tests/integration/integration_test_env.h"

namespace spotcheck::scenarios::integration {
namespace {

using platform::millis;
using platform::seconds;
using store::redis::testing::PrivateRedisServer;
using testing::make_request;

// How long the server stays down: several lease renewals (every 0.4 s per node) and requests
// meet it, well under the owner lease TTL (1.5 s).
constexpr std::chrono::milliseconds kDowntime{300};

// Restarts the server on a thread of its own (a clean shutdown, kDowntime, the same port and data
// dir with AOF), so the nodes keep calling while it is down; the fault's end joins the thread
// (before the run's report is read).
class BackgroundRestart {
 public:
  explicit BackgroundRestart(PrivateRedisServer& server) : _server(server) {}
  ~BackgroundRestart() { join(); }
  void begin() {
    _thread = std::thread([this] {
      _error = _server.down();
      std::this_thread::sleep_for(kDowntime);
      if (_error.empty()) {
        _error = _server.up(/*appendonly=*/true);
      }
    });
  }
  void join() {
    if (_thread.joinable()) {
      _thread.join();
    }
  }
  const std::string& error() const { return _error; }

 private:
  PrivateRedisServer& _server;
  std::thread _thread;
  std::string _error;
};

TEST(IntegrationRestart, RedisRestartedWithAppendOnlyMidRunAndTheRuntimeConverges) {
  PrivateRedisServer server("", /*appendonly=*/true);  // restarted below: not the shared server
  SPOTCHECK_REQUIRE_PRIVATE_SERVER(server);
  IntegrationRequest request = make_request("contention", server.url(), seconds(5), 31);
  request.scenario.node_count = 3;
  request.scenario.workload.object_count = 9;
  BackgroundRestart restart(server);
  request.store_faults.push_back(StoreFault{"restart redis-server (AOF)", millis(2'000), millis(1'500),
                                            [&restart] { restart.begin(); }, [&restart] { restart.join(); }});
  const IntegrationReport report = run_integration(request);
  restart.join();
  const std::string summary = reports::format_redis_summary(report);
  std::cout << summary;  // the run's figures in the test log
  ASSERT_EQ(restart.error(), "");
  ASSERT_TRUE(report.setup_error.empty()) << report.setup_error;
  EXPECT_TRUE(report.passed()) << report.failure_reason() << "\n" << summary;
  EXPECT_FALSE(report.violation.has_value()) << summary;
  EXPECT_TRUE(report.capacity.ok()) << summary;
  EXPECT_TRUE(report.owners.ok()) << summary;
  EXPECT_EQ(report.fault_log.size(), 3u) << summary;  // begins, ends, liveness phase
  const properties::ActivityCounts& a = report.activity;
  // The restart was felt: calls failed while the server was down (or their connection died) ...
  const auto failed_requests = a.request_outcomes.find("store_error");
  EXPECT_GT(a.store_errors + a.indeterminate_replies +
                (failed_requests == a.request_outcomes.end() ? 0u : failed_requests->second),
            0u)
      << summary;
  // ... and the nodes kept working after it: leases renewed, objects created and used.
  EXPECT_GT(a.leases_renewed, 0u) << summary;
  EXPECT_GT(a.commits, 0u) << summary;
  EXPECT_GT(a.object_work, 0u) << summary;
}

}  // namespace
}  // namespace spotcheck::scenarios::integration

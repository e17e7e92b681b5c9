// redis-server restarted mid-run with AOF (same port, same data dir), and without persistence (an
// out-of-contract run, below). With AOF: the nodes' calls meet a
// dead connection (Indeterminate when one was in flight), a refused connect while it is down
// (Unavailable), NOSCRIPT once it is back (the script cache is empty), and the runtime converges:
// properties clean, capacity counters equal the rows, one owner per row as the trace says.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "faults/fault_plan.h"
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
  BackgroundRestart(PrivateRedisServer& server, bool appendonly) : _server(server), _appendonly(appendonly) {}
  ~BackgroundRestart() { join(); }
  void begin() {
    _thread = std::thread([this] {
      _error = _server.down();
      std::this_thread::sleep_for(kDowntime);
      if (_error.empty()) {
        _error = _server.up(_appendonly);
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
  bool _appendonly = true;
  std::thread _thread;
  std::string _error;
};

// Three nodes contend for nine actors for 5 s; at 2 s `restart` takes the server down and up again
// (the fault lasts 1.5 s: its end joins the restart thread).
IntegrationRequest contention_with_restart(const PrivateRedisServer& server, BackgroundRestart& restart,
                                           std::string what, std::optional<faults::FaultKind> out_of_contract) {
  IntegrationRequest request = make_request("contention", server.url(), seconds(5), 31);
  request.scenario.node_count = 3;
  request.scenario.workload.object_count = 9;
  request.store_faults.push_back(StoreFault{std::move(what), millis(2'000), millis(1'500),
                                            [&restart] { restart.begin(); }, [&restart] { restart.join(); },
                                            out_of_contract});
  return request;
}

TEST(IntegrationRestart, RedisRestartedWithAppendOnlyMidRunAndTheRuntimeConverges) {
  PrivateRedisServer server("", /*appendonly=*/true);  // restarted below: not the shared server
  SPOTCHECK_REQUIRE_PRIVATE_SERVER(server);
  BackgroundRestart restart(server, /*appendonly=*/true);
  const IntegrationReport report =
      run_integration(contention_with_restart(server, restart, "restart redis-server (AOF)", std::nullopt));
  restart.join();
  const std::string summary = reports::format_redis_summary(report);
  std::cout << summary;  // the run's figures in the test log
  ASSERT_EQ(restart.error(), "");
  EXPECT_TRUE(report.out_of_contract.empty()) << summary;
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

// Without persistence the restarted server is empty: every acknowledged write is gone, StoreVersions
// and the generation counters start again. That breaks an assumption of the spec (faults/
// out_of_contract.h, store-lost-writes: a write the store acknowledged stays applied), so the run
// is judged as an out-of-contract one: it may fail, and its report says which assumption broke.
// What the runtime still owes, and this test holds it to: every host run finds its owner lease
// record gone and stops admitting (lease.lost, node.gave_up), and new host runs register on the
// empty server — the provider re-claimed the lost namespace and reloaded its scripts after
// NOSCRIPT — so the nodes work again. The harness must see the damage: a LeaseGeneration issued
// again (generations, §3.1) or, first, another property the lost rows broke.
TEST(IntegrationRestart, RedisRestartedWithoutPersistenceIsOutOfContractAndEveryHostRunStartsAgain) {
  PrivateRedisServer server("", /*appendonly=*/false);
  SPOTCHECK_REQUIRE_PRIVATE_SERVER(server);
  BackgroundRestart restart(server, /*appendonly=*/false);
  const IntegrationReport report = run_integration(contention_with_restart(
      server, restart, "restart redis-server (no persistence)", faults::FaultKind::kStoreLostWrites));
  restart.join();
  const std::string summary = reports::format_redis_summary(report);
  std::cout << summary;
  ASSERT_EQ(restart.error(), "");
  ASSERT_TRUE(report.setup_error.empty()) << report.setup_error;
  ASSERT_EQ(report.out_of_contract.size(), 1u) << summary;
  EXPECT_EQ(report.out_of_contract.front().rfind("store-lost-writes: a write the store acknowledged stays applied", 0), 0u)
      << summary;
  EXPECT_NE(summary.find("out of contract: store-lost-writes"), std::string::npos) << summary;
  const properties::ActivityCounts& a = report.activity;
  // Every host run of the three nodes lost its lease (its record gone) and a new one registered.
  EXPECT_GE(a.leases_lost, 3u) << summary;
  EXPECT_GT(a.host_runs, 3u) << summary;
  EXPECT_GT(a.leases_registered, 3u) << summary;
  // The damage is seen, and reported apart.
  ASSERT_TRUE(report.violation.has_value()) << summary;
  EXPECT_TRUE(report.failed_only_out_of_contract()) << summary;
  EXPECT_NE(summary.find("verdict: FAIL, OUT OF CONTRACT"), std::string::npos) << summary;
}

// The same run with persistence is in contract: no out-of-contract line, and it passes (above).
TEST(IntegrationRestart, AnInContractRunIsNeverReportedOutOfContract) {
  IntegrationReport report;
  report.violation = properties::PropertyViolation{};
  EXPECT_FALSE(report.failed_only_out_of_contract());
  report.out_of_contract.push_back("store-lost-writes: x");
  EXPECT_TRUE(report.failed_only_out_of_contract());
  report.stopped_by = 2;
  EXPECT_FALSE(report.failed_only_out_of_contract());
}

}  // namespace
}  // namespace spotcheck::scenarios::integration

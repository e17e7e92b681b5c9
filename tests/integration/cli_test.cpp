// `spotcheck redis` (run_redis_command, the code behind the subcommand): exit status and the
// one-line errors for a malformed URL, an unreachable server, a failed authentication, a namespace
// holding foreign keys or earlier data; a passing run and what it leaves in Redis.
#include <gtest/gtest.h>

#include <sstream>

#include "scenarios/integration/redis_cli_run.h"
#include "tests/integration/integration_test_env.h"

namespace spotcheck::scenarios::integration {
namespace {

using store::redis::testing::PrivateRedisServer;

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

CommandResult run(const RedisCommandOptions& options) {
  std::ostringstream out;
  std::ostringstream err;
  CommandResult result;
  result.exit_code = run_redis_command(options, out, err);
  result.out = out.str();
  result.err = err.str();
  return result;
}

RedisCommandOptions quick(const std::string& url) {
  RedisCommandOptions options;
  options.url = url;
  options.scenario = "contention";
  options.duration_s = 1.0;
  options.seed = 5;
  return options;
}

// One line on stderr, starting with the command's name.
void expect_one_line_error(const CommandResult& result, const std::string& part) {
  EXPECT_EQ(result.exit_code, kRedisExitUsage) << result.out << result.err;
  EXPECT_EQ(result.err.rfind("spotcheck redis: ", 0), 0u) << result.err;
  EXPECT_NE(result.err.find(part), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
}

TEST(IntegrationCli, MalformedUrlIsAOneLineUsageError) {
  expect_one_line_error(run(quick("http://127.0.0.1:6379")), "malformed redis URL");
  expect_one_line_error(run(quick("redis://127.0.0.1:notaport")), "malformed redis URL");
}

TEST(IntegrationCli, UnreachableServerIsAOneLineUsageError) {
  // Port 1 on loopback: nothing listens there (connection refused).
  const CommandResult result = run(quick("redis://127.0.0.1:1"));
  expect_one_line_error(result, "127.0.0.1:1");
}

TEST(IntegrationCli, BadOptionsAreUsageErrors) {
  RedisCommandOptions options = quick("redis://127.0.0.1:1");
  options.scenario = "no-such-scenario";
  const CommandResult unknown = run(options);
  EXPECT_EQ(unknown.exit_code, kRedisExitUsage);
  EXPECT_NE(unknown.err.find("unknown integration scenario 'no-such-scenario'"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("lease-expiry"), std::string::npos) << unknown.err;  // lists the scenarios
  options = quick("redis://127.0.0.1:1");
  options.duration_s = 0;
  EXPECT_EQ(run(options).exit_code, kRedisExitUsage);
  options.duration_s = -3;
  EXPECT_EQ(run(options).exit_code, kRedisExitUsage);
}

TEST(IntegrationCli, AuthenticationFailureIsAOneLineUsageErrorWithoutThePassword) {
  PrivateRedisServer server("s3cret-pw");
  SPOTCHECK_REQUIRE_PRIVATE_SERVER(server);
  const std::string port = std::to_string(server.port());
  const CommandResult missing = run(quick("redis://127.0.0.1:" + port));
  expect_one_line_error(missing, "NOAUTH");
  const CommandResult wrong = run(quick("redis://:wrong-pw@127.0.0.1:" + port));
  EXPECT_EQ(wrong.exit_code, kRedisExitUsage) << wrong.err;
  EXPECT_EQ(wrong.err.find("wrong-pw"), std::string::npos) << wrong.err;  // never print a password
  EXPECT_EQ(wrong.err.find('\n'), wrong.err.size() - 1) << wrong.err;
  // The right password works (a short passing run).
  const CommandResult right = run(quick(server.url()));
  EXPECT_EQ(right.exit_code, kRedisExitPassed) << right.out << right.err;
  EXPECT_EQ(right.out.find("s3cret-pw"), std::string::npos) << right.out;
}

TEST(IntegrationCli, ForeignNamespaceIsRefusedUnlessAdoptedAndThenKept) {
  SPOTCHECK_REDIS_URL_OR_RETURN(url);
  const std::string ns = store::redis::testing::unique_namespace();
  ASSERT_TRUE(testing::set_raw_key(url, ns + "someone-elses-key", "precious"));
  RedisCommandOptions options = quick(url);
  options.key_namespace = ns;
  const CommandResult refused = run(options);
  expect_one_line_error(refused, "--adopt-namespace");
  EXPECT_NE(refused.err.find(ns), std::string::npos) << refused.err;
  EXPECT_EQ(testing::count_keys(url, ns), 1);  // refused before writing anything

  options.adopt_namespace = true;
  const CommandResult adopted = run(options);
  EXPECT_EQ(adopted.exit_code, kRedisExitPassed) << adopted.out << adopted.err;
  EXPECT_NE(adopted.out.find("kept (it held keys before the run)"), std::string::npos) << adopted.out;
  EXPECT_EQ(testing::get_raw_key(url, ns + "someone-elses-key"), "precious");
  testing::remove_raw_namespace(url, ns);
}

TEST(IntegrationCli, PassingRunPrintsTheSummaryAndRemovesItsNamespaceUnlessKept) {
  SPOTCHECK_REDIS_URL_OR_RETURN(url);
  const std::string ns = store::redis::testing::unique_namespace();
  RedisCommandOptions options = quick(url);
  options.key_namespace = ns;
  const CommandResult passed = run(options);
  ASSERT_EQ(passed.exit_code, kRedisExitPassed) << passed.out << passed.err;
  for (const char* part : {"scenario contention on redis://127.0.0.1:", "requests: ", "protocol: leases registered",
                           "properties: pass (", "single-owner", "store audit: capacity counters pass",
                           "owners pass", "namespace: removed", "verdict: PASS"}) {
    EXPECT_NE(passed.out.find(part), std::string::npos) << part << "\n" << passed.out;
  }
  EXPECT_EQ(testing::count_keys(url, ns), 0);

  // The same namespace again, now kept: the keys stay, and a third run refuses the leftovers.
  options.keep = true;
  const CommandResult kept = run(options);
  ASSERT_EQ(kept.exit_code, kRedisExitPassed) << kept.out << kept.err;
  EXPECT_NE(kept.out.find("namespace: kept (--keep)"), std::string::npos) << kept.out;
  EXPECT_GT(testing::count_keys(url, ns), 0);
  options.keep = false;
  expect_one_line_error(run(options), "already holds data");
  testing::remove_raw_namespace(url, ns);
}

}  // namespace
}  // namespace spotcheck::scenarios::integration

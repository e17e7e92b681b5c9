// `spotcheck redis` (run_redis_command, the code behind the subcommand): exit status and the
// one-line errors for a malformed URL, an unreadable --url-file, an unreachable server, a failed
// authentication, a namespace holding foreign keys or earlier data; a passing run and what it
// leaves in Redis; an adopted namespace's keys left as they were; a stopped run cleaning up.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/redis/redis_cli_run.h"
#include "scenarios/common/stop_signals.h"
#include "tests/integration/integration_test_env.h"

namespace spotcheck::cli {
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
  options = quick("redis://127.0.0.1:1");
  options.nodes = 0;  // was silently the scenario's 4
  expect_one_line_error(run(options), "--nodes must be 1..64");
  options.nodes = kRedisNodesMax + 1;
  expect_one_line_error(run(options), "--nodes must be 1..64");
  options = quick("redis://127.0.0.1:1");
  options.duration_s = 1e-9;  // rounds to no time at all
  expect_one_line_error(run(options), "--duration must be at least");
  options = quick("redis://127.0.0.1:1");
  options.key_namespace = "";  // was silently a fresh one
  expect_one_line_error(run(options), "--namespace must not be empty");
}

// A scratch file holding `text`, removed at the end of the test.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& text) {
    _path = ::testing::TempDir() + "spotcheck-url-" + std::to_string(::getpid()) + "-" + std::to_string(++_count);
    std::ofstream(_path) << text;
  }
  ~ScratchFile() { std::remove(_path.c_str()); }
  const std::string& path() const { return _path; }

 private:
  static inline int _count = 0;
  std::string _path;
};

TEST(IntegrationCli, UrlFileErrorsAreOneLineAndNeverShowTheUrl) {
  RedisCommandOptions options = quick("redis://127.0.0.1:1");
  const ScratchFile url_file("redis://:hunter2-secret@127.0.0.1:1\n");
  options.url_file = url_file.path();
  expect_one_line_error(run(options), "give --url or --url-file, not both");
  options.url.reset();
  options.url_file = url_file.path() + ".missing";
  expect_one_line_error(run(options), "cannot read --url-file");
  options.url_file = ::testing::TempDir();
  expect_one_line_error(run(options), "cannot read --url-file");
  const ScratchFile empty(" \n");
  options.url_file = empty.path();
  expect_one_line_error(run(options), "is empty");
  const ScratchFile two_lines("redis://:hunter2-secret@127.0.0.1:1\nredis://127.0.0.1:2\n");
  options.url_file = two_lines.path();
  const CommandResult two = run(options);
  expect_one_line_error(two, "one redis URL on one line");
  EXPECT_EQ(two.err.find("hunter2"), std::string::npos) << two.err;
  const ScratchFile big(std::string(kRedisUrlFileMaxBytes + 1, 'a'));
  options.url_file = big.path();
  expect_one_line_error(run(options), "is larger than 4096 bytes");
  // Malformed without an '@': a plain --url would be quoted; a file's content never is.
  const ScratchFile malformed("redis//hunter2-secret.example:1\n");
  options.url_file = malformed.path();
  const CommandResult bad = run(options);
  expect_one_line_error(bad, "malformed redis URL");
  EXPECT_EQ(bad.err.find("hunter2"), std::string::npos) << bad.err;
  // A readable file: it is the URL (here an unreachable one).
  options.url_file = url_file.path();
  const CommandResult unreachable = run(options);
  expect_one_line_error(unreachable, "cannot connect to redis://127.0.0.1:1");
  EXPECT_EQ(unreachable.err.find("hunter2"), std::string::npos) << unreachable.err;
}

TEST(IntegrationCli, ThePasswordMayComeFromAFileOrRedisCliAuthAndIsNeverPrinted) {
  const std::string password = "pw-in-a-file-9f3";
  PrivateRedisServer server(password);
  SPOTCHECK_REQUIRE_PRIVATE_SERVER(server);
  const std::string plain = "redis://127.0.0.1:" + std::to_string(server.port());
  const auto expect_no_password = [&](const CommandResult& result) {
    EXPECT_EQ(result.out.find(password), std::string::npos) << result.out;
    EXPECT_EQ(result.err.find(password), std::string::npos) << result.err;
  };

  RedisCommandOptions options = quick(plain);
  options.url.reset();
  const ScratchFile url_file(server.url() + "\n");
  options.url_file = url_file.path();
  const CommandResult from_file = run(options);
  EXPECT_EQ(from_file.exit_code, kRedisExitPassed) << from_file.out << from_file.err;
  EXPECT_NE(from_file.out.find("start: namespace '{spotcheck:it:"), std::string::npos) << from_file.out;
  expect_no_password(from_file);

  options = quick(plain);
  options.rediscli_auth = password;
  const CommandResult from_env = run(options);
  EXPECT_EQ(from_env.exit_code, kRedisExitPassed) << from_env.out << from_env.err;
  EXPECT_NE(from_env.out.find("verdict: PASS"), std::string::npos) << from_env.out;
  expect_no_password(from_env);

  // The URL's password wins over REDISCLI_AUTH (as redis-cli); a wrong one is never echoed.
  options.rediscli_auth = "not-" + password;
  const CommandResult wrong = run(options);
  EXPECT_EQ(wrong.exit_code, kRedisExitUsage) << wrong.out << wrong.err;
  EXPECT_EQ(wrong.err.find("not-" + password), std::string::npos) << wrong.err;
  EXPECT_EQ(wrong.err.find('\n'), wrong.err.size() - 1) << wrong.err;
  options = quick(server.url());
  options.rediscli_auth = "not-" + password;
  EXPECT_EQ(run(options).exit_code, kRedisExitPassed);
  // An empty REDISCLI_AUTH is no password.
  options = quick(plain);
  options.rediscli_auth = "";
  expect_one_line_error(run(options), "NOAUTH");
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
  ASSERT_TRUE(scenarios::integration::testing::set_raw_key(url, ns + "someone-elses-key", "precious"));
  RedisCommandOptions options = quick(url);
  options.key_namespace = ns;
  const CommandResult refused = run(options);
  expect_one_line_error(refused, "--adopt-namespace");
  EXPECT_NE(refused.err.find(ns), std::string::npos) << refused.err;
  EXPECT_EQ(scenarios::integration::testing::count_keys(url, ns), 1);  // refused before writing anything

  options.adopt_namespace = true;
  const CommandResult adopted = run(options);
  EXPECT_EQ(adopted.exit_code, kRedisExitPassed) << adopted.out << adopted.err;
  // Only the run's own keys go: the foreign key stays, unchanged, and is the only one left.
  EXPECT_NE(adopted.out.find("namespace: the run's "), std::string::npos) << adopted.out;
  EXPECT_NE(adopted.out.find("left as they were: 1 keys it held before the run"), std::string::npos) << adopted.out;
  EXPECT_EQ(adopted.out.find("namespace: removed"), std::string::npos) << adopted.out;
  EXPECT_EQ(scenarios::integration::testing::get_raw_key(url, ns + "someone-elses-key"), "precious");
  EXPECT_EQ(scenarios::integration::testing::count_keys(url, ns), 1);
  scenarios::integration::testing::remove_raw_namespace(url, ns);
}

// A foreign key at one of the provider's own names is refused without --adopt-namespace and,
// adopted, is never changed or removed, and the summary never says "removed" while it stays.
void expect_adopted_foreign_key_kept(const std::string& url, const std::string& name, const std::string& value) {
  const std::string ns = store::redis::testing::unique_namespace();
  ASSERT_TRUE(scenarios::integration::testing::set_raw_key(url, ns + name, value));
  RedisCommandOptions options = quick(url);
  options.key_namespace = ns;
  expect_one_line_error(run(options), "--adopt-namespace");
  options.adopt_namespace = true;
  const CommandResult adopted = run(options);
  EXPECT_EQ(adopted.exit_code, kRedisExitPassed) << adopted.out << adopted.err;
  EXPECT_EQ(adopted.out.find("namespace: removed"), std::string::npos) << adopted.out;
  EXPECT_NE(adopted.out.find("1 keys it held before the run"), std::string::npos) << adopted.out;
  EXPECT_EQ(scenarios::integration::testing::get_raw_key(url, ns + name), value);
  EXPECT_EQ(scenarios::integration::testing::count_keys(url, ns), 1);
  // Still foreign: a run without --adopt-namespace is refused again.
  options.adopt_namespace = false;
  expect_one_line_error(run(options), "--adopt-namespace");
  scenarios::integration::testing::remove_raw_namespace(url, ns);
}

// Issue 9: a foreign key at the provider's marker name was overwritten and, being the only key,
// deleted as "namespace removed".
TEST(IntegrationCli, AnAdoptedForeignKeyAtTheMarkersNameIsNeverChangedOrRemoved) {
  SPOTCHECK_REDIS_URL_OR_RETURN(url);
  expect_adopted_foreign_key_kept(url, "provider", "not-spotchecks");
}

TEST(IntegrationCli, AForeignKeyAtTheScanSecretsNameIsForeignToo) {
  SPOTCHECK_REDIS_URL_OR_RETURN(url);
  expect_adopted_foreign_key_kept(url, "scan-secret", "someone else's");
}

TEST(IntegrationCli, AdoptingIsRefusedWhenAForeignKeyHoldsANameTheScriptsWrite) {
  SPOTCHECK_REDIS_URL_OR_RETURN(url);
  const std::string ns = store::redis::testing::unique_namespace();
  ASSERT_TRUE(scenarios::integration::testing::set_raw_key(url, ns + "idx", "not-an-index"));
  RedisCommandOptions options = quick(url);
  options.key_namespace = ns;
  options.adopt_namespace = true;
  const CommandResult refused = run(options);
  expect_one_line_error(refused, "holds a key '" + ns + "idx' that spotcheck's store scripts would change");
  EXPECT_EQ(scenarios::integration::testing::get_raw_key(url, ns + "idx"), "not-an-index");
  EXPECT_EQ(scenarios::integration::testing::count_keys(url, ns), 1);
  scenarios::integration::testing::remove_raw_namespace(url, ns);
}

TEST(IntegrationCli, AnAdoptedEarlierRunIsKeptWhole) {
  SPOTCHECK_REDIS_URL_OR_RETURN(url);
  const std::string ns = store::redis::testing::unique_namespace();
  RedisCommandOptions options = quick(url);
  options.key_namespace = ns;
  options.keep = true;
  ASSERT_EQ(run(options).exit_code, kRedisExitPassed);
  const long kept = scenarios::integration::testing::count_keys(url, ns);
  ASSERT_GT(kept, 0);
  options.keep = false;
  options.adopt_namespace = true;
  const CommandResult again = run(options);
  // The run itself (on top of the earlier run's rows, under -j load) is not what this test is about.
  EXPECT_TRUE(again.exit_code == kRedisExitPassed || again.exit_code == kRedisExitFailed) << again.out << again.err;
  EXPECT_NE(again.out.find("namespace: kept (it held an earlier run's data)"), std::string::npos) << again.out;
  EXPECT_GE(scenarios::integration::testing::count_keys(url, ns), kept);
  scenarios::integration::testing::remove_raw_namespace(url, ns);
}

// Stopped (as by a signal) after the namespace was announced: exit 128 + n, the summary so far,
// and none of the run's keys left; in an adopted namespace the foreign key stays.
TEST(IntegrationCli, AStoppedRunRemovesItsOwnKeysAndExits128PlusTheSignal) {
  SPOTCHECK_REDIS_URL_OR_RETURN(url);
  for (const bool adopt : {false, true}) {
    const std::string ns = store::redis::testing::unique_namespace();
    if (adopt) {
      ASSERT_TRUE(scenarios::integration::testing::set_raw_key(url, ns + "someone-elses-key", "precious"));
    }
    RedisCommandOptions options = quick(url);
    options.key_namespace = ns;
    options.adopt_namespace = adopt;
    options.duration_s = 60;
    std::ostringstream out;
    std::ostringstream err;
    const auto started = std::chrono::steady_clock::now();
    options.stop_requested = [&] {
      const bool announced = out.str().find("start: namespace '" + ns + "'") != std::string::npos;
      return announced && std::chrono::steady_clock::now() - started > std::chrono::milliseconds(1'500) ? SIGTERM : 0;
    };
    const int code = run_redis_command(options, out, err);
    EXPECT_EQ(code, 128 + SIGTERM) << out.str() << err.str();
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
    EXPECT_EQ(out.str().rfind("start: namespace '" + ns + "' on redis://127.0.0.1:", 0), 0U) << out.str();
    EXPECT_NE(out.str().find("interrupted: SIGTERM at t="), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("requests: "), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("verdict: INTERRUPTED (SIGTERM)"), std::string::npos) << out.str();
    EXPECT_EQ(err.str().rfind("spotcheck redis: interrupted by SIGTERM; namespace '" + ns + "': ", 0), 0U) << err.str();
    EXPECT_EQ(err.str().find('\n'), err.str().size() - 1) << err.str();
    EXPECT_EQ(scenarios::integration::testing::count_keys(url, ns), adopt ? 1 : 0);
    if (adopt) {
      EXPECT_EQ(scenarios::integration::testing::get_raw_key(url, ns + "someone-elses-key"), "precious");
      EXPECT_NE(err.str().find("1 keys it held before the run"), std::string::npos) << err.str();
    } else {
      EXPECT_NE(err.str().find("': removed ("), std::string::npos) << err.str();
    }
    scenarios::integration::testing::remove_raw_namespace(url, ns);
  }
}

TEST(IntegrationCli, AStopBeforeAnythingWasWrittenExitsAtOnce) {
  SPOTCHECK_REDIS_URL_OR_RETURN(url);
  RedisCommandOptions options = quick(url);
  options.stop_requested = [] { return SIGINT; };
  const CommandResult stopped = run(options);
  EXPECT_EQ(stopped.exit_code, 128 + SIGINT);
  EXPECT_EQ(stopped.err, "spotcheck redis: interrupted by SIGINT before anything was written\n");
  EXPECT_TRUE(stopped.out.empty()) << stopped.out;
}

// Cleanup that cannot reach the server says what it left: the namespace and the keys.
TEST(IntegrationCli, AStoppedRunWhoseCleanupFailsSaysWhatWasLeft) {
  PrivateRedisServer server;
  SPOTCHECK_REQUIRE_PRIVATE_SERVER(server);
  const std::string ns = store::redis::testing::unique_namespace();
  RedisCommandOptions options = quick(server.url());
  options.key_namespace = ns;
  options.duration_s = 60;
  std::ostringstream out;
  std::ostringstream err;
  const auto started = std::chrono::steady_clock::now();
  bool frozen = false;
  options.stop_requested = [&] {
    if (!frozen && out.str().find("start: namespace") != std::string::npos &&
        std::chrono::steady_clock::now() - started > std::chrono::milliseconds(1'500)) {
      frozen = ::kill(server.pid(), SIGSTOP) == 0;  // the cleanup's commands time out
    }
    return frozen ? SIGINT : 0;
  };
  const int code = run_redis_command(options, out, err);
  ::kill(server.pid(), SIGCONT);
  ASSERT_TRUE(frozen);
  EXPECT_EQ(code, 128 + SIGINT) << out.str() << err.str();
  EXPECT_EQ(err.str().rfind("spotcheck redis: interrupted by SIGINT; cleanup failed: namespace '" + ns + "' on " +
                                "redis://127.0.0.1:" + std::to_string(server.port()) + ": ",
                            0),
            0U)
      << err.str();
  EXPECT_NE(err.str().find("keys left"), std::string::npos) << err.str();
  EXPECT_EQ(err.str().find('\n'), err.str().size() - 1) << err.str();
  EXPECT_NE(out.str().find("namespace: removing the run's keys FAILED"), std::string::npos) << out.str();
  EXPECT_GT(scenarios::integration::testing::count_keys(server.url(), ns), 0);  // what it said: keys are left
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
                           "owners pass", "namespace: removed (", "verdict: PASS"}) {
    EXPECT_NE(passed.out.find(part), std::string::npos) << part << "\n" << passed.out;
  }
  EXPECT_EQ(scenarios::integration::testing::count_keys(url, ns), 0);

  // The same namespace again, now kept: the keys stay, and a third run refuses the leftovers.
  options.keep = true;
  const CommandResult kept = run(options);
  ASSERT_EQ(kept.exit_code, kRedisExitPassed) << kept.out << kept.err;
  EXPECT_NE(kept.out.find("namespace: kept (--keep)"), std::string::npos) << kept.out;
  EXPECT_GT(scenarios::integration::testing::count_keys(url, ns), 0);
  options.keep = false;
  expect_one_line_error(run(options), "already holds data");
  scenarios::integration::testing::remove_raw_namespace(url, ns);
}

}  // namespace
}  // namespace spotcheck::cli

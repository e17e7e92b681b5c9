#include "cli/redis/redis_cli_run.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <random>
#include <variant>

#include "impl/store/redis/redis_url.h"
#include "reports/redis_summary.h"
#include "scenarios/common/stop_signals.h"
#include "scenarios/integration/integration_run.h"

namespace spotcheck::cli {

namespace {

namespace redis = spotcheck::store::redis;
using platform::TimeUs;
using scenarios::exit_status_for_signal;
using scenarios::StopSignals;
using scenarios::integration::find_integration_scenario;
using scenarios::integration::integration_scenario_names;
using scenarios::integration::IntegrationReport;
using scenarios::integration::IntegrationRequest;
using scenarios::integration::NamespaceCleanup;
using scenarios::integration::run_integration;
using scenarios::integration::signal_name;

int redis_usage(std::ostream& err, const std::string& text) {
  err << "spotcheck redis: " << text << "\n";
  return kRedisExitUsage;
}

// What was read of a file, or why reading it failed.
struct TextOrError {
  std::string text;
  std::string error;  // empty on success
};

// At most max_bytes + 1 bytes of `path` (one more tells the file is too big).
TextOrError read_bounded(const std::string& path, std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO nobody writes must not hang (its read then ends at once, empty).
  // Reads block again, so a pipe (--url-file <(...)) is read to its end.
  TextOrError out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    out.error = std::strerror(errno);
    return out;
  }
  if (const int flags = ::fcntl(fd, F_GETFL); flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
    out.error = std::strerror(errno);
    ::close(fd);
    return out;
  }
  std::array<char, 1'024> buffer{};
  std::string& text = out.text;
  // Bound: each round adds at least one byte until max_bytes + 1 (or end of file, or an error).
  while (text.size() <= max_bytes) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      out.error = std::strerror(errno);
      break;
    }
    if (n == 0) {
      break;
    }
    text.append(buffer.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// The file's one line, surrounding whitespace removed, or why the file does not hold one. Never
// quotes the content.
TextOrError url_from_file(const std::string& path) {
  const auto fail = [](std::string why) { return TextOrError{{}, std::move(why)}; };
  TextOrError read = read_bounded(path, kRedisUrlFileMaxBytes);
  if (!read.error.empty()) {
    return fail("cannot read --url-file '" + path + "': " + read.error);
  }
  const std::string& text = read.text;
  if (text.size() > kRedisUrlFileMaxBytes) {
    return fail("--url-file '" + path + "' is larger than " + std::to_string(kRedisUrlFileMaxBytes) +
                " bytes; it must hold one redis URL");
  }
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && is_space(text[begin])) {
    ++begin;
  }
  while (end > begin && is_space(text[end - 1])) {
    --end;
  }
  if (begin == end) {
    return fail("--url-file '" + path + "' is empty; it must hold one redis URL");
  }
  for (std::size_t i = begin; i < end; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      return fail("--url-file '" + path +
                  "' must hold one redis URL on one line (no other text, no control characters)");
    }
  }
  return TextOrError{text.substr(begin, end - begin), {}};
}

}  // namespace

ResolvedRedisUrl resolve_redis_url(const RedisCommandOptions& options) {
  ResolvedRedisUrl out;
  if (options.url.has_value() && !options.url_file.empty()) {
    out.error = "give --url or --url-file, not both";
    return out;
  }
  std::string text = options.url.value_or(std::string(kDefaultRedisUrl));
  redis::RedisUrlParse parsed;
  if (!options.url_file.empty()) {
    TextOrError from_file = url_from_file(options.url_file);
    if (!from_file.error.empty()) {
      out.error = std::move(from_file.error);
      return out;
    }
    text = std::move(from_file.text);
    parsed = redis::parse_redis_url_unquoted(text);  // any part of it may be secret
    if (!parsed.url) {
      out.error = "--url-file '" + options.url_file + "': " + parsed.error;
      return out;
    }
  } else {
    parsed = redis::parse_redis_url(text);
    if (!parsed.url) {
      out.error = parsed.error;
      return out;
    }
  }
  // As redis-cli: REDISCLI_AUTH is the password unless the URL gives one.
  if (options.rediscli_auth.has_value() && !options.rediscli_auth->empty() && parsed.url->password.empty()) {
    parsed.url->password = *options.rediscli_auth;
    text = parsed.url->text();
  }
  out.url = std::move(text);
  return out;
}

namespace {

// The run `options` ask for, or the one-line usage error that refuses them.
std::variant<IntegrationRequest, std::string> integration_request(const RedisCommandOptions& options) {
  IntegrationRequest request;
  if (!find_integration_scenario(options.scenario, request.scenario)) {
    std::string names;
    for (const std::string& name : integration_scenario_names()) {
      names += (names.empty() ? "" : ", ") + name;
    }
    return "unknown integration scenario '" + options.scenario + "' (one of: " + names + ")";
  }
  if (!std::isfinite(options.duration_s) || options.duration_s <= 0.0 || options.duration_s > kRedisDurationMaxS) {
    return "--duration must be in (0, " + std::to_string(static_cast<int>(kRedisDurationMaxS)) + "] seconds";
  }
  if (options.nodes.has_value() && (*options.nodes < 1 || *options.nodes > kRedisNodesMax)) {
    return "--nodes must be 1.." + std::to_string(kRedisNodesMax);
  }
  if (options.key_namespace.has_value() && options.key_namespace->empty()) {
    return std::string("--namespace must not be empty");
  }
  ResolvedRedisUrl url = resolve_redis_url(options);
  if (!url.error.empty()) {
    return url.error;
  }
  if (options.nodes.has_value()) {
    request.scenario.node_count = *options.nodes;
  }
  request.duration_us = static_cast<TimeUs>(std::llround(options.duration_s * 1e6));
  if (request.duration_us <= 0) {
    return std::string("--duration must be at least 0.000001 seconds");
  }
  if (options.seed.has_value()) {
    request.seed = *options.seed;
  } else {
    std::random_device device;  // integration runs are not replayable; the seed is printed anyway
    request.seed = (static_cast<std::uint64_t>(device()) << 32) ^ device();
  }
  request.redis.url = std::move(url.url);
  request.redis.key_namespace = options.key_namespace.value_or("");
  request.redis.adopt_namespace = options.adopt_namespace;
  request.redis.keep = options.keep;
  return request;
}

// A run stopped by `stopped_by`: what it wrote and what cleanup did, and the signal's exit status.
int report_interrupted(const IntegrationReport& report, int stopped_by, std::ostream& out, std::ostream& err) {
  if (report.key_namespace.empty()) {
    // Stopped before the namespace was taken (or while taking it failed): nothing was written.
    err << "spotcheck redis: interrupted by " << signal_name(stopped_by) << " before anything was written"
        << (report.setup_error.empty() ? std::string() : " (" + report.setup_error + ")") << "\n";
    return exit_status_for_signal(stopped_by);
  }
  out << reports::format_redis_summary(report) << std::flush;  // a signal after the run's end: the whole summary
  const NamespaceCleanup& cleanup = report.namespace_cleanup;
  err << "spotcheck redis: interrupted by " << signal_name(stopped_by) << "; "
      << (cleanup.failed ? "cleanup failed: " + cleanup.left
                         : "namespace '" + report.key_namespace + "': " + cleanup.outcome)
      << "\n";
  return exit_status_for_signal(stopped_by);
}

// A run that ended (or never started: a setup error is a usage error): its summary and verdict.
int report_finished(const IntegrationReport& report, std::ostream& out, std::ostream& err) {
  if (!report.setup_error.empty()) {
    std::string error = report.setup_error;
    constexpr std::string_view kPutInUrl = "(NOAUTH); put it in the URL";
    if (const std::size_t at = error.find(kPutInUrl); at != std::string::npos) {
      error.replace(at, kPutInUrl.size(), "(NOAUTH); put it in the URL (--url or --url-file) or in REDISCLI_AUTH");
    }
    return redis_usage(err, error);
  }
  out << reports::format_redis_summary(report);
  if (report.namespace_cleanup.failed) {
    err << "spotcheck redis: cleanup failed: " << report.namespace_cleanup.left << "\n";
  }
  if (!report.passed()) {
    err << "spotcheck redis: " << report.failure_reason() << "\n";
    return kRedisExitFailed;
  }
  return kRedisExitPassed;
}

}  // namespace

int run_redis_command(const RedisCommandOptions& options, std::ostream& out, std::ostream& err) {
  auto built = integration_request(options);
  if (const auto* error = std::get_if<std::string>(&built)) {
    return redis_usage(err, *error);
  }
  IntegrationRequest& request = std::get<IntegrationRequest>(built);
  const std::string scenario = request.scenario.name;
  const std::uint64_t seed = request.seed;
  const std::uint32_t node_count = request.scenario.node_count;
  request.redis.before_first_write = [&out, scenario, seed, node_count](const std::string& key_namespace,
                                                                         const std::string& url_redacted) {
    out << "start: namespace '" << key_namespace << "' on " << url_redacted << ", scenario " << scenario << ", seed "
        << seed << ", " << node_count << " nodes" << std::endl;  // flushed: an interrupted run has said where it wrote
  };

  // SIGINT/SIGTERM stop the run; the handlers go when the command ends. A second signal must not
  // cut the cleanup of the run's keys short.
  const StopSignals signals(StopSignals::kSecondIgnored);
  request.stop_requested = options.stop_requested ? options.stop_requested : [] { return StopSignals::requested(); };

  const IntegrationReport report = run_integration(request);
  const int stopped_by = report.stopped() ? report.stopped_by : request.stop_requested();
  if (stopped_by != 0) {
    return report_interrupted(report, stopped_by, out, err);
  }
  return report_finished(report, out, err);
}

}  // namespace spotcheck::cli

#include "cli/locate/locate_run.h"

#include <string_view>

#include "cli/redis/redis_cli_run.h"
#include "impl/json_guard/json_guard.h"
#include "impl/location/query/location_query.h"
#include "impl/location/query/query_continuation.h"
#include "impl/store/redis/redis_stores.h"
#include "impl/store/redis/steady_clock.h"

namespace spotcheck::cli {

namespace {

namespace lq = location::query;

constexpr platform::TimeUs kRequestTimeoutUs = platform::seconds(5);

int locate_usage(std::ostream& err, const std::string& text) {
  err << "spotcheck locate: " << json_guard::one_line(text, 400) << "\n";
  return kLocateExitUsage;
}

std::string line(const lq::LocationEntry& entry) {
  return std::string(records::to_string(entry.authority)) + " " + json_guard::one_line(entry.id) + ": " +
         std::string(lq::to_string(entry.state)) + ", " + std::string(records::to_string(entry.object_kind)) + " " +
         json_guard::one_line(entry.stable_type) + ", ObjectGeneration " + std::to_string(entry.object_generation) +
         ", mesh " + json_guard::one_line(entry.mesh_name) + ", node " + entry.node_rid_hex;
}

// The one-line reason `options` cannot be run, or empty.
std::string check(const LocateOptions& options) {
  const bool lookup = !options.what.empty();
  if (lookup == options.kind.has_value()) {
    return "give either 'actor ID' / 'spot ID' or --kind, not both and not neither";
  }
  if (lookup) {
    if (options.what != "actor" && options.what != "spot") {
      return "the first argument must be 'actor' or 'spot', not '" + options.what + "'";
    }
    if (options.id.empty() || options.id.size() > 255) {
      return "the ID must be 1..255 bytes";
    }
    if (options.stable_type || options.mesh_name || options.continuation) {
      return "--type, --mesh and --continuation belong to a list (--kind)";
    }
    return {};
  }
  if (!records::parse_object_kind(*options.kind).has_value()) {
    return "--kind must be actor, userSpot or instanceSpot, not '" + *options.kind + "'";
  }
  if ((options.stable_type && options.stable_type->empty()) || (options.mesh_name && options.mesh_name->empty())) {
    return "--type and --mesh must not be empty";
  }
  if (options.page_size < 1 || options.page_size > lq::kEntriesMax) {
    return "--page-size must be 1.." + std::to_string(lq::kEntriesMax);
  }
  if (options.pages < 1 || options.pages > kLocatePagesMax) {
    return "--pages must be 1.." + std::to_string(kLocatePagesMax);
  }
  if (options.continuation && options.continuation->size() > lq::kContinuationBytesMax) {
    return "--continuation is longer than any this tool writes";
  }
  return {};
}

int lookup(lq::LocationQuery& query, const LocateOptions& options, std::ostream& out, std::ostream& err) {
  const records::AuthorityKind authority =
      options.what == "actor" ? records::AuthorityKind::kActor : records::AuthorityKind::kSpot;
  const auto found = query.lookup(authority, options.id);
  if (!found.ok()) {
    err << "spotcheck locate: Unavailable: " << json_guard::one_line(found.error().message, 400) << "\n";
    return kLocateExitStoreFailed;
  }
  if (!found.value().has_value()) {
    out << options.what << " " << json_guard::one_line(options.id) << ": no record\n";
    return kLocateExitAnswered;
  }
  out << line(*found.value()) << "\n";
  return kLocateExitAnswered;
}

int list(lq::LocationQuery& query, const LocateOptions& options, std::ostream& out, std::ostream& err) {
  const lq::ListFilter filter{*records::parse_object_kind(*options.kind), options.stable_type, options.mesh_name};
  std::optional<std::string> token = options.continuation;
  std::size_t entries = 0;
  for (std::uint32_t page = 0; page < options.pages; ++page) {
    const auto listed = query.list(filter, options.page_size, token);
    if (!listed.ok()) {
      if (listed.error().kind == location::ErrorKind::kInvalidArgument) {
        return locate_usage(err, listed.error().message);
      }
      err << "spotcheck locate: the page failed (no partial page): "
          << json_guard::one_line(listed.error().message, 400) << "\n";
      return kLocateExitStoreFailed;
    }
    for (const lq::LocationEntry& entry : listed.value().entries) {
      out << line(entry) << "\n";
    }
    entries += listed.value().entries.size();
    token = listed.value().continuation;
    if (!token.has_value()) {
      break;
    }
  }
  out << entries << " entr" << (entries == 1 ? "y" : "ies");
  if (token.has_value()) {
    out << "; more: --continuation " << *token;
  } else {
    out << "; the end of the list";
  }
  out << "\n";
  return kLocateExitAnswered;
}

}  // namespace

int run_locate(const LocateOptions& options, std::ostream& out, std::ostream& err) {
  if (const std::string problem = check(options); !problem.empty()) {
    return locate_usage(err, problem);
  }
  if (options.key_namespace.empty()) {
    return locate_usage(err, "--namespace must not be empty");
  }
  RedisCommandOptions redis;
  redis.url = options.url;
  redis.url_file = options.url_file;
  redis.rediscli_auth = options.rediscli_auth;
  const ResolvedRedisUrl url = resolve_redis_url(redis);
  if (!url.error.empty()) {
    return locate_usage(err, url.error);
  }
  store::redis::SteadyClock clock;
  store::redis::RedisStoreOptions store_options;
  store_options.url = url.url;
  store_options.key_namespace = options.key_namespace;
  store_options.adopt_foreign_namespace = options.adopt_namespace;
  store_options.read_only = true;
  // Nothing is written to a namespace that holds no keys (the provider would mark it as its own).
  const auto refuse_empty = [&options](store::redis::RedisSession& session) -> std::string {
    const store::redis::RedisSession::Answer empty = session.namespace_is_empty();
    if (!empty.error.empty()) {
      return empty.error;
    }
    return empty.yes ? "namespace '" + options.key_namespace + "' holds no keys: nothing to locate" : std::string();
  };
  store::redis::RedisStores stores = store::redis::open_redis_stores(store_options, clock, refuse_empty);
  if (!stores.error.empty()) {
    return locate_usage(err, stores.error);
  }
  lq::LocationQuery query(*stores.location, [&clock] { return clock.now_us() + kRequestTimeoutUs; });
  return options.what.empty() ? list(query, options, out, err) : lookup(query, options, out, err);
}

}  // namespace spotcheck::cli

// Entry point of the Redis provider: open a session and make both stores on it.
//
//   SteadyClock clock;  // or the platform's Clock
//   auto opened = open_redis_stores({.url = "redis://127.0.0.1:6379"}, clock);
//   if (!opened.error.empty()) { ... one-line error ... }
//   opened.location->read(key, deadline_us);
#pragma once

#include <memory>
#include <string>

#include "impl/store/redis/redis_location_store.h"
#include "impl/store/redis/redis_relocation_store.h"
#include "impl/store/redis/redis_session.h"

namespace spotcheck::store::redis {

struct RedisStores {
  std::shared_ptr<RedisSession> session;  // shared by both stores; null on failure
  std::unique_ptr<RedisLocationStore> location;
  std::unique_ptr<RedisRelocationStore> relocation;
  std::string error;  // one line, set on failure
};

// `clock` turns each request's deadline into a command timeout; it must outlive the stores.
// `before_first_write`: see RedisSession::open.
inline RedisStores open_redis_stores(const RedisStoreOptions& options, const platform::Clock& clock,
                                     const RedisSession::BeforeFirstWrite& before_first_write = {}) {
  RedisStores out;
  RedisSession::Opened opened = RedisSession::open(options, clock, before_first_write);
  if (!opened.session) {
    out.error = std::move(opened.error);
    return out;
  }
  out.session = opened.session;
  out.location = std::make_unique<RedisLocationStore>(opened.session);
  out.relocation = std::make_unique<RedisRelocationStore>(opened.session);
  return out;
}

}  // namespace spotcheck::store::redis

// Location Store on Redis (spec §2.1, §6.1, §6.2, §10): read, conditional all-or-nothing write,
// same-point-in-time scan, each one Lua script (docs/redis.md).
#pragma once

#include <memory>

#include "impl/store/redis/redis_session.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::store::redis {

class RedisLocationStore final : public LocationStore {
 public:
  explicit RedisLocationStore(std::shared_ptr<RedisSession> session);

  ReadResult read(const Key& key, DeadlineUs deadline_us) override;
  WriteResult write(const WriteRequest& request, DeadlineUs deadline_us) override;
  ScanResult scan(const ScanRequest& request, DeadlineUs deadline_us) override;

  RedisSession& session() { return *_session; }

 private:
  std::shared_ptr<RedisSession> _session;
  std::string _sequence_key;  // KEYS[1] of every script call: routes it to the namespace's slot
};

}  // namespace spotcheck::store::redis

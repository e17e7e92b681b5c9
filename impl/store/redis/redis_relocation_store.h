// Relocation Store on Redis (spec §1.2, §10): put-once immutable payloads with retention by store
// time (PEXPIRE), get, delete. Key: namespace + "reloc:" + sha256hex(reference), a plain string
// holding the payload's raw bytes.
#pragma once

#include <memory>

#include "impl/store/redis/redis_session.h"
#include "impl/store/spi/relocation_store.h"

namespace spotcheck::store::redis {

class RedisRelocationStore final : public RelocationStore {
 public:
  explicit RedisRelocationStore(std::shared_ptr<RedisSession> session);

  PutResult put(const PayloadPut& request, DeadlineUs deadline_us) override;
  GetResult get(const Key& reference, DeadlineUs deadline_us) override;
  DeleteResult remove(const Key& reference, DeadlineUs deadline_us) override;

  RedisSession& session() { return *_session; }

 private:
  std::shared_ptr<RedisSession> _session;
};

}  // namespace spotcheck::store::redis

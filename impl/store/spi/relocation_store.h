// Relocation Store SPI (spec §1.2, §10): immutable put-once payloads under a reference the
// framework fixed in advance; get; delete; retention by store time. The provider copies input
// bytes and never changes bytes it returned.
#pragma once

#include <variant>

#include "impl/store/spi/types.h"

namespace spotcheck::store {

struct PayloadPut {
  Key reference;
  Bytes payload;
  std::int64_t retention_ms = 0;  // > 0: the payload may vanish retention_ms after it was stored
};

struct Stored {
  bool already_present = false;  // the same bytes were already stored under this reference
  StoreNowMs now_ms = 0;
};
// Different bytes are already stored under this reference. Nothing changed.
struct PayloadConflict {
  StoreNowMs now_ms = 0;
};
using PutResult = std::variant<Stored, PayloadConflict, StoreError, Indeterminate>;

struct PayloadFound {
  Bytes payload;
  StoreNowMs now_ms = 0;
};
struct PayloadMissing {
  StoreNowMs now_ms = 0;
};
using GetResult = std::variant<PayloadFound, PayloadMissing, StoreError>;

struct Deleted {
  bool was_present = false;
  StoreNowMs now_ms = 0;
};
using DeleteResult = std::variant<Deleted, StoreError, Indeterminate>;

class RelocationStore {
 public:
  virtual ~RelocationStore() = default;
  virtual PutResult put(const PayloadPut& request, DeadlineUs deadline_us) = 0;
  virtual GetResult get(const Key& reference, DeadlineUs deadline_us) = 0;
  virtual DeleteResult remove(const Key& reference, DeadlineUs deadline_us) = 0;
};

}  // namespace spotcheck::store

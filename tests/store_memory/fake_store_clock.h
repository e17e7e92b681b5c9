// A store clock for tests: time moves only when the test says so.
#pragma once

#include <cstdint>
#include <memory>

#include "impl/store/memory/memory_options.h"

namespace spotcheck::store::memory::testing {

class FakeStoreClock {
 public:
  static constexpr StoreNowMs kStartMs = 1'700'000'000'000;  // a plausible Unix epoch ms

  StoreClock clock() const {
    return [now = _now_ms] { return *now; };
  }
  void advance(std::int64_t ms) { *_now_ms += ms; }
  StoreNowMs now_ms() const { return *_now_ms; }

 private:
  std::shared_ptr<StoreNowMs> _now_ms = std::make_shared<StoreNowMs>(kStartMs);
};

}  // namespace spotcheck::store::memory::testing

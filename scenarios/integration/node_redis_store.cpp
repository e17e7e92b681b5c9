#include "scenarios/integration/node_redis_store.h"

#include <utility>

namespace spotcheck::scenarios::integration {

NodeRedisStore::NodeRedisStore(store::redis::RedisStoreOptions options, platform::Platform& platform,
                               TimeUs call_jitter_max_us, const StoreCallHooks* hooks)
    : _options(std::move(options)), _platform(platform), _call_jitter_max_us(call_jitter_max_us), _hooks(hooks) {}

template <class Call>
auto NodeRedisStore::hooked(std::string_view op, Call&& call) {
  if (_hooks != nullptr && _hooks->before) {
    _hooks->before(op);
  }
  auto result = call();
  if (_hooks != nullptr && _hooks->after) {
    _hooks->after(op);
  }
  return result;
}

void NodeRedisStore::scheduling_point() {
  if (_call_jitter_max_us > 0) {
    _platform.clock.sleep_for(_platform.random.between(0, _call_jitter_max_us));
  } else {
    _platform.tasks.yield();
  }
}

store::LocationStore* NodeRedisStore::ensure_open() {
  if (_store != nullptr) {
    return _store.get();
  }
  ++_opens;
  store::redis::RedisStores opened = store::redis::open_redis_stores(_options, _platform.clock);
  if (opened.location == nullptr) {
    _last_error = opened.error;
    return nullptr;
  }
  _store = std::move(opened.location);  // keeps the session alive; the relocation store is unused
  return _store.get();
}

store::ReadResult NodeRedisStore::read(const store::Key& key, store::DeadlineUs deadline_us) {
  scheduling_point();
  store::LocationStore* opened = ensure_open();
  if (opened == nullptr) {
    return store::StoreError{store::StoreErrorKind::kUnavailable, _last_error};
  }
  return hooked("read", [&] { return opened->read(key, deadline_us); });
}

store::WriteResult NodeRedisStore::write(const store::WriteRequest& request, store::DeadlineUs deadline_us) {
  scheduling_point();
  store::LocationStore* opened = ensure_open();
  if (opened == nullptr) {
    return store::StoreError{store::StoreErrorKind::kUnavailable, _last_error};  // nothing was sent
  }
  return hooked("write", [&] { return opened->write(request, deadline_us); });
}

store::ScanResult NodeRedisStore::scan(const store::ScanRequest& request, store::DeadlineUs deadline_us) {
  scheduling_point();
  store::LocationStore* opened = ensure_open();
  if (opened == nullptr) {
    return store::StoreError{store::StoreErrorKind::kUnavailable, _last_error};
  }
  return hooked("scan", [&] { return opened->scan(request, deadline_us); });
}

}  // namespace spotcheck::scenarios::integration

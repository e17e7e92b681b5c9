// The Location Store of one integration node's host run: its own Redis session (its own
// connection) in the run's shared namespace, opened on first use and again after an open failed
// (e.g. the server was stopped when the host run began). A call that finds no session and cannot
// open one is StoreError{kUnavailable}: nothing was sent.
//
// Every call is a scheduling point, as in the simulator (where a store request parks the fiber):
// the calling fiber first parks for a random 0..call_jitter_max_us (or yields), so other nodes'
// fibers run between one node's read and its conditional write and creation races really happen.
// The call itself then blocks the thread (hiredis) until its reply or timeout.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "impl/platform/platform.h"
#include "impl/store/redis/redis_stores.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::scenarios::integration {

using platform::TimeUs;

// Test hooks around every store call of every node (on the world's thread, inside the node's
// task): `before` right before the request is sent, `after` once its outcome is known. `op` is
// "read", "write" or "scan". Tests aim faults at single calls with them (e.g. lose the reply of
// one write). Either may be empty.
struct StoreCallHooks {
  std::function<void(std::string_view op)> before;
  std::function<void(std::string_view op)> after;
};

class NodeRedisStore final : public store::LocationStore {
 public:
  // `platform` is the node's (deadlines are on its clock); it must outlive the store.
  NodeRedisStore(store::redis::RedisStoreOptions options, platform::Platform& platform, TimeUs call_jitter_max_us,
                 const StoreCallHooks* hooks = nullptr);

  store::ReadResult read(const store::Key& key, store::DeadlineUs deadline_us) override;
  store::WriteResult write(const store::WriteRequest& request, store::DeadlineUs deadline_us) override;
  store::ScanResult scan(const store::ScanRequest& request, store::DeadlineUs deadline_us) override;

  // Sessions opened so far (1 in a healthy run).
  int opens() const { return _opens; }

 private:
  // The session's store, or null with the open error in `_last_error`.
  store::LocationStore* ensure_open();
  // Lets the node's other fibers and other nodes run before a call.
  void scheduling_point();
  template <class Call>
  auto hooked(std::string_view op, Call&& call);

  store::redis::RedisStoreOptions _options;
  platform::Platform& _platform;
  TimeUs _call_jitter_max_us;
  const StoreCallHooks* _hooks;
  std::unique_ptr<store::redis::RedisLocationStore> _store;
  std::string _last_error;
  int _opens = 0;
};

}  // namespace spotcheck::scenarios::integration

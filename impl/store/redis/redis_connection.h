// One blocking hiredis connection with per-call timeouts and an honest account of what a
// failed call means: not sent (nothing changed) or sent with the outcome unknown.
#pragma once

#include <hiredis/hiredis.h>

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "impl/platform/time.h"
#include "impl/store/redis/redis_url.h"

namespace spotcheck::store::redis {

struct ReplyDeleter {
  void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

enum class CallFailure {
  kNone,
  kNotSent,   // nothing was sent (no connection): the server saw nothing
  kNoTimeLeft,  // nothing was sent: the deadline had passed
  kTimedOut,  // sent, no reply within the timeout: the outcome is unknown
  kLost,      // sent, the connection broke before the reply: the outcome is unknown
};

struct CallResult {
  ReplyPtr reply;  // set iff failure == kNone (may be an error reply)
  CallFailure failure = CallFailure::kNone;
  std::string message;  // one line, for failures
};

class RedisConnection {
 public:
  RedisConnection(RedisUrl url, platform::TimeUs connect_timeout_us);
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Connects, authenticates and selects the database unless a healthy connection exists.
  // Returns an empty string on success, else a one-line error (nothing was sent on its behalf).
  std::string ensure_connected(platform::TimeUs timeout_us);

  // Sends one command (binary-safe arguments) on the connection ensure_connected() made and waits
  // at most timeout_us for its reply. A failure after sending drops the connection; the next
  // ensure_connected() connects anew.
  CallResult call(std::span<const std::string_view> argv, platform::TimeUs timeout_us);

  void drop();
  // Points the connection at another node of the same deployment (a Redis Cluster node): drops
  // the current connection; the next ensure_connected() connects there with the same credentials.
  void retarget(std::string host, int port);
  bool connected() const { return _context != nullptr; }
  const RedisUrl& url() const { return _url; }

 private:
  bool peer_closed() const;
  bool set_timeout(platform::TimeUs timeout_us);
  CallResult raw_call(std::span<const std::string_view> argv);

  RedisUrl _url;
  platform::TimeUs _connect_timeout_us;
  redisContext* _context = nullptr;
  platform::TimeUs _timeout_set_us = -1;  // the socket timeout currently set on _context
};

// Text of a string/status/error reply element, or empty.
std::string_view reply_text(const redisReply* reply);

}  // namespace spotcheck::store::redis

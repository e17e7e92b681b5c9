#include "impl/store/redis/redis_connection.h"

#include <poll.h>
#include <sys/time.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <vector>

#include "impl/check/check.h"

namespace spotcheck::store::redis {

namespace {

constexpr platform::TimeUs kMinTimeoutUs = 1'000;
constexpr std::size_t kMaxArgs = 4096;

timeval to_timeval(platform::TimeUs timeout_us) {
  SPOTCHECK_ASSERT(timeout_us > 0);
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout_us / platform::kMicrosPerSecond);
  tv.tv_usec = static_cast<suseconds_t>(timeout_us % platform::kMicrosPerSecond);
  return tv;
}

bool is_error(const redisReply* reply) { return reply != nullptr && reply->type == REDIS_REPLY_ERROR; }

}  // namespace

std::string_view reply_text(const redisReply* reply) {
  if (reply == nullptr) {
    return {};
  }
  if (reply->type == REDIS_REPLY_STRING || reply->type == REDIS_REPLY_STATUS || reply->type == REDIS_REPLY_ERROR) {
    return std::string_view(reply->str, reply->len);
  }
  return {};
}

RedisConnection::RedisConnection(RedisUrl url, platform::TimeUs connect_timeout_us)
    : _url(std::move(url)), _connect_timeout_us(connect_timeout_us) {
  SPOTCHECK_ASSERT(_connect_timeout_us > 0);
}

RedisConnection::~RedisConnection() { drop(); }

void RedisConnection::drop() {
  if (_context != nullptr) {
    redisFree(_context);
    _context = nullptr;
  }
  _timeout_set_us = -1;
}

void RedisConnection::retarget(std::string host, int port) {
  SPOTCHECK_ASSERT(port > 0);
  drop();
  _url.host = std::move(host);
  _url.port = port;
}

bool RedisConnection::peer_closed() const {
  SPOTCHECK_ASSERT(_context != nullptr);
  // Between request/reply pairs nothing may be readable: readable means EOF, reset or junk.
  pollfd pfd{};
  pfd.fd = _context->fd;
  pfd.events = POLLIN;
  const int ready = ::poll(&pfd, 1, 0);
  return ready != 0;
}

bool RedisConnection::set_timeout(platform::TimeUs timeout_us) {
  SPOTCHECK_ASSERT(_context != nullptr);
  // Millisecond granularity keeps the setsockopt calls rare when deadlines barely move.
  const platform::TimeUs rounded_us = std::max(kMinTimeoutUs, timeout_us / kMinTimeoutUs * kMinTimeoutUs);
  if (rounded_us == _timeout_set_us) {
    return true;
  }
  if (redisSetTimeout(_context, to_timeval(rounded_us)) != REDIS_OK) {
    return false;
  }
  _timeout_set_us = rounded_us;
  return true;
}

CallResult RedisConnection::raw_call(std::span<const std::string_view> argv) {
  SPOTCHECK_ASSERT(_context != nullptr);
  SPOTCHECK_ASSERT(!argv.empty());
  SPOTCHECK_ASSERT(argv.size() <= kMaxArgs);
  std::vector<const char*> pointers;
  std::vector<size_t> lengths;
  pointers.reserve(argv.size());
  lengths.reserve(argv.size());
  for (const std::string_view arg : argv) {
    pointers.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  errno = 0;
  void* raw = redisCommandArgv(_context, static_cast<int>(argv.size()), pointers.data(), lengths.data());
  const int saved_errno = errno;
  CallResult result;
  if (raw != nullptr) {
    result.reply.reset(static_cast<redisReply*>(raw));
    return result;
  }
  const bool timed_out =
      _context->err == REDIS_ERR_IO && (saved_errno == EAGAIN || saved_errno == EWOULDBLOCK);
  result.failure = timed_out ? CallFailure::kTimedOut : CallFailure::kLost;
  result.message = std::string(timed_out ? "no reply within the timeout from " : "connection lost to ") +
                   _url.redacted() + ": " + _context->errstr;
  drop();
  return result;
}

std::string RedisConnection::ensure_connected(platform::TimeUs timeout_us) {
  if (_context != nullptr && peer_closed()) {
    drop();
  }
  if (_context != nullptr) {
    return {};
  }
  if (timeout_us <= 0) {
    return "no time left to connect to " + _url.redacted();
  }
  const platform::TimeUs connect_us = std::max(kMinTimeoutUs, std::min(timeout_us, _connect_timeout_us));
  _context = redisConnectWithTimeout(_url.host.c_str(), _url.port, to_timeval(connect_us));
  if (_context == nullptr) {
    return "cannot connect to " + _url.redacted() + ": out of memory";
  }
  if (_context->err != 0) {
    std::string message = "cannot connect to " + _url.redacted() + ": " + _context->errstr;
    drop();
    return message;
  }
  if (!set_timeout(connect_us)) {
    std::string message = "cannot set a socket timeout on " + _url.redacted();
    drop();
    return message;
  }
  // Handshake: failures here changed nothing in the store.
  std::vector<std::string_view> auth;
  if (!_url.password.empty()) {
    auth.push_back("AUTH");
    if (!_url.user.empty()) {
      auth.push_back(_url.user);
    }
    auth.push_back(_url.password);
    CallResult r = raw_call(auth);
    if (r.failure != CallFailure::kNone) {
      return "authentication to " + _url.redacted() + " got no answer: " + r.message;
    }
    if (is_error(r.reply.get())) {
      std::string message = "authentication to " + _url.redacted() + " failed: " + std::string(reply_text(r.reply.get()));
      drop();
      return message;
    }
  }
  if (_url.db != 0) {
    const std::string db = std::to_string(_url.db);
    const std::array<std::string_view, 2> select{"SELECT", db};
    CallResult r = raw_call(select);
    if (r.failure != CallFailure::kNone) {
      return "SELECT " + db + " on " + _url.redacted() + " got no answer: " + r.message;
    }
    if (is_error(r.reply.get())) {
      std::string message = "SELECT " + db + " on " + _url.redacted() + " failed: " + std::string(reply_text(r.reply.get()));
      drop();
      return message;
    }
  }
  SPOTCHECK_ASSERT(_context != nullptr);
  return {};
}

CallResult RedisConnection::call(std::span<const std::string_view> argv, platform::TimeUs timeout_us) {
  if (timeout_us <= 0) {
    return CallResult{nullptr, CallFailure::kNoTimeLeft, "the deadline passed before the request was sent"};
  }
  if (_context == nullptr) {
    return CallResult{nullptr, CallFailure::kNotSent, "not connected to " + _url.redacted()};
  }
  if (!set_timeout(timeout_us)) {
    drop();
    return CallResult{nullptr, CallFailure::kNotSent, "cannot set a socket timeout on " + _url.redacted()};
  }
  return raw_call(argv);
}

}  // namespace spotcheck::store::redis

// Parses redis://[user:password@]host[:port][/db] (docs/redis.md, "URL").
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace spotcheck::store::redis {

struct RedisUrl {
  std::string host;
  int port = 6379;
  std::string user;      // empty: AUTH with the password only (the "default" user)
  std::string password;  // empty: no AUTH
  int db = 0;
  // redis://[user@]host:port/db with the password left out, for messages.
  std::string redacted() const;
  // The whole URL, user and password %XX-escaped: parse_redis_url(text()) gives this URL back.
  // Holds the password: never print it.
  std::string text() const;
};

struct RedisUrlParse {
  std::optional<RedisUrl> url;
  std::string error;  // one line, set when url is empty
};

// Accepts redis://host:port, redis://host (port 6379), redis://user:password@host:port/db,
// redis://:password@host:port, redis://[::1]:port. User and password may be %XX-escaped.
RedisUrlParse parse_redis_url(std::string_view text);
// The same, but the error never quotes the text (for a URL read from a file or the environment,
// where any part may be a secret).
RedisUrlParse parse_redis_url_unquoted(std::string_view text);

}  // namespace spotcheck::store::redis

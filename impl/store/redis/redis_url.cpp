#include "impl/store/redis/redis_url.h"

#include <charconv>

#include "impl/bytes/hex.h"
#include "impl/check/check.h"
#include "impl/json_guard/json_guard.h"

namespace spotcheck::store::redis {

namespace {

constexpr std::string_view kScheme = "redis://";
constexpr int kMaxPort = 65535;
constexpr int kMaxDb = 1'000'000;

RedisUrlParse make_failure(std::string_view text, bool quote, const std::string& why) {
  RedisUrlParse out;
  // Never echo a password: show the text only when it has no userinfo. A control character in it
  // is escaped (found by tests/fuzz/redis_url_fuzzer: a newline in --url split the error line).
  const bool has_userinfo = text.find('@') != std::string_view::npos;
  const bool shown = quote && !has_userinfo;
  out.error = "malformed redis URL" + (shown ? " '" + json_guard::one_line(text) + "'" : std::string()) + ": " + why +
              " (expected redis://[user:password@]host:port[/db])";
  return out;
}

std::string percent_encode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                            c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out.push_back(c);
    } else {
      out.push_back('%');
      bytes::append_hex_byte(out, b, /*upper=*/true);
    }
  }
  return out;
}

std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(text[i]);
      continue;
    }
    if (i + 2 >= text.size()) {
      return std::nullopt;
    }
    const int hi = bytes::hex_value(text[i + 1]);
    const int lo = bytes::hex_value(text[i + 2]);
    if (hi < 0 || lo < 0) {
      return std::nullopt;
    }
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

std::optional<int> parse_decimal(std::string_view text, int max) {
  if (text.empty() || text.size() > 9) {
    return std::nullopt;
  }
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0 || value > max) {
    return std::nullopt;
  }
  return value;
}

bool valid_host(std::string_view host) {
  for (const char c : host) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '-' || c == '_' || c == ':';
    if (!ok) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string RedisUrl::redacted() const {
  std::string out(kScheme);
  if (!user.empty()) {
    out += user + "@";
  }
  out += host.find(':') != std::string::npos ? "[" + host + "]" : host;
  out += ":" + std::to_string(port);
  if (db != 0) {
    out += "/" + std::to_string(db);
  }
  return out;
}

std::string RedisUrl::text() const {
  std::string out(kScheme);
  if (!user.empty() || !password.empty()) {
    out += percent_encode(user) + ":" + percent_encode(password) + "@";
  }
  out += host.find(':') != std::string::npos ? "[" + host + "]" : host;
  out += ":" + std::to_string(port);
  if (db != 0) {
    out += "/" + std::to_string(db);
  }
  return out;
}

namespace {

RedisUrlParse parse(std::string_view text, bool quote) {
  const auto fail = [text, quote](const std::string& why) { return make_failure(text, quote, why); };
  if (text.substr(0, kScheme.size()) != kScheme) {
    return fail("the scheme must be redis://");
  }
  std::string_view rest = text.substr(kScheme.size());
  if (rest.find_first_of("?#") != std::string_view::npos) {
    return fail("query strings and fragments are not supported");
  }
  RedisUrl url;

  // Path: /db
  const std::size_t slash = rest.find('/');
  if (slash != std::string_view::npos) {
    const std::string_view path = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
    if (!path.empty()) {
      const auto db = parse_decimal(path, kMaxDb);
      if (!db) {
        return fail("the database must be a decimal number");
      }
      url.db = *db;
    }
  }

  // Userinfo: user:password@ or :password@
  const std::size_t at = rest.rfind('@');
  if (at != std::string_view::npos) {
    const std::string_view userinfo = rest.substr(0, at);
    rest = rest.substr(at + 1);
    const std::size_t colon = userinfo.find(':');
    if (colon == std::string_view::npos) {
      return fail("userinfo must be user:password or :password");
    }
    auto user = percent_decode(userinfo.substr(0, colon));
    auto password = percent_decode(userinfo.substr(colon + 1));
    if (!user || !password) {
      return fail("bad %-escape in user or password");
    }
    if (password->empty()) {
      return fail("the password is empty");
    }
    url.user = std::move(*user);
    url.password = std::move(*password);
  }

  // Host and port: host, host:port, [v6], [v6]:port
  std::string_view port_text;
  if (!rest.empty() && rest.front() == '[') {
    const std::size_t close = rest.find(']');
    if (close == std::string_view::npos) {
      return fail("unclosed [ in an IPv6 host");
    }
    url.host = std::string(rest.substr(1, close - 1));
    const std::string_view after = rest.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') {
        return fail("unexpected text after ]");
      }
      port_text = after.substr(1);
      if (port_text.empty()) {
        return fail("empty port");
      }
    }
  } else {
    const std::size_t colon = rest.find(':');
    url.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) {
      port_text = rest.substr(colon + 1);
      if (port_text.empty()) {
        return fail("empty port");
      }
    }
    if (url.host.find(':') != std::string::npos) {
      return fail("an IPv6 host must be written in [ ]");
    }
  }
  if (url.host.empty()) {
    return fail("the host is empty");
  }
  if (!valid_host(url.host)) {
    return fail("the host has characters a host name cannot have");
  }
  if (!port_text.empty()) {
    const auto port = parse_decimal(port_text, kMaxPort);
    if (!port || *port == 0) {
      return fail("the port must be a number 1..65535");
    }
    url.port = *port;
  }
  SPOTCHECK_ASSERT(!url.host.empty());
  SPOTCHECK_ASSERT(url.port > 0);
  RedisUrlParse out;
  out.url = std::move(url);
  return out;
}

}  // namespace

RedisUrlParse parse_redis_url(std::string_view text) { return parse(text, true); }

RedisUrlParse parse_redis_url_unquoted(std::string_view text) { return parse(text, false); }

}  // namespace spotcheck::store::redis

#include "impl/store/redis/redis_url.h"

#include <charconv>
#include <variant>

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

// Why a part of the URL is malformed: the phase that read it stops the parse with this.
struct Malformed {
  std::string why;
};

// The text before "/db", and the database it names (0 when there is no path).
struct WithoutPath {
  std::string_view rest;
  int db = 0;
};

std::variant<WithoutPath, Malformed> split_path(std::string_view rest) {
  const std::size_t slash = rest.find('/');
  if (slash == std::string_view::npos) {
    return WithoutPath{rest, 0};
  }
  const std::string_view path = rest.substr(slash + 1);
  if (path.empty()) {
    return WithoutPath{rest.substr(0, slash), 0};
  }
  const auto db = parse_decimal(path, kMaxDb);
  if (!db) {
    return Malformed{"the database must be a decimal number"};
  }
  return WithoutPath{rest.substr(0, slash), *db};
}

// The text after "user:password@" or ":password@", and the decoded user and password (both empty
// when there is no userinfo).
struct WithoutUserinfo {
  std::string_view rest;
  std::string user;
  std::string password;
};

std::variant<WithoutUserinfo, Malformed> split_userinfo(std::string_view rest) {
  const std::size_t at = rest.rfind('@');
  if (at == std::string_view::npos) {
    return WithoutUserinfo{rest, {}, {}};
  }
  const std::string_view userinfo = rest.substr(0, at);
  const std::size_t colon = userinfo.find(':');
  if (colon == std::string_view::npos) {
    return Malformed{"userinfo must be user:password or :password"};
  }
  auto user = percent_decode(userinfo.substr(0, colon));
  auto password = percent_decode(userinfo.substr(colon + 1));
  if (!user || !password) {
    return Malformed{"bad %-escape in user or password"};
  }
  if (password->empty()) {
    return Malformed{"the password is empty"};
  }
  return WithoutUserinfo{rest.substr(at + 1), std::move(*user), std::move(*password)};
}

// The host and the port's text (empty: the default port) of host, host:port, [v6] or [v6]:port;
// `port` is the port's number once checked_host read it (0: the default port).
struct HostAndPort {
  std::string host;
  std::string_view port_text;
  int port = 0;
};

std::variant<HostAndPort, Malformed> split_bracketed_host(std::string_view rest) {
  const std::size_t close = rest.find(']');
  if (close == std::string_view::npos) {
    return Malformed{"unclosed [ in an IPv6 host"};
  }
  HostAndPort out{std::string(rest.substr(1, close - 1)), {}, 0};
  const std::string_view after = rest.substr(close + 1);
  if (after.empty()) {
    return out;
  }
  if (after.front() != ':') {
    return Malformed{"unexpected text after ]"};
  }
  out.port_text = after.substr(1);
  if (out.port_text.empty()) {
    return Malformed{"empty port"};
  }
  return out;
}

std::variant<HostAndPort, Malformed> split_host(std::string_view rest) {
  if (!rest.empty() && rest.front() == '[') {
    return split_bracketed_host(rest);
  }
  const std::size_t colon = rest.find(':');
  HostAndPort out{std::string(rest.substr(0, colon)), {}, 0};
  if (colon != std::string_view::npos) {
    out.port_text = rest.substr(colon + 1);
    if (out.port_text.empty()) {
      return Malformed{"empty port"};
    }
  }
  if (out.host.find(':') != std::string::npos) {
    return Malformed{"an IPv6 host must be written in [ ]"};
  }
  return out;
}

// The host and port of `rest`, checked: a host name's characters, a port 1..65535.
std::variant<HostAndPort, Malformed> checked_host(std::string_view rest) {
  auto split = split_host(rest);
  if (auto* host = std::get_if<HostAndPort>(&split)) {
    if (host->host.empty()) {
      return Malformed{"the host is empty"};
    }
    if (!valid_host(host->host)) {
      return Malformed{"the host has characters a host name cannot have"};
    }
    if (!host->port_text.empty()) {
      const auto port = parse_decimal(host->port_text, kMaxPort);
      if (!port || *port == 0) {
        return Malformed{"the port must be a number 1..65535"};
      }
      host->port = *port;
    }
  }
  return split;
}

// The URL's parts, read from the outside in: scheme, /db, userinfo, host and port.
std::variant<RedisUrl, Malformed> read_url(std::string_view text) {
  if (text.substr(0, kScheme.size()) != kScheme) {
    return Malformed{"the scheme must be redis://"};
  }
  const std::string_view after_scheme = text.substr(kScheme.size());
  if (after_scheme.find_first_of("?#") != std::string_view::npos) {
    return Malformed{"query strings and fragments are not supported"};
  }
  auto path = split_path(after_scheme);
  if (auto* bad = std::get_if<Malformed>(&path)) {
    return std::move(*bad);
  }
  auto userinfo = split_userinfo(std::get<WithoutPath>(path).rest);
  if (auto* bad = std::get_if<Malformed>(&userinfo)) {
    return std::move(*bad);
  }
  auto& credentials = std::get<WithoutUserinfo>(userinfo);
  auto host = checked_host(credentials.rest);
  if (auto* bad = std::get_if<Malformed>(&host)) {
    return std::move(*bad);
  }
  RedisUrl url;
  url.db = std::get<WithoutPath>(path).db;
  url.user = std::move(credentials.user);
  url.password = std::move(credentials.password);
  url.host = std::move(std::get<HostAndPort>(host).host);
  if (const int port = std::get<HostAndPort>(host).port; port != 0) {
    url.port = port;
  }
  SPOTCHECK_ASSERT(!url.host.empty());
  SPOTCHECK_ASSERT(url.port > 0);
  return url;
}

RedisUrlParse parse(std::string_view text, bool quote) {
  auto read = read_url(text);
  if (auto* bad = std::get_if<Malformed>(&read)) {
    return make_failure(text, quote, bad->why);
  }
  RedisUrlParse out;
  out.url = std::move(std::get<RedisUrl>(read));
  return out;
}

}  // namespace

RedisUrlParse parse_redis_url(std::string_view text) { return parse(text, true); }

RedisUrlParse parse_redis_url_unquoted(std::string_view text) { return parse(text, false); }

}  // namespace spotcheck::store::redis

#include "tests/store_redis/namespace_dump.h"

#include <array>
#include <string_view>

#include "impl/store/redis/reply_parse.h"

namespace spotcheck::store::redis::testing {

namespace {

constexpr std::size_t kMaxKeys = 100'000;

// A printable rendering of a key name (namespaces and hashes are text; index bytes are not).
std::string printable(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out.push_back(c);
    } else {
      out += "\\x" + std::string(1, "0123456789abcdef"[byte >> 4]) + "0123456789abcdef"[byte & 15];
    }
  }
  return out;
}

// The reply of one command about `key`, or an error text.
struct Reply {
  ReplyPtr reply;
  std::string error;
};
Reply ask(RedisSession& session, std::string_view command, std::string_view key) {
  const std::array<std::string_view, 2> argv{command, key};
  CallResult r = session.command(argv);
  if (r.failure != CallFailure::kNone) {
    return Reply{nullptr, std::string(command) + " failed: " + r.message};
  }
  if (r.reply->type == REDIS_REPLY_ERROR) {
    return Reply{nullptr, std::string(command) + " failed: " + std::string(reply_text(r.reply.get()))};
  }
  return Reply{std::move(r.reply), {}};
}

}  // namespace

NamespaceDump dump_namespace(RedisSession& session) {
  NamespaceDump out;
  RedisSession::KeyList listed = session.list_keys(kMaxKeys);
  if (!listed.error.empty()) {
    out.error = listed.error;
    return out;
  }
  for (const std::string& key : listed.keys) {
    Reply type = ask(session, "TYPE", key);
    Reply dump = ask(session, "DUMP", key);
    Reply expiry = ask(session, "PEXPIRETIME", key);
    for (const Reply* r : {&type, &dump, &expiry}) {
      if (!r->error.empty()) {
        out.error = printable(key) + ": " + r->error;
        return out;
      }
    }
    out.keys[key] = KeyDump{std::string(reply_text(type.reply.get())), std::string(reply_text(dump.reply.get())),
                            reply_int(expiry.reply.get()).value_or(-3)};
  }
  return out;
}

void PrintTo(const NamespaceDump& dump, std::ostream* out) {
  *out << dump.keys.size() << " keys" << (dump.error.empty() ? "" : " (" + dump.error + ")");
}

std::string describe_difference(const NamespaceDump& before, const NamespaceDump& after) {
  std::string out;
  for (const auto& [key, dump] : before.keys) {
    const auto found = after.keys.find(key);
    if (found == after.keys.end()) {
      out += "- " + printable(key) + " (" + dump.type + ")\n";
    } else if (!(found->second == dump)) {
      out += "~ " + printable(key) + " (" + dump.type + " -> " + found->second.type + ")\n";
    }
  }
  for (const auto& [key, dump] : after.keys) {
    if (before.keys.find(key) == before.keys.end()) {
      out += "+ " + printable(key) + " (" + dump.type + ")\n";
    }
  }
  return out + before.error + after.error;
}

}  // namespace spotcheck::store::redis::testing

// Redis provider pieces that need no server: URL parsing, key layout, continuation tokens, cluster
// routing (hash tags, INFO, MOVED/ASK, CLUSTER SLOTS).
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "impl/store/redis/cluster_route.h"
#include "impl/store/redis/key_layout.h"
#include "impl/store/redis/redis_connection.h"
#include "impl/store/redis/redis_url.h"
#include "impl/store/redis/scan_token.h"

namespace spotcheck::store::redis {
namespace {

TEST(RedisUrl, ParsesHostPortUserPasswordAndDb) {
  const RedisUrlParse parsed = parse_redis_url("redis://alice:s%40cret@db.example:6380/3");
  ASSERT_TRUE(parsed.url.has_value()) << parsed.error;
  EXPECT_EQ(parsed.url->host, "db.example");
  EXPECT_EQ(parsed.url->port, 6380);
  EXPECT_EQ(parsed.url->user, "alice");
  EXPECT_EQ(parsed.url->password, "s@cret");
  EXPECT_EQ(parsed.url->db, 3);
  EXPECT_EQ(parsed.url->redacted(), "redis://alice@db.example:6380/3");
}

TEST(RedisUrl, DefaultsPortAndDbAndAcceptsPasswordOnlyAndIpv6) {
  const RedisUrlParse plain = parse_redis_url("redis://127.0.0.1");
  ASSERT_TRUE(plain.url.has_value()) << plain.error;
  EXPECT_EQ(plain.url->port, 6379);
  EXPECT_EQ(plain.url->db, 0);
  EXPECT_TRUE(plain.url->user.empty());
  EXPECT_TRUE(plain.url->password.empty());

  const RedisUrlParse password_only = parse_redis_url("redis://:pw@localhost:7000/");
  ASSERT_TRUE(password_only.url.has_value()) << password_only.error;
  EXPECT_TRUE(password_only.url->user.empty());
  EXPECT_EQ(password_only.url->password, "pw");
  EXPECT_EQ(password_only.url->port, 7000);

  const RedisUrlParse v6 = parse_redis_url("redis://[::1]:7001");
  ASSERT_TRUE(v6.url.has_value()) << v6.error;
  EXPECT_EQ(v6.url->host, "::1");
  EXPECT_EQ(v6.url->port, 7001);
  EXPECT_EQ(v6.url->redacted(), "redis://[::1]:7001");
}

TEST(RedisUrl, MalformedUrlsGiveOneLineErrorsWithoutThePassword) {
  const std::vector<std::string> bad = {
      "",
      "http://localhost:6379",
      "redis://",
      "redis://:6379",
      "redis://host:",
      "redis://host:abc",
      "redis://host:0",
      "redis://host:70000",
      "redis://host:6379/x",
      "redis://host:6379/1?timeout=3",
      "redis://user@host:6379",
      "redis://user:@host:6379",
      "redis://user:topsecret%zz@host:6379",
      "redis://[::1:6379",
      "redis://::1:6379",
      "redis://ho st:6379",
      "redis:redis://h631\001//[::1\001\n",  // tests/fuzz/corpus/redis_url/issue9-newline-in-error
      "redis://host:6379/\r\n1",
  };
  for (const std::string& text : bad) {
    const RedisUrlParse parsed = parse_redis_url(text);
    EXPECT_FALSE(parsed.url.has_value()) << text;
    EXPECT_NE(parsed.error.find("malformed redis URL"), std::string::npos) << text << " -> " << parsed.error;
    EXPECT_EQ(parsed.error.find('\n'), std::string::npos) << text;
    EXPECT_EQ(parsed.error.find("topsecret"), std::string::npos) << parsed.error;
  }
}

TEST(RedisUrl, TextRoundTripsEscapedCredentialsAndUnquotedErrorsNeverShowTheText) {
  RedisUrl url;
  url.host = "::1";
  url.port = 7000;
  url.user = "us er";
  url.password = "p@ss:w/rd%\x01";
  url.db = 3;
  const RedisUrlParse back = parse_redis_url(url.text());
  ASSERT_TRUE(back.url.has_value()) << back.error;
  EXPECT_EQ(back.url->host, url.host);
  EXPECT_EQ(back.url->port, url.port);
  EXPECT_EQ(back.url->user, url.user);
  EXPECT_EQ(back.url->password, url.password);
  EXPECT_EQ(back.url->db, url.db);
  url.user.clear();
  ASSERT_TRUE(parse_redis_url(url.text()).url.has_value());
  EXPECT_EQ(parse_redis_url(url.text()).url->password, url.password);

  // Without an '@' the plain parser quotes the text; the unquoted one never does.
  EXPECT_NE(parse_redis_url("redis://host:secret").error.find("secret"), std::string::npos);
  const RedisUrlParse unquoted = parse_redis_url_unquoted("redis://host:secret");
  EXPECT_FALSE(unquoted.url.has_value());
  EXPECT_EQ(unquoted.error.find("secret"), std::string::npos) << unquoted.error;
  EXPECT_EQ(unquoted.error.rfind("malformed redis URL: ", 0), 0U) << unquoted.error;
  EXPECT_TRUE(parse_redis_url_unquoted("redis://127.0.0.1:6379").url.has_value());
}

TEST(RedisKeyLayout, ProviderKeysAreTheLayoutsNamesOnly) {
  const std::string ns = "n:";
  for (const char* name : {"provider", "scan-secret", "idx", "seq", "scans", "scansnap", "gcq", "scanseq",
                           "rec:ab", "hist:ab", "old:ab:1", "reloc:ab"}) {
    EXPECT_TRUE(is_provider_key(ns, ns + name)) << name;
  }
  for (const char* name : {"", "rec:", "idx2", "someone", "Provider"}) {
    EXPECT_FALSE(is_provider_key(ns, ns + name)) << name;
  }
  EXPECT_FALSE(is_provider_key(ns, "m:idx"));
  EXPECT_EQ(provider_shared_keys(ns).size(), 6U);
  for (const std::string& key : provider_shared_keys(ns)) {
    EXPECT_TRUE(is_provider_key(ns, key)) << key;
  }
}

TEST(RedisKeyLayout, RecordKeyIsNamespaceRecSha256Hex) {
  // SHA-256("abc"), FIPS 180-2 test vector.
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(record_key(kDefaultNamespace, "abc"),
            "zlink:v11:rec:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(relocation_key("ns:", "abc"), "ns:reloc:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_NE(record_key("ns:", "abc"), relocation_key("ns:", "abc"));
}

TEST(RedisKeyLayout, IndexMembersSortLikeKeysAndDecodeBack) {
  std::mt19937 random(20240611);  // fixed seed: the same keys every run
  const std::string alphabet("\x00\x01\x02\xfe\xff" "a", 6);
  std::vector<Key> keys;
  for (int i = 0; i < 3000; ++i) {
    Key key;
    const std::size_t length = 1 + random() % 6;
    for (std::size_t j = 0; j < length; ++j) {
      key.push_back(alphabet[random() % alphabet.size()]);
    }
    keys.push_back(key);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  ASSERT_GT(keys.size(), 1000U);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string member = index_member(keys[i]);
    const auto decoded = key_of_index_member(member);
    ASSERT_TRUE(decoded.has_value());
    EXPECT_EQ(*decoded, keys[i]);
    if (i > 0) {
      EXPECT_LT(index_member(keys[i - 1]), member) << "member order differs from key order at " << i;
    }
    // Range bounds: [bound(k) includes k's member; (bound(k) ... never cuts through a member.
    EXPECT_LT(index_bound(keys[i]), member);
    if (i + 1 < keys.size()) {
      EXPECT_LT(member, index_bound(keys[i + 1]));
    }
  }
}

TEST(RedisKeyLayout, ForeignMembersAreRejected) {
  EXPECT_FALSE(key_of_index_member("").has_value());
  EXPECT_FALSE(key_of_index_member("short").has_value());
  std::string member = index_member("key");
  member[0] = 'K';  // the sha no longer matches the key
  EXPECT_FALSE(key_of_index_member(member).has_value());
  EXPECT_FALSE(key_of_index_member(std::string("key") + std::string(66, 'a')).has_value());
}

TEST(RedisKeyLayout, GlobEscapeQuotesSpecials) {
  EXPECT_EQ(glob_escape("zlink:v11:"), "zlink:v11:");
  EXPECT_EQ(glob_escape("a*b?c[d]e\\"), "a\\*b\\?c\\[d\\]e\\\\");
}

TEST(RedisClusterRoute, HashTagIsTheNamespacesFirstNonEmptyBraceText) {
  EXPECT_EQ(namespace_hash_tag("{zlink:v11}:"), "zlink:v11");
  EXPECT_EQ(namespace_hash_tag("app:{zlink}:v11:"), "zlink");
  EXPECT_EQ(namespace_hash_tag("{a}{b}:"), "a");
  EXPECT_EQ(namespace_hash_tag("{a{b}:"), "a{b");  // like Redis: the first '}' after the first '{'
  for (const char* untagged : {"zlink:v11:", "{}zlink:", "zlink:{v11:", "}{:"}) {
    EXPECT_EQ(namespace_hash_tag(untagged), "") << untagged;
  }
  // The default namespace keeps producing the golden fixture's keys; a tagged one only prefixes.
  EXPECT_EQ(record_key(kDefaultNamespace, "k").rfind("zlink:v11:rec:", 0), 0U);
  EXPECT_EQ(record_key("{zlink:v11}:", "k"), "{zlink:v11}:rec:" + sha256_hex("k"));
  EXPECT_EQ(sequence_key("{zlink:v11}:"), "{zlink:v11}:seq");
}

TEST(RedisClusterRoute, AnUntaggedNamespaceGetsOneClearLine) {
  EXPECT_EQ(cluster_namespace_error("{zlink:v11}:"), "");
  EXPECT_EQ(cluster_namespace_error("zlink:v11:"),
            "redis cluster needs a hash-tagged namespace such as \"{zlink:v11}:\"; got \"zlink:v11:\"");
}

TEST(RedisClusterRoute, InfoAndRedirectsAreParsed) {
  EXPECT_TRUE(info_says_cluster("# Cluster\r\ncluster_enabled:1\r\n"));
  EXPECT_FALSE(info_says_cluster("# Cluster\r\ncluster_enabled:0\r\n"));
  EXPECT_FALSE(info_says_cluster(""));
  const auto moved = redirect_target("MOVED 5182 127.0.0.1:23461");
  ASSERT_TRUE(moved.has_value());
  EXPECT_EQ(moved->host, "127.0.0.1");
  EXPECT_EQ(moved->port, 23461);
  const auto ask = redirect_target("ASK 1 ::1:7000");
  ASSERT_TRUE(ask.has_value());
  EXPECT_EQ(ask->host, "::1");
  EXPECT_EQ(ask->port, 7000);
  const auto unknown_host = redirect_target("MOVED 3999 :6380");
  ASSERT_TRUE(unknown_host.has_value());
  EXPECT_EQ(unknown_host->host, "");
  for (const char* other : {"NOSCRIPT No matching script", "MOVED", "MOVED x 1.2.3.4:5", "MOVED 1 host", "MOVED 1 h:0",
                            "ERR MOVED 1 h:1"}) {
    EXPECT_FALSE(redirect_target(other).has_value()) << other;
  }
}

// A reply as hiredis parses it from RESP bytes (what the server would send).
ReplyPtr parse_resp(std::string_view resp) {
  redisReader* reader = redisReaderCreate();
  EXPECT_EQ(redisReaderFeed(reader, resp.data(), resp.size()), REDIS_OK);
  void* reply = nullptr;
  EXPECT_EQ(redisReaderGetReply(reader, &reply), REDIS_OK);
  redisReaderFree(reader);
  EXPECT_NE(reply, nullptr) << resp;
  return ReplyPtr(static_cast<redisReply*>(reply));
}

// "*4 host port id {}" (Redis 7's node entry of CLUSTER SLOTS, RESP2).
std::string slots_node(std::string_view host, int port) {
  const std::string port_text = std::to_string(port);
  return "*4\r\n$" + std::to_string(host.size()) + "\r\n" + std::string(host) + "\r\n:" + port_text +
         "\r\n$40\r\n" + std::string(40, 'f') + "\r\n*0\r\n";
}

TEST(RedisClusterRoute, TheSlotOwnerIsTheMasterOfTheRangeHoldingTheSlot) {
  // Slots 0-5460 on :7001 (with a replica :7004), 5461-10922 missing (a failed master),
  // 10923-16383 on :7003 under an empty host ("the host you asked").
  const ReplyPtr slots = parse_resp("*2\r\n*4\r\n:0\r\n:5460\r\n" + slots_node("127.0.0.1", 7001) +
                                    slots_node("127.0.0.1", 7004) + "*3\r\n:10923\r\n:16383\r\n" +
                                    slots_node("", 7003));
  ASSERT_NE(slots, nullptr);
  for (const long long slot : {0LL, 42LL, 5460LL}) {
    const auto owner = slot_owner(slots.get(), slot);
    ASSERT_TRUE(owner.has_value()) << slot;
    EXPECT_EQ(owner->host, "127.0.0.1");
    EXPECT_EQ(owner->port, 7001) << "the master, never the replica";
  }
  for (const long long slot : {10923LL, 16383LL}) {
    const auto owner = slot_owner(slots.get(), slot);
    ASSERT_TRUE(owner.has_value()) << slot;
    EXPECT_EQ(owner->host, "");
    EXPECT_EQ(owner->port, 7003);
  }
  for (const long long slot : {5461LL, 10922LL}) {
    EXPECT_FALSE(slot_owner(slots.get(), slot).has_value()) << "no range serves " << slot;
  }
  EXPECT_FALSE(slot_owner(parse_resp("-ERR This instance has cluster support disabled\r\n").get(), 0).has_value());
  EXPECT_FALSE(slot_owner(parse_resp("*0\r\n").get(), 0).has_value());
  EXPECT_FALSE(slot_owner(parse_resp("*1\r\n*3\r\n:0\r\n:16383\r\n" + slots_node("h", 0)).get(), 7).has_value())
      << "port 0 is no node";
}

TEST(RedisScanToken, RoundTripsAndStaysWithinTheLimit) {
  const ScanBinding binding{"ns:", "start", "end"};
  ScanCursor cursor{42, 7, Key(kMaxKeyBytes, '\xff')};
  const Bytes token = encode_continuation(cursor, "secret", binding);
  EXPECT_LE(token.size(), kMaxContinuationBytes);
  const auto decoded = decode_continuation(token, "secret", binding);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->scan_id, 42U);
  EXPECT_EQ(decoded->snapshot, 7U);
  EXPECT_EQ(decoded->last_key, cursor.last_key);
}

TEST(RedisScanToken, ForeignGarbledOrRetargetedTokensAreRejected) {
  const ScanBinding binding{"ns:", "a", "b"};
  const Bytes token = encode_continuation(ScanCursor{1, 2, "last"}, "secret", binding);
  ASSERT_TRUE(decode_continuation(token, "secret", binding).has_value());
  EXPECT_FALSE(decode_continuation(token, "other secret", binding).has_value());
  EXPECT_FALSE(decode_continuation(token, "secret", ScanBinding{"ns2:", "a", "b"}).has_value());
  EXPECT_FALSE(decode_continuation(token, "secret", ScanBinding{"ns:", "a", "c"}).has_value());
  EXPECT_FALSE(decode_continuation(token, "secret", ScanBinding{"ns:", "", "b"}).has_value());
  for (std::size_t i = 0; i < token.size(); ++i) {
    Bytes flipped = token;
    flipped[i] = static_cast<char>(flipped[i] ^ 0x01);
    EXPECT_FALSE(decode_continuation(flipped, "secret", binding).has_value()) << "byte " << i;
  }
  EXPECT_FALSE(decode_continuation(token.substr(1), "secret", binding).has_value());
  EXPECT_FALSE(decode_continuation(token + "x", "secret", binding).has_value());
  EXPECT_FALSE(decode_continuation("", "secret", binding).has_value());
}

}  // namespace
}  // namespace spotcheck::store::redis

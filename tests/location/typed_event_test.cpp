// Typed events (impl/platform/event_fields.h): an event struct's one field declaration writes the
// fields in declared order and reads them back, and a missing or mistyped field is reported by
// name. The authority.* struct is the one authority_ops.cpp emits and the checkers decode.
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "impl/location/events/authority_events.h"
#include "impl/platform/event_fields.h"

namespace spotcheck::location::events {
namespace {

using platform::Field;

// Records what one emit_event call wrote.
class CapturingSink final : public platform::EventSink {
 public:
  using platform::EventSink::emit;
  void emit(std::string_view kind, std::span<const Field> fields) override {
    last_kind = std::string(kind);
    last.assign(fields.begin(), fields.end());
  }
  std::string last_kind;
  std::vector<Field> last;
};

AuthorityChanged sample(bool with_previous) {
  AuthorityChanged e;
  e.kind = "actor";
  e.id = "user:42";
  e.object_gen = 7;
  e.owner_gen = 3;
  e.owner = "owner-a";
  e.lease_gen = 11;
  e.state = "active";
  e.object_kind = "actor";
  e.stable_type = "User";
  e.mesh = "sim";
  e.rid = "aa01";
  e.outcome = "applied";
  e.version = 19;
  e.store_now_ms = 1'000;
  e.resolved = 1;
  e.by_owner = "owner-a";
  e.by_lease_gen = 11;
  e.via = "explicit";
  e.has_previous = with_previous;
  if (with_previous) {
    e.previous = AuthorityPrevious{"owner-b", 5, 2, 7, "sim", "bb02"};
  }
  return e;
}

std::vector<std::string> keys_of(const std::vector<Field>& fields) {
  std::vector<std::string> keys;
  for (const Field& field : fields) {
    keys.emplace_back(field.key);
  }
  return keys;
}

TEST(TypedEvent, WritesTheDeclaredFieldsInOrder) {
  CapturingSink sink;
  platform::emit_event(sink, "authority.commit", sample(false));
  EXPECT_EQ(sink.last_kind, "authority.commit");
  const std::vector<std::string> expected{"kind",    "id",      "object_gen",   "owner_gen", "owner",
                                          "lease_gen", "state", "object_kind",  "stable_type", "mesh",
                                          "rid",     "outcome", "cause",        "version",   "store_now_ms",
                                          "resolved", "by_owner", "by_lease_gen", "via"};
  EXPECT_EQ(keys_of(sink.last), expected);
  EXPECT_TRUE(sink.last[0].is_text);
  EXPECT_FALSE(sink.last[2].is_text);
  EXPECT_EQ(sink.last[2].number, 7);
}

TEST(TypedEvent, AGroupIsWrittenOnlyWhenPresent) {
  CapturingSink sink;
  platform::emit_event(sink, "authority.new_owner", sample(true));
  ASSERT_EQ(sink.last.size(), 25u);
  EXPECT_EQ(sink.last[19].key, "prev_owner");
  EXPECT_EQ(sink.last[19].text, "owner-b");
  EXPECT_EQ(sink.last[24].key, "prev_rid");
}

TEST(TypedEvent, DecodesWhatItWrote) {
  for (const bool with_previous : {false, true}) {
    CapturingSink sink;
    const AuthorityChanged original = sample(with_previous);
    platform::emit_event(sink, "authority.new_owner", original);
    AuthorityChanged back;
    const platform::Decoded decoded = platform::decode_event(sink.last, back);
    ASSERT_TRUE(decoded.ok) << decoded.missing;
    EXPECT_EQ(back.id, original.id);
    EXPECT_EQ(back.object_gen, original.object_gen);
    EXPECT_EQ(back.resolved, 1);
    EXPECT_EQ(back.via, "explicit");
    EXPECT_EQ(back.has_previous, with_previous);
    EXPECT_EQ(back.previous.owner, original.previous.owner);
    EXPECT_EQ(back.previous.rid, original.previous.rid);
  }
}

TEST(TypedEvent, DecodesFieldsOutOfOrder) {
  CapturingSink sink;
  platform::emit_event(sink, "authority.commit", sample(false));
  std::vector<Field> reversed(sink.last.rbegin(), sink.last.rend());
  AuthorityChanged back;
  ASSERT_TRUE(platform::decode_event(reversed, back).ok);
  EXPECT_EQ(back.owner, "owner-a");
  EXPECT_EQ(back.store_now_ms, 1'000);
}

TEST(TypedEvent, NamesTheFirstMissingOrMistypedField) {
  CapturingSink sink;
  platform::emit_event(sink, "authority.commit", sample(false));
  std::vector<Field> without_owner_gen = sink.last;
  without_owner_gen.erase(without_owner_gen.begin() + 3);
  AuthorityChanged back;
  platform::Decoded decoded = platform::decode_event(without_owner_gen, back);
  EXPECT_FALSE(decoded.ok);
  EXPECT_EQ(decoded.missing, "owner_gen");

  std::vector<Field> mistyped = sink.last;
  mistyped[1] = Field::num("id", 42);  // id must be text
  decoded = platform::decode_event(mistyped, back);
  EXPECT_FALSE(decoded.ok);
  EXPECT_EQ(decoded.missing, "id");
}

}  // namespace
}  // namespace spotcheck::location::events

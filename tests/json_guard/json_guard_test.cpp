// impl/json_guard: the gate before any recursive JSON code (issue 9).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "impl/json_guard/json_guard.h"

namespace spotcheck::json_guard {
namespace {

std::string nested(std::size_t depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonGuard, AcceptsOrdinaryDocumentsAndLeavesSyntaxErrorsToTheParser) {
  EXPECT_FALSE(check(R"({"a":[1,{"b":null}],"c":"x"})").has_value());
  EXPECT_FALSE(check(R"([{"a":1},{"a":2}])").has_value());  // the same key in two objects
  EXPECT_FALSE(check("{not json").has_value());
  EXPECT_FALSE(check("").has_value());
  EXPECT_FALSE(check(nested(kDepthMax)).has_value());
}

TEST(JsonGuard, BoundsTheDepthWithoutRecursing) {
  const auto error = check(nested(kDepthMax + 1));
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, GuardErrorKind::kTooDeep);
  EXPECT_NE(error->message.find("limit of 64 levels"), std::string::npos) << error->message;
  // 100,000 deep, arrays and objects, closed or not: refused, no stack overflow.
  std::string objects;
  for (int i = 0; i < 100'000; ++i) {
    objects += "{\"a\":";
  }
  for (const std::string& text : {nested(100'000), std::string(100'000, '['), objects}) {
    const auto deep = check(text);
    ASSERT_TRUE(deep.has_value());
    EXPECT_EQ(deep->kind, GuardErrorKind::kTooDeep);
  }
  GuardOptions two;
  two.depth_max = 2;
  EXPECT_FALSE(check(R"({"a":[1]})", two).has_value());
  const auto path = check(R"({"a":[1,{"b":{}}]})", two);
  ASSERT_TRUE(path.has_value());
  EXPECT_EQ(path->path, "a[1]");
}

TEST(JsonGuard, RefusesDuplicateKeysNamingKeyAndPath) {
  const auto top = check(R"({"name":"a","name":"b"})");
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ(top->kind, GuardErrorKind::kDuplicateKey);
  EXPECT_EQ(top->key, "name");
  EXPECT_EQ(top->message, R"(duplicate key "name" in the document)");
  const auto inner = check(R"({"w":{"x":1},"list":[0,{"k":1,"k":2}]})");
  ASSERT_TRUE(inner.has_value());
  EXPECT_EQ(inner->path, "list[1]");
  EXPECT_EQ(inner->message, R"(duplicate key "k" in list[1])");
  const auto nl = check("{\"a\\nb\":1,\"a\\nb\":2}");
  ASSERT_TRUE(nl.has_value());
  EXPECT_EQ(nl->message.find('\n'), std::string::npos) << nl->message;
  GuardOptions lenient;
  lenient.reject_duplicate_keys = false;
  EXPECT_FALSE(check(R"({"a":1,"a":2})", lenient).has_value());
}

TEST(JsonGuard, ReadBoundedReadsAtMostOneByteOverTheLimit) {
  std::istringstream small("hello");
  const BoundedText ok = read_bounded(small, 5);
  EXPECT_EQ(ok.text, "hello");
  EXPECT_FALSE(ok.too_large);
  std::istringstream big(std::string(200'000, 'x'));
  const BoundedText over = read_bounded(big, 100'000);
  EXPECT_TRUE(over.too_large);
  EXPECT_EQ(over.text.size(), 100'001U);
  std::istringstream empty("");
  EXPECT_EQ(read_bounded(empty, 10).text, "");
}

TEST(JsonGuard, OneLineEscapesControlCharactersAndTruncates) {
  EXPECT_EQ(one_line("a\nb\t\x01\x7f"), "a\\nb\\t\\x01\\x7f");
  EXPECT_EQ(one_line(std::string(10, 'x'), 4), "xxxx...");
}

}  // namespace
}  // namespace spotcheck::json_guard

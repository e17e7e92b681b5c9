// cli/number_text: the command line's numbers are plain decimal and in range, for every command.
#include <gtest/gtest.h>

#include "cli/commands.h"
#include "cli/number_text.h"

namespace spotcheck::cli {
namespace {

TEST(NumberText, PlainDecimalOnly) {
  EXPECT_EQ(plain_decimal("0"), 0U);
  EXPECT_EQ(plain_decimal("18446744073709551615"), 18446744073709551615ULL);
  for (const char* bad : {"", "-1", "+1", "010", "0x10", "18446744073709551616", "1e3", " 1", "1 ", "1.0"}) {
    EXPECT_FALSE(plain_decimal(bad).has_value()) << bad;
  }
}

TEST(NumberText, PlainSecondsToTheMicrosecond) {
  EXPECT_EQ(plain_seconds("5"), 5.0);
  EXPECT_EQ(plain_seconds("0.25"), 0.25);
  EXPECT_EQ(plain_seconds("0.000001"), 0.000001);
  for (const char* bad : {"", "-1", "+1", "1e3", "0x10", "nan", "inf", ".5", "5.", "05", "1.2.3", "1,5", "0.0000001"}) {
    EXPECT_FALSE(plain_seconds(bad).has_value()) << bad;
  }
}

TEST(NumberText, ErrorsNameTheFlagAndShowTheValueOnOneLine) {
  EXPECT_EQ(parse_seed("--seed", "42"), 42U);
  try {
    parse_seed("--seed", "1\n2");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--seed must be a plain decimal number from 0 to 18446744073709551615 (got '1\\n2')");
  }
  EXPECT_THROW(parse_decimal("--seeds", "5", 6, 10), UsageError);
  EXPECT_THROW(check_seed_range(UINT64_MAX, 2), UsageError);
  EXPECT_NO_THROW(check_seed_range(UINT64_MAX, 1));
  EXPECT_THROW(check_seed_range(1, 0), UsageError);
}

}  // namespace
}  // namespace spotcheck::cli

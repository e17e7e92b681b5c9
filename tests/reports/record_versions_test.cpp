// The table of store record versions: grouped by record, escaped, bounded by what it is given.
#include "reports/record_versions.h"

#include <gtest/gtest.h>

#include "reports/text_clip.h"

namespace spotcheck::reports {
namespace {

TEST(RecordVersions, OneGroupPerRecordWithItsWritesInOrder) {
  RecordVersions v;
  v.records.push_back(
      {"authority/actor/<p>", {{5, 1'000, "node-1", "put", 0, 3}, {9, 2'000, "node-2", "delete", 3, 0}}, 2});
  v.records_left_out = 4;
  const std::string table = record_versions_table(v);
  EXPECT_NE(table.find("<th rowspan=\"3\"><code>authority/actor/&lt;p&gt;</code></th><td colspan=\"5\">… 2 earlier "
                       "write(s)</td></tr>"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("<tr><td>#9</td><td>0.002000s</td><td>node-2</td><td class=\"mutation delete\">delete</td>"
                       "<td>v3 &#8594; absent</td></tr>"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("… and 4 more record(s)"), std::string::npos);
  EXPECT_EQ(table.find("actor/<p>"), std::string::npos);
}

TEST(RecordVersions, NoRecordIsOneLine) {
  EXPECT_EQ(record_versions_table({}),
            "<p class=\"record-versions\">no store record names the violation's objects or host runs</p>\n");
}

TEST(TextClip, CutsAtCharactersNotBytes) {
  EXPECT_EQ(clip_text("abc", 3), "abc");
  EXPECT_EQ(clip_text("abcd", 3), "ab…");
  EXPECT_EQ(clip_text("§§§§", 3), "§§…");
  EXPECT_EQ(clip_text("abcd", 0), "");
  const auto lines = wrap_text("the quick brown fox jumps over the lazy dog", 10, 3);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "the quick");
  EXPECT_EQ(lines[1], "brown fox");
  EXPECT_EQ(lines[2], "jumps ove…");
  EXPECT_EQ(wrap_text("averyveryverylongword", 5, 9).front(), "avery");
}

}  // namespace
}  // namespace spotcheck::reports

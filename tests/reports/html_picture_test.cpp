// The HTML report shows each story's picture: its diagram and record versions in the story's
// section, the diagram's style in the page's one <style>, nothing from outside the page.
#include <gtest/gtest.h>

#include <sstream>

#include "reports/html_report.h"
#include "reports/shrunk_report.h"

namespace spotcheck::reports {
namespace {

CampaignResult failed_campaign() {
  CampaignResult result;
  result.scenario = "s";
  result.seeds_requested = 1;
  result.first_seed = 4;
  scenarios::SeedOutcome violated;
  violated.seed = 4;
  violated.violation = scenarios::Violation{"single-owner", "ran past the deadline", 9'000'000, 30};
  result.add(violated, std::nullopt);
  return result;
}

FailureStory pictured_story() {
  FailureStory story{4, {"story of the violation (single-owner)", "  * #30  9s  node-0  object.work"}};
  SequenceDiagram d;
  d.lanes = {{"node-0", false}, {"Location Store", true}};
  d.arrows.push_back({0, 1, ArrowKind::kStoreRequest, 1'000, 2'000, false, "put k", "message 1"});
  d.violation = DiagramViolation{0, 9'000'000, 30, "single-owner", "ran past the deadline"};
  d.to_us = 9'000'000;
  story.diagram = d;
  story.versions = RecordVersions{{{"k", {{7, 2'000, "node-0", "put", 0, 1}}, 0}}, 0};
  return story;
}

TEST(HtmlPicture, TheStorySectionHoldsItsDiagramAndRecordVersions) {
  std::ostringstream page;
  write_html_report(failed_campaign(), {pictured_story()}, page);
  const std::string s = page.str();
  const std::size_t section = s.find("<section id=\"seed-4\">");
  const std::size_t svg =
      s.find("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sequence-diagram\" id=\"diagram-seed-4\"");
  const std::size_t table = s.find("<table class=\"record-versions\">");
  const std::size_t text = s.find("<pre>story of the violation");
  ASSERT_NE(section, std::string::npos);
  ASSERT_NE(svg, std::string::npos) << s;
  ASSERT_NE(table, std::string::npos);
  ASSERT_NE(text, std::string::npos);
  EXPECT_LT(section, svg);
  EXPECT_LT(svg, table);
  EXPECT_LT(table, text);
  EXPECT_NE(s.find(".sequence-diagram .violation-band{"), std::string::npos) << "the diagram's style is in the page";
  EXPECT_NE(s.find("<p class=\"legend\">"), std::string::npos);
  // One self-contained file: no script, nothing loaded from elsewhere.
  EXPECT_EQ(s.find("<script"), std::string::npos);
  EXPECT_EQ(s.find(" src="), std::string::npos);
  EXPECT_EQ(s.find("<link"), std::string::npos);
  EXPECT_EQ(s.find("url(http"), std::string::npos);
}

TEST(HtmlPicture, AStoryWithoutAPictureIsTextOnly) {
  std::ostringstream page;
  FailureStory story{4, {"the traced replay of this seed did not repeat the campaign's run (a determinism bug)"}};
  write_html_report(failed_campaign(), {story}, page);
  EXPECT_EQ(page.str().find("<svg"), std::string::npos);
  EXPECT_EQ(page.str().find("record-versions\">"), std::string::npos);
}

TEST(ShrunkReport, ThePageHoldsTheSummaryTheReplayCommandAndThePicturedStory) {
  ShrunkFailurePage page{"planted <x>.json", 4, "single-owner", "before: violates single-owner\n", "spotcheck replay t.jsonl",
                         pictured_story()};
  std::ostringstream out;
  write_shrunk_report(page, out);
  const std::string s = out.str();
  EXPECT_NE(s.find("<title>spotcheck shrink planted &lt;x&gt;.json seed 4: single-owner</title>"), std::string::npos) << s;
  EXPECT_NE(s.find("<pre>before: violates single-owner\n</pre>"), std::string::npos);
  EXPECT_NE(s.find("<code>spotcheck replay t.jsonl</code>"), std::string::npos);
  EXPECT_NE(s.find("<h3>the shrunk run of seed 4</h3>"), std::string::npos);
  EXPECT_NE(s.find("id=\"diagram-seed-4\""), std::string::npos);
  EXPECT_NE(s.find("<table class=\"record-versions\">"), std::string::npos);
  EXPECT_NE(s.find(".sequence-diagram .violation-band{"), std::string::npos);
  EXPECT_EQ(s.find("<script"), std::string::npos);
  EXPECT_TRUE(s.ends_with("</body>\n</html>\n"));
}

}  // namespace
}  // namespace spotcheck::reports

// The sequence diagram's layout from a hand-made model: every arrow, span and mark drawn where
// its lanes and instants are, lost arrows crossed, bounded, escaped, the same bytes twice.
#include "reports/sequence_diagram.h"

#include <gtest/gtest.h>

#include <string>

namespace spotcheck::reports {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

SequenceDiagram two_nodes_and_a_store() {
  SequenceDiagram d;
  d.lanes = {{"node-0", false}, {"node-1", false}, {"Location Store", true}};
  d.from_us = 1'000;
  d.to_us = 9'000'000;
  d.arrows.push_back({0, 2, ArrowKind::kStoreRequest, 1'000, 1'500, false, "put owner-lease/a", "message 1"});
  d.arrows.push_back({2, 0, ArrowKind::kStoreReply, 1'500, 2'000, false, "", "message 2"});
  d.arrows.push_back({0, 1, ArrowKind::kMessage, 3'000, 3'400, true, "loss", "message 3 (loss)"});
  d.spans.push_back({0, SpanKind::kAdmission, 2'000, 5'000'000, true, "admission until 5 s"});
  d.spans.push_back({0, SpanKind::kOwnerLease, 2'000, 7'000'000, false, "owner lease until 7 s"});
  d.spans.push_back({1, SpanKind::kPause, 4'000, 8'000'000, false, "node-1 paused"});
  d.marks.push_back({1, MarkKind::kFault, 4'000, 14, "#14 pause 8s"});
  d.marks.push_back({0, MarkKind::kKill, 6'000'000, 20, "#20 kill run=1"});
  d.marks.push_back({std::nullopt, MarkKind::kFault, 6'500'000, 21, "#21 store.outage_begin"});
  d.marks.push_back({0, MarkKind::kKey, 9'000'000, 30, "#30 object.work <x>"});
  d.violation =
      DiagramViolation{0, 9'000'000, 30, "single-owner", "host run 'a' ran <b>&\"it\" past its deadline (spec §5)"};
  return d;
}

TEST(SequenceDiagram, DrawsLanesArrowsSpansMarksAndTheViolation) {
  const std::string svg = sequence_diagram_svg(two_nodes_and_a_store(), "diagram-seed-7");
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sequence-diagram\" id=\"diagram-seed-7\"", 0),
            0u);
  EXPECT_EQ(count(svg, "<g class=\"lane\">"), 2u);
  EXPECT_EQ(count(svg, "<g class=\"lane store\">"), 1u);
  EXPECT_NE(svg.find(">Location Store</text>"), std::string::npos);
  EXPECT_EQ(count(svg, "<g class=\"arrow "), 3u);
  EXPECT_EQ(count(svg, "<g class=\"arrow store-request\">"), 1u);
  EXPECT_EQ(count(svg, "<g class=\"arrow store-reply\">"), 1u);
  EXPECT_EQ(count(svg, "<g class=\"arrow message lost\">"), 1u);
  // Delivered arrows end in this diagram's arrowhead; the lost one in a cross.
  EXPECT_EQ(count(svg, "marker-end=\"url(#diagram-seed-7-head)\""), 2u);
  EXPECT_EQ(count(svg, "<path class=\"cross\""), 1u);
  EXPECT_EQ(count(svg, "<g class=\"span admission\">"), 1u);
  EXPECT_EQ(count(svg, "<g class=\"span lease\">"), 1u);
  EXPECT_EQ(count(svg, "<g class=\"span pause\">"), 1u);
  EXPECT_EQ(count(svg, "<line class=\"deadline\""), 1u) << "the admission window that ran to its deadline";
  EXPECT_EQ(count(svg, "<path class=\"mark kill\""), 1u);
  EXPECT_EQ(count(svg, "<line class=\"mark world\""), 1u);
  EXPECT_EQ(count(svg, "<circle class=\"mark key\""), 1u);
  EXPECT_EQ(count(svg, "<rect class=\"violation-band\""), 1u);
  EXPECT_EQ(count(svg, "<circle class=\"violation\""), 1u);
  EXPECT_NE(
      svg.find("single-owner: host run &apos;a&apos; ran &lt;b&gt;&amp;&quot;it&quot; past its deadline (spec §5)"),
      std::string::npos)
      << svg;
  EXPECT_NE(svg.find("#30 object.work &lt;x&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("<x>"), std::string::npos);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
}

TEST(SequenceDiagram, TimeRunsDownAndAQuietGapIsShownOnce) {
  const std::string svg = sequence_diagram_svg(two_nodes_and_a_store(), "d");
  const std::size_t first = svg.find(">0.001000s</text>");
  const std::size_t last = svg.find(">9.000000s</text>");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(last, std::string::npos);
  EXPECT_LT(first, last);
  EXPECT_NE(svg.find(" later</text>"), std::string::npos) << "seconds pass between the kill and the outage";
}

TEST(SequenceDiagram, IsBoundedAndCountsWhatItLeftOut) {
  SequenceDiagram d = two_nodes_and_a_store();
  d.arrows.clear();
  for (int i = 0; i < 500; ++i) {
    d.arrows.push_back({0, 1, ArrowKind::kMessage, 1'000 + i, 2'000 + i, false, "", "m"});
  }
  d.arrows_left_out = 7;
  const std::string svg = sequence_diagram_svg(d, "d");
  EXPECT_EQ(count(svg, "<g class=\"arrow "), kDiagramArrowsMax);
  EXPECT_NE(svg.find(">" + std::to_string(500 - kDiagramArrowsMax + 7) + " more message(s) of this window not drawn<"),
            std::string::npos);
}

TEST(SequenceDiagram, TheSameDiagramGivesTheSameBytes) {
  EXPECT_EQ(sequence_diagram_svg(two_nodes_and_a_store(), "d"), sequence_diagram_svg(two_nodes_and_a_store(), "d"));
}

TEST(SequenceDiagram, ArrowsToLanesItDoesNotHaveAreNotDrawn) {
  SequenceDiagram d = two_nodes_and_a_store();
  d.arrows.push_back({0, 9, ArrowKind::kMessage, 3'000, 3'400, false, "", "to nowhere"});
  const std::string svg = sequence_diagram_svg(d, "d");
  EXPECT_EQ(count(svg, "<g class=\"arrow "), 3u);
}

}  // namespace
}  // namespace spotcheck::reports

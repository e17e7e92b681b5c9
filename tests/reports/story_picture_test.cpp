// The picture of a hand-made failing run: its trace through replay/story and replay/diagram into
// the sequence diagram's SVG and the record versions table.
#include "replay/diagram/story_picture.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "replay/story/story.h"
#include "reports/record_versions.h"
#include "reports/sequence_diagram.h"

namespace spotcheck::replay {
namespace {

constexpr const char* kOwner = "aaaaaaaa-0000-4000-8000-000000000001";
constexpr const char* kStore = "1460133888";  // the Location Store server's RoutingId

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

// node-0 registers its owner lease (a store round trip), works on `player:<1>&`, sends node-1 one
// message that arrives and one that is lost, loses a store request, is paused past its admission
// deadline (10 s on its local clock, which runs 1 s ahead) and runs the handler once more at 12 s.
std::vector<std::string> failing_run() {
  const std::string owner = kOwner;
  const std::string store = kStore;
  const std::string id = "id=\"player:<1>&\"";
  return {
      "#0 t=0us node-0 process.add routing_id=100 drift_ppm=0",
      "#1 t=0us node-1 process.add routing_id=101 drift_ppm=0",
      "#2 t=0us node-2 process.add routing_id=102 drift_ppm=0",
      "#3 t=0us node-0 start run=1",
      "#4 t=0us node-1 start run=1",
      "#5 t=1000us node-0 task=1 net.post to=" + store + " message=1 size_bytes=0",
      "#6 t=1500us world net.deliver from=100 message=1",
      "#7 t=1500us world store.applied node=0 key=\"owner-lease/" + owner +
          "\" mutation=\"put\" part=1 mutations=1 old_version=0 new_version=4 value=\"\" delta=0 counter=0 "
          "store_now_ms=1764417600001",
      "#8 t=1500us world net.post to=100 message=2 size_bytes=0",
      "#9 t=2000us node-0 net.deliver from=" + store + " message=2",
      "#10 t=2000us node-0 task=1 lease.registered owner=\"" + owner +
          "\" lease_gen=1 expires_ms=1764417615001 store_now_ms=1764417600001 deadline_us=11000000 version=4 "
          "resolved=0 local_before_us=1001000 margin_us=5000000",
      "#11 t=3000us node-0 task=1 object.work " + id + " owner=\"" + owner +
          "\" lease_gen=1 now_us=1003000 deadline_us=11000000",
      "#12 t=3000us node-0 task=1 net.post to=101 message=3 size_bytes=0",
      "#13 t=3400us node-1 net.deliver from=100 message=3",
      "#14 t=3400us node-1 task=2 find.result kind=\"actor\" " + id + " outcome=\"none\" object_gen=0",
      "#15 t=4000us node-0 task=1 net.post to=101 message=4 size_bytes=0",
      "#16 t=4200us node-0 net.drop from=100 to=101 message=4 why=\"loss\"",
      "#17 t=4300us node-2 task=3 net.post to=101 message=5 size_bytes=0",
      "#18 t=4400us node-1 net.deliver from=102 message=5",
      "#19 t=4500us world task=1 store.request_lost node=0 op=\"write\"",
      "#20 t=5000us node-0 pause duration_us=8000000 until_us=8005000",
      "#21 t=8005000us node-0 unpause frozen=1",
      "#22 t=12000000us node-0 task=1 object.work " + id + " owner=\"" + owner +
          "\" lease_gen=1 now_us=13000000 deadline_us=11000000",
  };
}

scenarios::Violation past_deadline() {
  scenarios::Violation v{"single-owner",
                         "#22 t=12s node-0 object.work: host run " + std::string(kOwner) +
                             "/1 ran the handler of actor 'player:<1>&' at local time 13000000us, not before its "
                             "admission deadline 11000000us (spec §5)",
                         12'000'000, 22};
  v.subjects.add_object("player:<1>&");
  v.subjects.add_host_run(kOwner);
  return v;
}

struct Drawn {
  StoryPicture picture;
  std::string svg;
};

Drawn draw() {
  const auto lines = failing_run();
  const auto violation = past_deadline();
  StoryPicture picture = picture_story(lines, tell_story(lines, violation), violation);
  std::string svg = reports::sequence_diagram_svg(picture.diagram, "diagram-seed-1");
  return Drawn{std::move(picture), std::move(svg)};
}

// The y of the first element of `kind` whose opening tag holds `attribute`="...".
int y_of(const std::string& svg, const std::string& opening, const std::string& attribute) {
  const std::size_t at = svg.find(opening);
  EXPECT_NE(at, std::string::npos) << opening;
  std::smatch m;
  const std::string rest = svg.substr(at, svg.find('>', at) - at);
  EXPECT_TRUE(std::regex_search(rest, m, std::regex(attribute + "=\"(-?[0-9]+)\""))) << rest;
  return m.empty() ? -1 : std::stoi(m[1]);
}

TEST(StoryPicture, LanesForTheStorysNodesAndTheStore) {
  const Drawn d = draw();
  ASSERT_EQ(d.picture.diagram.lanes.size(), 3u);
  EXPECT_EQ(d.picture.diagram.lanes[0].name, "node-0");
  EXPECT_EQ(d.picture.diagram.lanes[1].name, "node-1");
  EXPECT_EQ(d.picture.diagram.lanes[2].name, "Location Store");
  EXPECT_EQ(count(d.svg, "<g class=\"lane\">"), 2u) << "node-2 has no part in the story";
  EXPECT_EQ(count(d.svg, "<g class=\"lane store\">"), 1u);
}

TEST(StoryPicture, AnArrowPerMessageTheLostOnesMarked) {
  const Drawn d = draw();
  EXPECT_EQ(count(d.svg, "<g class=\"arrow store-request\">"), 1u);
  EXPECT_EQ(count(d.svg, "<g class=\"arrow store-reply\">"), 1u);
  EXPECT_EQ(count(d.svg, "<g class=\"arrow message\">"), 1u);
  EXPECT_EQ(count(d.svg, "<g class=\"arrow message lost\">"), 1u) << "message 4, lost to loss";
  EXPECT_EQ(count(d.svg, "<g class=\"arrow store-request lost\">"), 1u) << "the store request lost at #19";
  EXPECT_EQ(count(d.svg, "<path class=\"cross\""), 2u);
  EXPECT_NE(d.svg.find(">put owner-lease/aaaaaaaa-00…</text>"), std::string::npos) << "what the request wrote";
  EXPECT_NE(d.svg.find("message 4: node-0 -&gt; node-1, sent #15"), std::string::npos);
  EXPECT_EQ(d.picture.diagram.arrows_left_out, 0u) << "node-2's message is not between the story's lanes";
}

TEST(StoryPicture, LeaseAndAdmissionBarsEndWhereTheirClocksSay) {
  const Drawn d = draw();
  ASSERT_EQ(count(d.svg, "<g class=\"span admission\">"), 1u);
  ASSERT_EQ(count(d.svg, "<g class=\"span lease\">"), 1u);
  const reports::DiagramSpan* admission = nullptr;
  const reports::DiagramSpan* lease = nullptr;
  for (const auto& s : d.picture.diagram.spans) {
    admission = s.kind == reports::SpanKind::kAdmission ? &s : admission;
    lease = s.kind == reports::SpanKind::kOwnerLease ? &s : lease;
  }
  ASSERT_NE(admission, nullptr);
  ASSERT_NE(lease, nullptr);
  // The local clock runs 1 s ahead: the deadline 11 s local is 10 s virtual.
  EXPECT_EQ(admission->from_us, 2'000);
  EXPECT_EQ(admission->to_us, 10'000'000);
  EXPECT_TRUE(admission->ends_at_deadline);
  // ExpiresAt is 15 s of store time after the write applied at 1.5 ms.
  EXPECT_EQ(lease->to_us, 12'000'000) << "cut at the window's end (ExpiresAt 15.0015 s is after it)";
  EXPECT_NE(lease->detail.find("= 15.001500s"), std::string::npos) << lease->detail;
  // The violating event is drawn below the admission deadline.
  EXPECT_GT(y_of(d.svg, "<circle class=\"violation\"", "cy"), y_of(d.svg, "<line class=\"deadline\"", "y1"));
}

TEST(StoryPicture, ThePauseIsASpanAndAMark) {
  const Drawn d = draw();
  EXPECT_EQ(count(d.svg, "<g class=\"span pause\">"), 1u);
  EXPECT_NE(d.svg.find("<circle class=\"mark fault\" cx=\"420\""), std::string::npos) << "on node-0's lane";
  EXPECT_NE(d.svg.find("<title>0.005000s #20 pause 8s</title></circle>"), std::string::npos) << d.svg;
  EXPECT_NE(d.svg.find(">#20 pause 8s</text>"), std::string::npos) << "labelled in the margin";
}

TEST(StoryPicture, TheViolatingEventIsHighlightedWithItsSentenceEscaped) {
  const Drawn d = draw();
  ASSERT_TRUE(d.picture.diagram.violation.has_value());
  EXPECT_EQ(d.picture.diagram.violation->lane, std::optional<std::size_t>(0));
  EXPECT_EQ(count(d.svg, "<rect class=\"violation-band\""), 1u);
  EXPECT_EQ(count(d.svg, "<circle class=\"violation\""), 1u);
  EXPECT_NE(d.svg.find("single-owner: #22 t=12s node-0 object.work"), std::string::npos);
  EXPECT_NE(d.svg.find("actor &apos;player:&lt;1&gt;&amp;&apos;"), std::string::npos);
  EXPECT_NE(d.svg.find("#22 object.work player:&lt;1&gt;&amp;"), std::string::npos);
  EXPECT_EQ(d.svg.find("<1>"), std::string::npos) << "nothing of the trace is left unescaped";
}

TEST(StoryPicture, TheRecordsOfTheSubjectsWithTheirVersions) {
  const Drawn d = draw();
  const auto& records = d.picture.versions.records;
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].key, std::string("owner-lease/") + kOwner);
  ASSERT_EQ(records[0].changes.size(), 1u);
  EXPECT_EQ(records[0].changes[0].node, "node-0");
  EXPECT_EQ(records[0].changes[0].new_version, 4);
  const std::string table = reports::record_versions_table(d.picture.versions);
  EXPECT_NE(table.find("<td>#7</td><td>0.001500s</td><td>node-0</td><td class=\"mutation put\">put</td><td>absent "
                       "&#8594; v4</td>"),
            std::string::npos)
      << table;
}

TEST(StoryPicture, TheSameRunGivesTheSamePicture) { EXPECT_EQ(draw().svg, draw().svg); }

}  // namespace
}  // namespace spotcheck::replay

#include "replay/story/trace_line.h"

#include <gtest/gtest.h>

namespace spotcheck::replay {
namespace {

TEST(TraceLine, ATaskEventIsTakenApart) {
  const auto line = parse_trace_line(
      R"(#131 t=888527us node-3 task=7 request.start owner="e85e" request=1 id="player:2" deadline_us=16696488)");
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->index, 131u);
  EXPECT_EQ(line->time_us, 888527);
  EXPECT_EQ(line->node, "node-3");
  EXPECT_EQ(line->kind, "request.start");
  EXPECT_EQ(text_field(*line, "id"), "player:2");
  EXPECT_EQ(text_field(*line, "owner"), "e85e");
  EXPECT_EQ(number_field(*line, "request"), 1);
  EXPECT_EQ(number_field(*line, "deadline_us"), 16696488);
  EXPECT_FALSE(number_field(*line, "deadline").has_value());  // a key is matched whole
  EXPECT_FALSE(text_field(*line, "request").has_value());     // a number is not text
}

TEST(TraceLine, AWorldEventWithoutFields) {
  const auto line = parse_trace_line("#7 t=60000000us world faults.stopped");
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->node, "world");
  EXPECT_EQ(line->kind, "faults.stopped");
  EXPECT_EQ(line->fields, "");
}

TEST(TraceLine, EscapedTextAndBadLines) {
  const auto line = parse_trace_line(R"(#1 t=0us node-0 x why="a \"quoted\" word" n=-3)");
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(text_field(*line, "why"), R"(a \"quoted\" word)");
  EXPECT_EQ(number_field(*line, "n"), -3);
  EXPECT_FALSE(parse_trace_line("#3 hash=0123 (events not kept; rerun with keep_events)").has_value());
  EXPECT_FALSE(parse_trace_line("").has_value());
  EXPECT_FALSE(parse_trace_line("#x t=1us node-0 k").has_value());
}

}  // namespace
}  // namespace spotcheck::replay

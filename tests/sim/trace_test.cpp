#include <gtest/gtest.h>

#include <string>

#include "sim/trace/divergence.h"
#include "sim/trace/hash.h"
#include "sim/trace/segmented_log.h"
#include "sim/trace/trace_kind.h"
#include "sim/trace/trace.h"

namespace spotcheck::sim {
namespace {

using platform::Field;

void append_sample(Trace& trace, std::int64_t value) {
  const Field fields[] = {Field::num("to", value), Field::str("why", "loss")};
  trace.append(10, 0, 3, "net.drop", fields, false);
}

TEST(Trace, HashDependsOnEveryPart) {
  const Field a[] = {Field::num("x", 1)};
  const Field b[] = {Field::num("x", 2)};
  const Field c[] = {Field::str("x", "1")};
  const std::uint64_t base = hash_event(1, 0, 1, "k", a);
  EXPECT_NE(base, hash_event(2, 0, 1, "k", a));
  EXPECT_NE(base, hash_event(1, 1, 1, "k", a));
  EXPECT_NE(base, hash_event(1, 0, 2, "k", a));
  EXPECT_NE(base, hash_event(1, 0, 1, "j", a));
  EXPECT_NE(base, hash_event(1, 0, 1, "k", b));
  EXPECT_NE(base, hash_event(1, 0, 1, "k", c));
  EXPECT_EQ(base, hash_event(1, 0, 1, "k", a));
}

TEST(Trace, RollingHashDependsOnOrder) {
  Trace left;
  Trace right;
  append_sample(left, 1);
  append_sample(left, 2);
  append_sample(right, 2);
  append_sample(right, 1);
  EXPECT_NE(left.hash(), right.hash());
  EXPECT_EQ(left.size(), 2U);
}

TEST(Trace, CopiedStringsSurviveTheirSource) {
  Trace trace;
  trace.set_node_name(0, "n1");
  {
    std::string kind = "proto.kind";
    std::string key = "owner";
    std::string text(100'000, 'x');  // larger than an arena chunk
    text[0] = 'y';
    const Field fields[] = {Field::str(key, text), Field::num("generation", 4)};
    trace.append(1'500, 0, 7, kind, fields, true);
    kind.assign(kind.size(), '?');
    key.assign(key.size(), '?');
    text.assign(text.size(), '?');
  }
  const TraceEvent event = trace.event(0);
  EXPECT_EQ(event.kind, "proto.kind");
  EXPECT_EQ(event.text("owner")->size(), 100'000U);
  EXPECT_EQ(event.text("owner")->front(), 'y');
  EXPECT_EQ(event.number("generation"), 4);
  const std::string line = trace.render(0);
  EXPECT_EQ(line.rfind("#0 t=1500us n1 task=7 proto.kind owner=\"yxxx", 0), 0U) << line;
}

TEST(Trace, RenderShowsNumbersAndEscapedText) {
  Trace trace;
  const Field fields[] = {Field::num("to", -2), Field::str("bytes", std::string_view("a\"\x01", 3))};
  trace.append(0, kWorldNode, 0, "k", fields, true);
  EXPECT_EQ(trace.render(0), "#0 t=0us world k to=-2 bytes=\"a\\\"\\x01\"");
  EXPECT_EQ(trace.render(1), "<end of trace>");
}

TEST(Divergence, EqualTracesHaveNone) {
  Trace left;
  Trace right;
  for (int i = 0; i < 10; ++i) {
    append_sample(left, i);
    append_sample(right, i);
  }
  EXPECT_FALSE(first_divergence(left, right).has_value());
}

TEST(Divergence, NamesTheFirstDifferingEventWithBothSides) {
  Trace left;
  Trace right;
  for (int i = 0; i < 10; ++i) {
    append_sample(left, i);
    append_sample(right, i == 6 ? 60 : i);
  }
  const auto divergence = first_divergence(left, right);
  ASSERT_TRUE(divergence.has_value());
  EXPECT_EQ(divergence->index, 6U);
  EXPECT_NE(divergence->left.find("to=6 "), std::string::npos) << divergence->left;
  EXPECT_NE(divergence->right.find("to=60 "), std::string::npos) << divergence->right;
  EXPECT_NE(divergence->report.find("#5 "), std::string::npos) << divergence->report;
}

TEST(Divergence, APrefixDivergesWhereItEnds) {
  Trace left;
  Trace right;
  for (int i = 0; i < 5; ++i) {
    append_sample(left, i);
    append_sample(right, i);
  }
  append_sample(right, 5);
  const auto divergence = first_divergence(left, right);
  ASSERT_TRUE(divergence.has_value());
  EXPECT_EQ(divergence->index, 5U);
  EXPECT_EQ(divergence->left, "<end of trace>");
}

TEST(Trace, HashOnlyModeKeepsTheHashLog) {
  Trace full;
  Trace lean(TraceConfig{.keep_events = false});
  for (int i = 0; i < 4; ++i) {
    append_sample(full, i);
    append_sample(lean, i);
  }
  EXPECT_EQ(full.hash(), lean.hash());
  EXPECT_FALSE(first_divergence(full, lean).has_value());
  EXPECT_NE(lean.render(2).find("hash="), std::string::npos);
}

// Packed kinds of every tail length (and one, two and three full words).
constexpr TraceKind kPackedKinds[] = {
    TraceKind("a"),          TraceKind("wake.ti"),          TraceKind("wake.tim"),
    TraceKind("wake.time"),  TraceKind("wake.gate_gone"),   TraceKind("0123456789abcdef"),
    TraceKind("0123456789abcdefg"), TraceKind("0123456789abcdef0123456789abcde"),
};

TEST(TraceKind, AddKindHashesExactlyLikeAddBytesOfTheText) {
  for (const TraceKind& kind : kPackedKinds) {
    SCOPED_TRACE(std::string(kind.text()));
    Hasher packed;
    packed.add(7);
    packed.add_kind(kind);
    Hasher scanned;
    scanned.add(7);
    scanned.add_bytes(kind.text());
    EXPECT_EQ(packed.finish(), scanned.finish());
  }
}

TEST(TraceKind, APackedEventIsTheSameEventAsItsTextForm) {
  for (const TraceKind& kind : kPackedKinds) {
    SCOPED_TRACE(std::string(kind.text()));
    Trace packed;
    Trace text;
    append_sample(packed, 1);
    append_sample(text, 1);
    const std::uint64_t index = packed.append(42, 2, 9, kind);
    const TraceEvent expected = text.append(42, 2, 9, kind.text(), {}, false);
    EXPECT_EQ(index, expected.index);
    EXPECT_EQ(packed.hash(), text.hash());
    EXPECT_EQ(packed.event_hash(index), expected.hash);
    EXPECT_EQ(hash_event(42, 2, 9, kind), hash_event(42, 2, 9, kind.text(), {}));
    const TraceEvent stored = packed.event(index);
    EXPECT_EQ(stored.kind, kind.text());
    EXPECT_EQ(stored.time_us, 42);
    EXPECT_TRUE(stored.fields.empty());
    EXPECT_EQ(packed.view(index, 42, 2, 9, kind).hash, expected.hash);
  }
}

TEST(SegmentedLog, KeepsEveryElementAcrossChunkBoundariesAndAMove) {
  constexpr std::uint64_t kCount = 2 * SegmentedLog<std::uint64_t>::kChunkSize + 3;
  SegmentedLog<std::uint64_t> log;
  EXPECT_TRUE(log.empty());
  const std::uint64_t* first = nullptr;
  for (std::uint64_t i = 0; i < kCount; ++i) {
    log.push_back(i * 3 + 1);
    if (i == 0) {
      first = &log[0];
    }
  }
  EXPECT_EQ(&log[0], first);  // appending never moves what is stored
  SegmentedLog<std::uint64_t> moved = std::move(log);
  ASSERT_EQ(moved.size(), kCount);
  for (const std::uint64_t i : {std::uint64_t{0}, SegmentedLog<std::uint64_t>::kChunkSize - 1,
                                SegmentedLog<std::uint64_t>::kChunkSize, 2 * SegmentedLog<std::uint64_t>::kChunkSize,
                                kCount - 1}) {
    EXPECT_EQ(moved[i], i * 3 + 1) << i;
  }
  moved.push_back(5);  // the moved log appends into its last chunk
  EXPECT_EQ(moved[kCount], 5U);
  EXPECT_EQ(moved[kCount - 1], (kCount - 1) * 3 + 1);
}

}  // namespace
}  // namespace spotcheck::sim

// `spotcheck key` and `spotcheck record canon` (cli/records/).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "cli/records/record_commands.h"
#include "tests/records/golden_fixture.h"

namespace spotcheck::cli {
namespace {

using records::testing::golden_fixture;

struct CommandRun {
  int rc = -1;
  std::string out;
  std::string err;
};

CommandRun key(const std::vector<std::string>& parts, std::string_view ns = "zlink:v11:") {
  std::ostringstream out;
  std::ostringstream err;
  CommandRun run;
  run.rc = run_key_command(parts, ns, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

CommandRun canon(const std::string& input, RecordCanonOptions options = {}) {
  std::istringstream in(input);
  std::ostringstream out;
  std::ostringstream err;
  CommandRun run;
  run.rc = run_record_canon(in, options, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

void expect_bad_input(const CommandRun& run, std::string_view kind) {
  EXPECT_EQ(run.rc, kExitBadInput);
  EXPECT_TRUE(run.out.empty());
  EXPECT_EQ(line_count(run.err), 1U) << run.err;
  EXPECT_NE(run.err.find(kind), std::string::npos) << run.err;
}

const nlohmann::json& vector_at(std::size_t index) { return golden_fixture().at("vectors").at(index); }

TEST(RecordKeyCommand, EveryRecordMatchesTheFixture) {
  const std::vector<std::vector<std::string>> parts = {
      {"mesh-node", "game", "00a1b2c3d4e5f607"},
      {"owner-lease", "0b7d3f52-9a41-4c6e-8f0a-2d5e6b7c8d9e"},
      {"client-server", "match", "00a1b2c3d4e5f607"},
      {"fanout-publisher", "news", "00a1b2c3d4e5f607"},
      {"authority", "actor", "user:42"},
      {"authority", "spot", "user:42"},
      {"authority", "spot", "Room-7"},
      {"authority", "spot", "room-7"},
  };
  ASSERT_EQ(parts.size(), golden_fixture().at("vectors").size());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const CommandRun run = key(parts[i]);
    EXPECT_EQ(run.rc, kExitOk) << run.err;
    const nlohmann::json& vector = vector_at(i);
    EXPECT_EQ(run.out, "preimageHex: " + vector.at("preimageHex").get<std::string>() +
                           "\nsha256Hex: " + vector.at("sha256Hex").get<std::string>() +
                           "\nredisKey: " + vector.at("redisKey").get<std::string>() + "\n");
  }
}

TEST(RecordKeyCommand, Namespace) {
  const CommandRun run = key({"authority", "actor", "user:42"}, "it:7:");
  EXPECT_EQ(run.rc, kExitOk);
  EXPECT_NE(run.out.find("redisKey: it:7:rec:" + vector_at(4).at("sha256Hex").get<std::string>()),
            std::string::npos);
}

TEST(RecordKeyCommand, BadInput) {
  expect_bad_input(key({}), "usage");
  expect_bad_input(key({"authority"}), "kMissingField");
  expect_bad_input(key({"authority", "actor"}), "kMissingField");
  expect_bad_input(key({"authority", "Actor", "x"}), "kInvalidEnum");
  expect_bad_input(key({"authority", "actor", ""}), "kInvalidIdentity");
  expect_bad_input(key({"authority", "actor", std::string(256, 'a')}), "kInvalidIdentity");
  expect_bad_input(key({"mesh-node", "game", "00A1"}), "kInvalidHex");
  expect_bad_input(key({"mesh-node", "game", "0a1"}), "kInvalidHex");
  expect_bad_input(key({"owner-lease", "a", "b"}), "kMissingField");
  expect_bad_input(key({"spot", "x"}), "kInvalidEnum");
}

TEST(RecordCanonCommand, AnyLayoutBecomesTheGoldenBytes) {
  std::size_t checked = 0;
  for (const nlohmann::json& vector : golden_fixture().at("vectors")) {
    if (!vector.contains("value")) {
      continue;
    }
    const std::string expected =
        records::testing::from_hex(vector.at("valueBytesHex").get<std::string>());
    const CommandRun run = canon(vector.at("value").dump(2));  // pretty, fixture key order
    EXPECT_EQ(run.rc, kExitOk) << run.err;
    EXPECT_EQ(run.out, expected + "\n");
    const CommandRun hex = canon(vector.at("value").dump(), RecordCanonOptions{"", false, true});
    EXPECT_EQ(hex.out, vector.at("valueBytesHex").get<std::string>() + "\n");
    const CommandRun strict = canon(expected + "\n", RecordCanonOptions{"", true, false});
    EXPECT_EQ(strict.rc, kExitOk) << strict.err;
    EXPECT_EQ(strict.out, expected + "\n");
    ++checked;
  }
  EXPECT_EQ(checked, 6U);
}

TEST(RecordCanonCommand, Errors) {
  const nlohmann::json lease = vector_at(1).at("value");
  expect_bad_input(canon("{not json"), "kMalformedJson");
  expect_bad_input(canon("[1,2]"), "kWrongType");
  expect_bad_input(canon("{\"a\":1}"), "pass --type");
  expect_bad_input(canon(lease.dump(), RecordCanonOptions{"lease", false, false}), "kInvalidEnum");
  expect_bad_input(canon(lease.dump(), RecordCanonOptions{"authority", false, false}),
                   "kUnknownField");
  // Pretty JSON is fine in relaxed mode but not canonical under --strict.
  expect_bad_input(canon(lease.dump(2), RecordCanonOptions{"", true, false}), "kNotCanonical");
  nlohmann::json v2 = lease;
  v2["recordVersion"] = 2;
  expect_bad_input(canon(v2.dump()), "kUnknownRecordVersion");
  nlohmann::json zero = lease;
  zero["leaseGeneration"] = "0";
  expect_bad_input(canon(zero.dump()), "kOutOfRange");
  nlohmann::json number = lease;
  number["leaseGeneration"] = 7;
  expect_bad_input(canon(number.dump()), "kWrongType");
  nlohmann::json extra = lease;
  extra["extra"] = true;
  expect_bad_input(canon(extra.dump()), "kUnknownField");
  expect_bad_input(canon("{\"ownerId\":\"\xff\"}"), "kMalformedJson");
}

// Issue 9: hostile input gets one typed line, never a crash.
TEST(RecordCanonCommand, DeepNestingIsRefusedBeforeAnyRecursiveParse) {
  const std::string arrays = std::string(100'000, '[') + std::string(100'000, ']');
  std::string objects;
  for (int i = 0; i < 100'000; ++i) {
    objects += "{\"a\":";
  }
  objects += "1" + std::string(100'000, '}');
  for (const std::string& input : {arrays, objects}) {
    for (const bool strict : {false, true}) {
      const CommandRun run = canon(input, RecordCanonOptions{"", strict, false});
      expect_bad_input(run, "kTooLarge");
      EXPECT_NE(run.err.find("limit of 64 levels"), std::string::npos) << run.err;
    }
  }
}

TEST(RecordCanonCommand, RelaxedModeRefusesDuplicateKeys) {
  const nlohmann::json lease = vector_at(1).at("value");
  std::string twice = lease.dump();
  twice.insert(1, "\"ownerId\":\"other\",");
  const CommandRun run = canon(twice);
  expect_bad_input(run, "kNotCanonical");
  EXPECT_NE(run.err.find("duplicate key \"ownerId\""), std::string::npos) << run.err;
  // Strict mode: the codec's own error for a duplicate.
  expect_bad_input(canon(twice, RecordCanonOptions{"", true, false}), "kNotCanonical");
}

TEST(RecordCanonCommand, ErrorsAreOneLinePrefixedSpotcheck) {
  const CommandRun run = canon("{not json");
  EXPECT_EQ(run.err.rfind("spotcheck: kMalformedJson: ", 0), 0U) << run.err;
  const CommandRun big = canon(std::string(8 * records::kRecordBytesMax + 1, ' '));
  expect_bad_input(big, "kTooLarge");
  EXPECT_NE(big.err.find("input exceeds 8388608 bytes"), std::string::npos) << big.err;
}

TEST(RecordCanonCommand, AHugeIntegerRecordVersionIsAnUnknownVersion) {
  std::string text = vector_at(1).at("value").dump();
  const std::string one = "\"recordVersion\":1";
  ASSERT_NE(text.find(one), std::string::npos);
  text.replace(text.find(one), one.size(), "\"recordVersion\": 99999999999999999999");
  const CommandRun relaxed = canon(text);
  expect_bad_input(relaxed, "kUnknownRecordVersion");
  EXPECT_EQ(relaxed.err.find("fraction"), std::string::npos) << relaxed.err;
  const CommandRun strict = canon(text, RecordCanonOptions{"owner-lease", true, false});
  expect_bad_input(strict, "kUnknownRecordVersion");
  // A real fraction stays a type error.
  std::string fraction = vector_at(1).at("value").dump();
  fraction.replace(fraction.find(one), one.size(), "\"recordVersion\":1.5");
  expect_bad_input(canon(fraction), "kWrongType");
}

TEST(RecordKeyCommand, NamespaceWithControlCharactersIsRefused) {
  const CommandRun run = key({"authority", "actor", "user:42"}, "a\nb");
  expect_bad_input(run, "kInvalidIdentity");
  EXPECT_NE(run.err.find("--namespace must not contain control characters"), std::string::npos);
  expect_bad_input(key({"authority", "actor", "user:42"}, std::string("a\x7f", 2)), "--namespace");
}

TEST(RecordKeyCommand, ErrorsEchoingInputStayOneLine) {
  const CommandRun run = key({"authority", "ac\ntor", "x"});
  expect_bad_input(run, "kInvalidEnum");
  EXPECT_NE(run.err.find("ac\\ntor"), std::string::npos) << run.err;
}

// Parses `args` with the record commands registered; the exit code the commands set.
int parse_app(std::vector<std::string> args) {
  CLI::App app("spotcheck");
  int exit_code = kExitOk;
  add_record_commands(app, exit_code);
  std::vector<char*> argv;
  for (std::string& arg : args) {
    argv.push_back(arg.data());
  }
  app.parse(static_cast<int>(argv.size()), argv.data());
  return exit_code;
}

TEST(RecordCommandsApp, DoubleDashLetsAnIdStartWithADash) {
  // Without "--", -x is read as an (unknown) option.
  EXPECT_THROW(parse_app({"spotcheck", "key", "authority", "actor", "-x"}), CLI::ParseError);
  ::testing::internal::CaptureStdout();
  const int rc = parse_app({"spotcheck", "key", "--", "authority", "actor", "-x"});
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(rc, kExitOk);
  const CommandRun direct = key({"authority", "actor", "-x"});
  EXPECT_EQ(direct.rc, kExitOk);
  EXPECT_EQ(out, direct.out);
  ::testing::internal::CaptureStdout();
  const int with_ns = parse_app({"spotcheck", "key", "-n", "it:7:", "--", "owner-lease", "--lease"});
  const std::string ns_out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(with_ns, kExitOk);
  EXPECT_EQ(ns_out, key({"owner-lease", "--lease"}, "it:7:").out);
}

TEST(RecordCommandsApp, RegistersKeyAndRecordCanon) {
  CLI::App app("spotcheck");
  int exit_code = kExitOk;
  add_record_commands(app, exit_code);
  ::testing::internal::CaptureStdout();
  std::vector<std::string> args = {"spotcheck", "key", "authority", "actor", "user:42"};
  std::vector<char*> argv;
  for (std::string& arg : args) {
    argv.push_back(arg.data());
  }
  app.parse(static_cast<int>(argv.size()), argv.data());
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find(vector_at(4).at("redisKey").get<std::string>()), std::string::npos) << out;

  EXPECT_EQ(exit_code, kExitOk);

  // Bad input: the command prints its one line and sets the exit code; nothing is thrown, so
  // main prints no second, generic line.
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(parse_app({"spotcheck", "key", "authority", "robot", "x"}), kExitBadInput);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.rfind("spotcheck: kInvalidEnum: ", 0), 0U) << err;
  EXPECT_EQ(line_count(err), 1U) << err;
}

}  // namespace
}  // namespace spotcheck::cli

#include "sim/choice/decision_log_text.h"

#include <charconv>
#include <cstdint>
#include <vector>

#include "impl/check/check.h"

namespace spotcheck::sim {
namespace {

constexpr std::string_view kMagic = "spotcheck-decision-log 1";
constexpr std::size_t kStreamNameBytesMax = 4096;

bool plain_name(std::string_view name) {
  if (name.empty() || name.size() > kStreamNameBytesMax) {
    return false;
  }
  for (const char c : name) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return false;
    }
  }
  return true;
}

// Reads the text line by line; every error names the line last read.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}
  std::string_view next() {
    ++number_;
    if (at_ >= text_.size()) {
      fail("the file ends early (no \"end\" line)");
    }
    const std::size_t newline = text_.find('\n', at_);
    if (newline == std::string_view::npos) {
      fail("the line has no newline (a truncated file?)");
    }
    const std::string_view line = text_.substr(at_, newline - at_);
    at_ = newline + 1;
    return line;
  }
  bool done() const { return at_ == text_.size(); }
  [[noreturn]] void fail(const std::string& why) const {
    throw DecisionLogError("decision log line " + std::to_string(number_) + ": " + why);
  }
  std::uint64_t number(std::string_view word, std::uint64_t max) const {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (word.empty() || error != std::errc() || end != word.data() + word.size() || value > max) {
      fail("expected a decimal number up to " + std::to_string(max));
    }
    return value;
  }
  // "<keyword> <n>"
  std::uint64_t counted(std::string_view keyword, std::uint64_t max) {
    const std::string_view line = next();
    if (!line.starts_with(keyword) || line.size() <= keyword.size() || line[keyword.size()] != ' ') {
      fail("expected \"" + std::string(keyword) + " <count>\"");
    }
    return number(line.substr(keyword.size() + 1), max);
  }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
  std::size_t number_ = 0;  // the line last read, from 1
};

Decision parse_decision(Lines& lines, std::string_view line, std::size_t stream_count) {
  std::string_view words[3];
  std::size_t word = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i) {  // bounded by the line's length
    if (i == line.size() || line[i] == ' ') {
      if (word == 3) {
        lines.fail("expected \"<stream> <count> <value>\"");
      }
      words[word++] = line.substr(start, i - start);
      start = i + 1;
    }
  }
  if (word != 3) {
    lines.fail("expected \"<stream> <count> <value>\"");
  }
  Decision decision;
  decision.stream = static_cast<std::uint32_t>(lines.number(words[0], stream_count - 1));
  decision.count = static_cast<std::uint32_t>(lines.number(words[1], UINT32_MAX));
  decision.value = lines.number(words[2], UINT64_MAX);
  if (decision.count == 1) {
    lines.fail("a pick is among at least 2 candidates");
  }
  if (decision.count != 0 && decision.value >= decision.count) {
    lines.fail("the index picked is not below the count");
  }
  return decision;
}

}  // namespace

std::string decision_log_text(const DecisionLog& log) {
  std::string text(kMagic);
  text += "\nstreams " + std::to_string(log.stream_names().size()) + "\n";
  for (const std::string& name : log.stream_names()) {
    SPOTCHECK_ASSERT_ABORT(plain_name(name));
    text += name + "\n";
  }
  text += "decisions " + std::to_string(log.size()) + "\n";
  for (const Decision& decision : log.decisions()) {
    text += std::to_string(decision.stream) + " " + std::to_string(decision.count) + " " + std::to_string(decision.value) + "\n";
  }
  text += "end\n";
  return text;
}

DecisionLog parse_decision_log(std::string_view text) {
  if (text.size() > kDecisionLogTextBytesMax) {
    throw DecisionLogError("decision log: larger than " + std::to_string(kDecisionLogTextBytesMax) + " bytes");
  }
  Lines lines(text);
  if (lines.next() != kMagic) {
    lines.fail("expected \"" + std::string(kMagic) + "\" (not a decision log)");
  }
  const std::uint64_t stream_count = lines.counted("streams", DecisionLog::kMaxStreams);
  DecisionLog log;
  for (std::uint64_t i = 0; i < stream_count; ++i) {
    const std::string_view name = lines.next();
    if (!plain_name(name)) {
      lines.fail("a stream name is 1 to " + std::to_string(kStreamNameBytesMax) + " bytes without control characters");
    }
    if (log.find_stream(name)) {
      lines.fail("stream '" + std::string(name) + "' is named twice");
    }
    log.stream_index(name);
  }
  const std::uint64_t decision_count = lines.counted("decisions", DecisionLog::kDefaultMaxDecisions);
  if (decision_count > 0 && stream_count == 0) {
    lines.fail("decisions without streams");
  }
  for (std::uint64_t i = 0; i < decision_count; ++i) {
    const std::string_view line = lines.next();
    const bool appended = log.append(parse_decision(lines, line, static_cast<std::size_t>(stream_count)));
    SPOTCHECK_ASSERT_ABORT(appended);
  }
  if (lines.next() != "end") {
    lines.fail("expected \"end\"");
  }
  if (!lines.done()) {
    lines.fail("text after \"end\"");
  }
  return log;
}

}  // namespace spotcheck::sim

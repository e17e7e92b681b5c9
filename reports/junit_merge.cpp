#include "reports/junit_merge.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "reports/markup_escape.h"

namespace spotcheck::reports {

namespace {

constexpr std::size_t kLineBytesMax = 1 << 20;      // a failure message is far shorter
constexpr std::size_t kCaseLinesMax = 16;           // a test case of ours has at most 5 lines
constexpr std::size_t kPropertiesMax = 64;

// One shard's report, read one test case at a time.
class CaseReader {
 public:
  explicit CaseReader(const std::string& path) : _path(path), _in(path) {
    if (!_in) {
      throw std::runtime_error("cannot read JUnit report '" + path + "'");
    }
    std::string line;
    while (next_line(line)) {
      if (line.rfind("  <testsuite ", 0) == 0) {
        advance();
        return;
      }
    }
    throw std::runtime_error("'" + path + "' is not a JUnit report of spotcheck run (no <testsuite>)");
  }

  bool done() const { return !_case.has_value(); }
  std::uint64_t seed() const { return _seed; }
  bool determinism() const { return _determinism; }
  const std::string& text() const { return *_case; }
  // Moves to the next test case (done() at the end of the suite).
  void advance() {
    _case.reset();
    std::string line;
    if (!next_line(line) || line.rfind("  </testsuite>", 0) == 0) {
      return;
    }
    if (line == "    <properties>") {  // the shard's own; the merged report has the whole campaign's
      for (std::size_t n = 0; line != "    </properties>"; ++n) {
        if (n > kPropertiesMax || !next_line(line)) {
          throw std::runtime_error("'" + _path + "': <properties> does not end");
        }
      }
      if (!next_line(line) || line.rfind("  </testsuite>", 0) == 0) {
        return;
      }
    }
    if (line.rfind("    <testcase ", 0) != 0) {
      throw std::runtime_error("'" + _path + "': unexpected line in the suite");
    }
    std::string text = line + "\n";
    parse_name(line);
    for (std::size_t n = 1; line.size() < 2 || line.substr(line.size() - 2) != "/>"; ++n) {
      if (n > kCaseLinesMax || !next_line(line)) {
        throw std::runtime_error("'" + _path + "': a test case does not end");
      }
      text += line + "\n";
      if (line == "    </testcase>") {
        break;
      }
    }
    _case = std::move(text);
  }

 private:
  bool next_line(std::string& line) {
    if (!std::getline(_in, line)) {
      return false;
    }
    if (line.size() > kLineBytesMax) {
      throw std::runtime_error("'" + _path + "': a line longer than " + std::to_string(kLineBytesMax) + " bytes");
    }
    return true;
  }
  void parse_name(const std::string& line) {
    const std::size_t at = line.find(" name=\"");
    if (at == std::string::npos) {
      throw std::runtime_error("'" + _path + "': a test case without a name");
    }
    std::size_t begin = at + 7;
    _determinism = line.compare(begin, 17, "determinism seed ") == 0;
    if (!_determinism && line.compare(begin, 5, "seed ") != 0) {
      throw std::runtime_error("'" + _path + "': a test case named otherwise than 'seed N'");
    }
    begin += _determinism ? 17 : 5;
    const std::string digits = line.substr(begin, line.find('"', begin) - begin);
    if (digits.empty() || digits.size() > 20 || digits.find_first_not_of("0123456789") != std::string::npos) {
      throw std::runtime_error("'" + _path + "': a test case named otherwise than 'seed N'");
    }
    _seed = std::stoull(digits);
  }

  std::string _path;
  std::ifstream _in;
  std::optional<std::string> _case;
  std::uint64_t _seed = 0;
  bool _determinism = false;
};

}  // namespace

std::optional<std::string> merge_junit(const std::vector<std::string>& paths, const CampaignResult& whole,
                                       const std::vector<std::pair<std::string, std::string>>& properties,
                                       std::ostream& out) {
  try {
    std::vector<std::unique_ptr<CaseReader>> readers;
    for (const std::string& path : paths) {
      readers.push_back(std::make_unique<CaseReader>(path));
    }
    std::string determinism;  // the determinism cases, after the seeds (one per mismatch, bounded)
    std::uint64_t tests = 0, failures = 0, skipped = 0;
    // The cases go to an anonymous temporary file until the counts of the suite's line are known.
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> body(std::tmpfile(), &std::fclose);
    if (body == nullptr) {
      throw std::runtime_error("cannot make a temporary file for the merged JUnit report");
    }
    while (true) {
      CaseReader* next = nullptr;
      for (auto& reader : readers) {
        while (!reader->done() && reader->determinism()) {
          determinism += reader->text();
          reader->advance();
        }
        if (!reader->done() && (next == nullptr || reader->seed() < next->seed())) {
          next = reader.get();
        }
      }
      if (next == nullptr) {
        break;
      }
      ++tests;
      failures += next->text().find("<failure") != std::string::npos ? 1 : 0;
      skipped += next->text().find("<skipped") != std::string::npos ? 1 : 0;
      if (std::fwrite(next->text().data(), 1, next->text().size(), body.get()) != next->text().size()) {
        throw std::runtime_error("writing the merged JUnit report's temporary file failed");
      }
      next->advance();
    }
    for (std::size_t at = 0; (at = determinism.find("    <testcase ", at)) != std::string::npos; ++at) {
      ++tests;
      ++failures;
    }
    char wall[32];
    std::snprintf(wall, sizeof wall, "%.3f", whole.wall_seconds);
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
    out << "  <testsuite name=\"spotcheck." << markup::escape(whole.scenario) << "\" tests=\"" << tests
        << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"" << skipped << "\" time=\"" << wall << "\">\n";
    if (!properties.empty()) {
      out << "    <properties>\n";
      for (const auto& [name, value] : properties) {
        out << "      <property name=\"" << markup::escape(name) << "\" value=\"" << markup::escape(value) << "\"/>\n";
      }
      out << "    </properties>\n";
    }
    std::rewind(body.get());
    char chunk[64 * 1024];
    for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, body.get())) > 0;) {
      out.write(chunk, static_cast<std::streamsize>(n));
    }
    if (std::ferror(body.get()) != 0) {
      throw std::runtime_error("reading the merged JUnit report's temporary file failed");
    }
    out << determinism << "  </testsuite>\n</testsuites>\n";
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

}  // namespace spotcheck::reports

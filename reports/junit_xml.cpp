#include "reports/junit_xml.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

#include "reports/markup_escape.h"
#include "reports/output_file.h"

namespace spotcheck::reports {

using markup::escape;

namespace {

std::string testcase_xml(const std::string& scenario, bool swarm, const std::string& out_of_contract,
                         const scenarios::SeedOutcome& o, const std::string& story) {
  std::string xml = "    <testcase classname=\"spotcheck." + escape(scenario) + "\" name=\"seed " +
                    std::to_string(o.seed) + "\"";
  if (o.ok()) {
    return xml + "/>\n";
  }
  const std::string type = o.violation ? o.violation->property : "run-failure";
  const std::string message = o.violation ? o.violation->message : o.failure.value_or("");
  const std::string replay = replay_command(scenario, o.seed, swarm, out_of_contract);
  if (o.failed_only_out_of_contract()) {
    std::string needed;
    for (const std::string& kind : o.out_of_contract_needed) {
      needed += (needed.empty() ? "" : ",") + kind;
    }
    xml += ">\n      <skipped message=\"out of contract (needs " + escape(needed) + "): " + escape(type) + ": " +
           escape(message) + "\"/>\n      <system-out>" + escape(replay) + "</system-out>\n";
    return xml + "    </testcase>\n";
  }
  xml += ">\n      <failure type=\"" + escape(type) + "\" message=\"" + escape(message) + "\">" + escape(replay) +
         "</failure>\n";
  if (!story.empty()) {
    // One line (the merge of shard reports reads a case line by line): the story's lines joined by
    // escaped newlines, which the XML reader gives back as newlines.
    std::string one_line;
    for (const char c : story) {
      one_line += c == '\n' ? std::string("&#10;") : escape(std::string(1, c));
    }
    xml += "      <system-out>" + one_line + "</system-out>\n";
  }
  return xml + "    </testcase>\n";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> junit_properties(const CampaignResult& r, const std::string& build_commit,
                                                                  const std::string& binary_sha256) {
  return {{"scenario", r.scenario},
          {"firstSeed", std::to_string(r.shard.first_seed)},
          {"seeds", std::to_string(r.shard.seeds)},
          {"swarm", r.swarm ? "true" : "false"},
          {"outOfContract", r.out_of_contract},
          {"buildCommit", build_commit},
          {"binarySha256", binary_sha256}};
}

JUnitWriter::JUnitWriter(std::string scenario_label, bool swarm, std::string out_of_contract)
    : _scenario(std::move(scenario_label)),
      _swarm(swarm),
      _out_of_contract(std::move(out_of_contract)),
      _cases(std::tmpfile()) {
  if (_cases == nullptr) {
    throw OutputError(std::string("cannot make a temporary file for the JUnit report: ") + std::strerror(errno));
  }
}

JUnitWriter::~JUnitWriter() { std::fclose(_cases); }

void JUnitWriter::add(const scenarios::SeedOutcome& outcome, const std::string& story) {
  const std::string xml = testcase_xml(_scenario, _swarm, _out_of_contract, outcome, story);
  std::fwrite(xml.data(), 1, xml.size(), _cases);
  ++_count;
  _skipped += outcome.failed_only_out_of_contract() ? 1 : 0;
  _failed += outcome.ok() || outcome.failed_only_out_of_contract() ? 0 : 1;
}

void JUnitWriter::write(const CampaignResult& r, std::ostream& out) {
  if (std::fflush(_cases) != 0 || std::ferror(_cases) != 0) {
    throw OutputError(std::string("writing the JUnit report's temporary file failed: ") + std::strerror(errno));
  }
  char wall[32];
  std::snprintf(wall, sizeof wall, "%.3f", r.wall_seconds);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites>\n";
  out << "  <testsuite name=\"spotcheck." << escape(_scenario) << "\" tests=\"" << _count + r.mismatches.size()
      << "\" failures=\"" << _failed + r.mismatches.size() << "\" errors=\"0\" skipped=\"" << _skipped
      << "\" time=\"" << wall << "\">\n";
  if (!_properties.empty()) {
    out << "    <properties>\n";
    for (const auto& [name, value] : _properties) {
      out << "      <property name=\"" << escape(name) << "\" value=\"" << escape(value) << "\"/>\n";
    }
    out << "    </properties>\n";
  }
  std::rewind(_cases);
  std::array<char, 64 * 1024> chunk{};
  for (std::size_t n; (n = std::fread(chunk.data(), 1, chunk.size(), _cases)) > 0;) {
    out.write(chunk.data(), static_cast<std::streamsize>(n));
  }
  if (std::ferror(_cases) != 0) {
    throw OutputError(std::string("reading the JUnit report's temporary file failed: ") + std::strerror(errno));
  }
  for (const auto& m : r.mismatches) {
    out << "    <testcase classname=\"spotcheck." << escape(_scenario) << "\" name=\"determinism seed " << m.seed
        << "\">\n      <failure type=\"nondeterminism\" message=\"first differs at event "
        << m.divergence.event_index << "\">" << escape(m.divergence.first) << " / " << escape(m.divergence.second)
        << "</failure>\n    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace spotcheck::reports

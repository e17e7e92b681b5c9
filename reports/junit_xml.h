// JUnit XML for CI dashboards: one test case per seed; a failing seed carries its replay command. A
// seed that failed only because of out-of-contract faults is <skipped> with the kinds it needed.
// The per-seed cases are streamed (JUnitWriter::add, in seed order, to an anonymous temporary
// file) so a campaign of millions of seeds holds none of them in memory; finish() writes the whole
// report into place atomically (reports/output_file.h).
#pragma once

#include <cstdio>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "reports/campaign_result.h"

namespace spotcheck::reports {

// The suite's <property> list for a campaign: scenario, its seed range, swarm, out-of-contract kinds
// and the build (`build_commit`, `binary_sha256`); the same for its shards' merge.
std::vector<std::pair<std::string, std::string>> junit_properties(const CampaignResult& whole_campaign_shape,
                                                                  const std::string& build_commit,
                                                                  const std::string& binary_sha256);

class JUnitWriter {
 public:
  // Throws OutputError when the temporary file cannot be made.
  JUnitWriter(std::string scenario_label, bool swarm, std::string out_of_contract = "");
  ~JUnitWriter();
  JUnitWriter(const JUnitWriter&) = delete;
  JUnitWriter& operator=(const JUnitWriter&) = delete;

  // `story`: the failing seed's story (replay/story), carried in the case's <system-out>.
  void add(const scenarios::SeedOutcome& outcome, const std::string& story = "");
  // A <property> of the suite (scenario, seeds, build, ...), in the order set.
  void set_property(std::string name, std::string value) { _properties.emplace_back(std::move(name), std::move(value)); }
  // The whole report: the suite's counts, every case added, the determinism mismatches.
  // Throws OutputError if a write failed (now or in an earlier add()).
  void write(const CampaignResult& result, std::ostream& out);

 private:
  std::string _scenario;
  bool _swarm;
  std::string _out_of_contract;
  std::FILE* _cases;
  std::uint64_t _count = 0;
  std::uint64_t _failed = 0;
  std::uint64_t _skipped = 0;
  std::vector<std::pair<std::string, std::string>> _properties;
};

}  // namespace spotcheck::reports

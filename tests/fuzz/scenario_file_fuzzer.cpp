// libFuzzer target: the scenario file reader (scenarios/files/). Any text is a config or one
// ScenarioFileError line; an accepted config that can be written reads back as the same config.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "scenarios/files/scenario_file.h"
#include "tests/fuzz/fuzz_support.h"

using spotcheck::fuzz::require;
namespace files = spotcheck::scenarios::files;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  spotcheck::scenarios::authority::AuthorityScenarioConfig config;
  try {
    config = files::parse_scenario(text, "fuzz.json");
  } catch (const files::ScenarioFileError& e) {
    const std::string_view what = e.what();
    require(what.rfind("fuzz.json: ", 0) == 0);
    require(what.find('\n') == std::string_view::npos);
    return 0;
  }
  files::ScenarioFileText written;
  try {
    written = files::write_scenario(config);
  } catch (const files::ScenarioFileError&) {
    return 0;  // a value the writer cannot hold exactly (documented)
  }
  const auto again = files::parse_scenario(written.json, "written.json");
  if (written.not_written.empty()) {
    require(files::scenario_difference(config, again).empty());
  }
  return 0;
}

// libFuzzer target: `spotcheck record canon` on any stdin, relaxed and --strict (issue 9). It
// must print one canonical line and exit 0, or print one line "spotcheck: ..." and exit 2; what
// it prints as canonical must read back unchanged under --strict.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "cli/records/record_commands.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using spotcheck::fuzz::require;
using namespace spotcheck::cli;

struct Run {
  int rc = -1;
  std::string out;
  std::string err;
};

Run canon(const std::string& input, bool strict) {
  std::istringstream in(input);
  std::ostringstream out;
  std::ostringstream err;
  RecordCanonOptions options;
  options.strict = strict;
  Run run;
  run.rc = run_record_canon(in, options, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

void check_shape(const Run& run) {
  require(run.rc == kExitOk || run.rc == kExitBadInput);
  if (run.rc == kExitOk) {
    require(run.err.empty());
    require(!run.out.empty() && run.out.back() == '\n');
    return;
  }
  require(run.out.empty());
  require(run.err.rfind("spotcheck: ", 0) == 0);
  require(run.err.find('\n') == run.err.size() - 1);  // exactly one line
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const Run relaxed = canon(input, false);
  check_shape(relaxed);
  const Run strict = canon(input, true);
  check_shape(strict);
  if (relaxed.rc == kExitOk) {
    // The canonical bytes are a fixed point of both modes.
    const Run again = canon(relaxed.out, true);
    require(again.rc == kExitOk && again.out == relaxed.out);
  }
  if (strict.rc == kExitOk) {
    require(relaxed.rc == kExitOk && relaxed.out == strict.out);
  }
  return 0;
}

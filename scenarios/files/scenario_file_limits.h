// What every scenario file reader shares with the public API of scenario_file.h: the format
// version, the size bound, and the one error type.
#pragma once

#include <cstddef>
#include <stdexcept>

namespace spotcheck::scenarios::files {

inline constexpr int kScenarioFileVersion = 1;
// A scenario file is a few hundred bytes; anything past 1 MiB is a mistake (or /dev/zero).
inline constexpr std::size_t kScenarioFileBytesMax = 1024 * 1024;

struct ScenarioFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace spotcheck::scenarios::files

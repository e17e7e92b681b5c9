#include "cli/results_folder.h"

#include <filesystem>
#include <fstream>

#include "cli/scenario_lookup.h"
#include "impl/json_guard/json_guard.h"
#include "reports/output_file.h"

namespace spotcheck::cli {

std::string scenario_slug(const std::string& scenario_flag) {
  std::string slug = std::filesystem::path(scenario_flag).stem().string();
  for (char& c : slug) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    c = plain ? c : '_';
  }
  return slug;
}

std::optional<std::string> scenario_file_text(const std::string& scenario_flag) {
  const std::string file = scenario_file_path(scenario_flag);
  if (file.empty()) {
    return std::nullopt;
  }
  std::ifstream in(file, std::ios::binary);
  return json_guard::read_bounded(in, 1 << 20).text;
}

void make_results_dir(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    throw reports::OutputError("cannot make the results folder '" + dir + "': " + error.message());
  }
}

}  // namespace spotcheck::cli

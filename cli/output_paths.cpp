#include "cli/output_paths.h"

#include <sys/stat.h>

#include <filesystem>

#include "cli/commands.h"

namespace spotcheck::cli {

namespace {

// Two paths name one file: the same inode when both exist, otherwise the same normal absolute path.
bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {};
  struct stat sb {};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0) {
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  }
  std::error_code error;
  const auto ca = std::filesystem::weakly_canonical(a, error);
  const auto cb = std::filesystem::weakly_canonical(b, error);
  return !error && ca == cb;
}

}  // namespace

CLI::Validator output_file_name() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        if (path.empty()) {
          return "needs a file name, not an empty string";
        }
        if (path.front() == '-') {
          return "needs a file name, not '" + path + "' (write ./" + path + " for a file whose name starts with '-')";
        }
        return "";
      },
      "FILE");
}

void check_output_paths(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& out = outputs[i];
    if (out.path.empty()) {
      continue;
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (!outputs[j].path.empty() && same_file(outputs[j].path, out.path)) {
        throw UsageError(outputs[j].flag + " and " + out.flag + " name the same file '" + out.path + "'");
      }
    }
    for (const NamedPath& in : inputs) {
      if (!in.path.empty() && same_file(in.path, out.path)) {
        throw UsageError(out.flag + " '" + out.path + "' would overwrite the " + in.flag + " input file");
      }
    }
  }
}

}  // namespace spotcheck::cli

// An output file that is written whole or not at all. The content goes to a temporary file beside
// the target (same folder, so the rename is atomic), every write is checked, and commit() flushes,
// syncs and renames it over the target. A target that exists and is not a regular file (a device
// such as /dev/stdout or /dev/full, a fifo) is written in place, every write still checked.
// Destroying an OutputFile that was not committed removes the temporary file and leaves an earlier
// target untouched. Failures are OutputError: one line naming the path and the system's reason.
#pragma once

#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace spotcheck::reports {

struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class OutputFile {
 public:
  // `what` names the file in errors ("JUnit report", "trace"). Throws OutputError when the
  // temporary file (or the device) cannot be opened.
  OutputFile(std::string path, std::string what);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream();
  // Flushes, syncs and renames into place; throws OutputError on any failed write. Once only.
  void commit();
  const std::string& path() const { return _path; }

 private:
  class Buffer;
  std::string _path;
  std::string _what;
  std::string _temp_path;  // empty when written in place
  std::unique_ptr<Buffer> _buffer;
  std::unique_ptr<std::ostream> _stream;
  bool _committed = false;
};

// The whole content at once, through an OutputFile.
void write_output_file(const std::string& path, const std::string& what, std::string_view content);

// Flushes standard output and throws OutputError if anything written to it was lost (a full disk,
// a closed pipe). Call once at exit.
void check_standard_output();

}  // namespace spotcheck::reports

// reports/output_file: a report is whole or absent, an earlier one survives a failed or abandoned
// write, devices are written in place, and every failure is one OutputError line.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/output_file.h"
#include "reports/shell_quote.h"

namespace spotcheck::reports {
namespace {

namespace fs = std::filesystem;

struct ScratchDir {
  ScratchDir() : path(fs::temp_directory_path() / ("output_file_test." + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() { fs::remove_all(path); }
  std::size_t entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(path), {})); }
  fs::path path;
};

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(OutputFile, NothingReachesTheTargetBeforeCommit) {
  ScratchDir dir;
  const std::string target = (dir.path / "report.xml").string();
  write_output_file(target, "report", "OLD\n");
  {
    OutputFile file(target, "report");
    file.stream() << "NEW\n";
    EXPECT_EQ(read_all(target), "OLD\n") << "the earlier report stays whole while the new one is written";
    EXPECT_EQ(dir.entries(), 2u) << "the new content is in a temporary file beside it";
    file.commit();
  }
  EXPECT_EQ(read_all(target), "NEW\n");
  EXPECT_EQ(dir.entries(), 1u) << "no temporary file is left";
}

TEST(OutputFile, AnAbandonedWriteLeavesTheEarlierFileAndNoTemporary) {
  ScratchDir dir;
  const std::string target = (dir.path / "report.html").string();
  write_output_file(target, "report", "OLD\n");
  {
    OutputFile file(target, "report");
    file.stream() << std::string(200'000, 'x');  // past the buffer: bytes reached the temporary file
  }
  EXPECT_EQ(read_all(target), "OLD\n");
  EXPECT_EQ(dir.entries(), 1u);
}

TEST(OutputFile, TheFileGetsTheUsualModeNotTheTemporaryFilesMode) {
  ScratchDir dir;
  const mode_t old_mask = ::umask(022);
  const std::string target = (dir.path / "report.xml").string();
  write_output_file(target, "report", "x");
  ::umask(old_mask);
  struct stat st {};
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
}

TEST(OutputFile, AFullDeviceIsAnErrorNamingThePath) {
  try {
    OutputFile file("/dev/full", "JUnit report");
    file.stream() << "x";
    file.commit();
    FAIL() << "a write to /dev/full must fail";
  } catch (const OutputError& e) {
    EXPECT_STREQ(e.what(), "writing JUnit report to '/dev/full' failed: No space left on device");
  }
}

TEST(OutputFile, ADeviceIsWrittenInPlaceAndNeverReplaced) {
  write_output_file("/dev/null", "trace", "discarded");
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(OutputFile, UnwritablePlacesAreOneLineErrors) {
  ScratchDir dir;
  EXPECT_THROW(OutputFile((dir.path / "missing" / "x").string(), "report"), OutputError);
  EXPECT_THROW(OutputFile(dir.path.string(), "report"), OutputError);
  EXPECT_THROW(OutputFile("", "report"), OutputError);
}

TEST(ShellQuote, SafeWordsStayAndEverythingElsePastesBack) {
  EXPECT_EQ(shell_quote("default"), "default");
  EXPECT_EQ(shell_quote("scenarios/files/x-1.json"), "scenarios/files/x-1.json");
  EXPECT_EQ(shell_quote("my dir/a b<c.json"), "'my dir/a b<c.json'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("-x"), "'-x'");
  EXPECT_EQ(shell_quote("$(rm -rf /)"), "'$(rm -rf /)'");
}

}  // namespace
}  // namespace spotcheck::reports

#include "reports/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <streambuf>

#include "impl/check/check.h"

namespace spotcheck::reports {

namespace {

std::string reason(int error) { return std::strerror(error); }

// The folder and base name of a path, for a temporary file beside it.
std::string temp_path_beside(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return dir + "." + base + ".tmp-XXXXXX";
}

mode_t creation_mode() {
  // The mode an ordinary open(..., 0666) would give under the process's umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

// A streambuf over a file descriptor: 64 KiB buffered, every write(2) checked; the first error
// sticks (errno kept for the message) and fails the stream.
class OutputFile::Buffer final : public std::streambuf {
 public:
  explicit Buffer(int fd) : _fd(fd) { setp(_data.data(), _data.data() + _data.size()); }
  ~Buffer() override {
    if (_fd >= 0) {
      ::close(_fd);
    }
  }
  int error() const { return _error; }
  // Flush, fsync (regular files only) and close; returns 0 or an errno.
  int finish(bool sync) {
    drain();
    if (_error == 0 && sync && ::fsync(_fd) != 0 && errno != EINVAL && errno != EROFS) {
      _error = errno;
    }
    if (::close(_fd) != 0 && _error == 0) {
      _error = errno;
    }
    _fd = -1;
    return _error;
  }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) {
      return traits_type::eof();
    }
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* from = pbase();
    const char* const to = pptr();
    while (_error == 0 && from < to) {
      const ssize_t n = ::write(_fd, from, static_cast<std::size_t>(to - from));
      if (n < 0) {
        if (errno == EINTR) {
          continue;
        }
        _error = errno;
      } else {
        from += n;
      }
    }
    setp(_data.data(), _data.data() + _data.size());
    return _error == 0;
  }

  int _fd;
  int _error = 0;
  std::array<char, 64 * 1024> _data{};
};

OutputFile::OutputFile(std::string path, std::string what) : _path(std::move(path)), _what(std::move(what)) {
  if (_path.empty()) {
    throw OutputError("the " + _what + " path is empty");
  }
  struct stat st {};
  int fd = -1;
  if (::stat(_path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) {
      throw OutputError("cannot write " + _what + " to '" + _path + "': it is a directory");
    }
    fd = ::open(_path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
      throw OutputError("cannot write " + _what + " to '" + _path + "': " + reason(errno));
    }
  } else {
    std::string temp = temp_path_beside(_path);
    fd = ::mkstemp(temp.data());
    if (fd < 0) {
      throw OutputError("cannot write " + _what + " to '" + _path + "': " + reason(errno));
    }
    ::fchmod(fd, creation_mode());
    _temp_path = std::move(temp);
  }
  _buffer = std::make_unique<Buffer>(fd);
  _stream = std::make_unique<std::ostream>(_buffer.get());
}

OutputFile::~OutputFile() {
  if (!_committed && !_temp_path.empty()) {
    _stream.reset();
    _buffer.reset();
    ::unlink(_temp_path.c_str());
  }
}

std::ostream& OutputFile::stream() {
  SPOTCHECK_ASSERT_ABORT(!_committed);
  return *_stream;
}

void OutputFile::commit() {
  SPOTCHECK_ASSERT_ABORT(!_committed);
  _committed = true;
  _stream->flush();
  const int error = _buffer->finish(!_temp_path.empty());
  if (error != 0) {
    if (!_temp_path.empty()) {
      ::unlink(_temp_path.c_str());
    }
    throw OutputError("writing " + _what + " to '" + _path + "' failed: " + reason(error));
  }
  if (!_temp_path.empty() && ::rename(_temp_path.c_str(), _path.c_str()) != 0) {
    const int rename_error = errno;
    ::unlink(_temp_path.c_str());
    throw OutputError("cannot write " + _what + " to '" + _path + "': " + reason(rename_error));
  }
}

void write_output_file(const std::string& path, const std::string& what, std::string_view content) {
  OutputFile file(path, what);
  file.stream().write(content.data(), static_cast<std::streamsize>(content.size()));
  file.commit();
}

void check_standard_output() {
  std::cout.flush();
  const bool stream_failed = !std::cout;
  errno = 0;
  const bool stdio_failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (stream_failed || stdio_failed) {
    const int error = errno;
    std::cout.clear();
    throw OutputError(std::string("writing standard output failed") + (error != 0 ? ": " + reason(error) : ""));
  }
}

}  // namespace spotcheck::reports

// This build's identity for trace files: the git commit it was built from and the SHA-256 of the
// running binary (/proc/self/exe).
#pragma once

#include "replay/trace_file/trace_file.h"

namespace spotcheck::cli {

// Computed once per process.
const replay::BuildId& this_build();

}  // namespace spotcheck::cli

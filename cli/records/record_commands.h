// Operator commands for the public records (spec §3.4, §7.4):
//   spotcheck key <record> <parts...> [--namespace NS]
//   spotcheck record canon [--type T] [--strict] [--hex]   (record JSON on stdin)
// The run_* functions hold all the logic and are tested directly; exit codes: 0 success,
// 2 bad input (one line on `err`, prefixed "spotcheck: ").
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace spotcheck::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;

// parts: <record> <key parts...>, where record and parts are one of
//   mesh-node <MeshName> <routingIdHex>
//   owner-lease <OwnerId>
//   client-server <ChannelName> <routingIdHex>
//   fanout-publisher <ChannelName> <routingIdHex>
//   authority <actor|spot> <Id>
// Prints "preimageHex: ...", "sha256Hex: ...", "redisKey: ..." (one per line).
int run_key_command(const std::vector<std::string>& parts, std::string_view ns, std::ostream& out,
                    std::ostream& err);

struct RecordCanonOptions {
  // mesh-node | owner-lease | client-server | fanout-publisher | authority; empty = by shape.
  std::string type;
  // Decode the input bytes as they are (one trailing newline ignored) with the strict codec,
  // instead of first re-serializing any JSON layout.
  bool strict = false;
  // Print the canonical bytes as lowercase hex instead of raw.
  bool hex = false;
};

// Reads one record as JSON from `in`, prints its canonical value bytes and a newline, or the
// typed error on one line of `err` and returns 2.
int run_record_canon(std::istream& in, const RecordCanonOptions& options, std::ostream& out,
                     std::ostream& err);

// Registers the `key` and `record canon` subcommands on the spotcheck app; a command stores its
// exit code in `exit_code` (its error line is already printed, so nothing is thrown).
void add_record_commands(CLI::App& app, int& exit_code);

}  // namespace spotcheck::cli

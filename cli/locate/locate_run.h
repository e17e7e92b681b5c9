// What `spotcheck locate` does, without the flag parsing (cli/locate_command.cpp parses): one
// operational query (spec §7.4) against a live Redis, read-only (the session refuses every write;
// a namespace with no keys is refused before anything is written to it).
//
//   spotcheck locate [--url URL | --url-file F] [--namespace NS] actor user:42
//   spotcheck locate [--url URL] --kind userSpot [--type Room] [--mesh game] [--page-size N]
//                    [--pages N] [--continuation TOKEN]
//
// Exit status: 0 answered (also "no record"); 1 the store failed (§7.4: an Unavailable error, no
// partial page); 2 bad input or an unusable server — one line on `err`, "spotcheck locate: ...".
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace spotcheck::cli {

inline constexpr int kLocateExitAnswered = 0;
inline constexpr int kLocateExitStoreFailed = 1;
inline constexpr int kLocateExitUsage = 2;
inline constexpr std::uint32_t kLocatePagesMax = 10'000;

struct LocateOptions {
  std::optional<std::string> url;  // neither this nor url_file: redis://127.0.0.1:6379
  std::string url_file;
  std::optional<std::string> rediscli_auth;
  std::string key_namespace = "zlink:v11:";  // the framework's default namespace
  bool adopt_namespace = false;  // read a namespace the provider did not write (no marker)
  // Lookup: "actor" or "spot", and the ID.
  std::string what;
  std::string id;
  // List: the object kind (actor | userSpot | instanceSpot) and optional filters.
  std::optional<std::string> kind;
  std::optional<std::string> stable_type;
  std::optional<std::string> mesh_name;
  std::uint32_t page_size = 100;
  std::uint32_t pages = 1;  // pages to print, following the continuation
  std::optional<std::string> continuation;
};

int run_locate(const LocateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace spotcheck::cli

// spotcheck locate [--url URL | --url-file FILE] [--namespace NS] [--adopt-namespace] actor|spot ID
// spotcheck locate ... --kind KIND [--type T] [--mesh M] [--page-size N] [--pages N] [--continuation T]
// The password may also come from REDISCLI_AUTH (docs/integration.md).
#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/locate/locate_run.h"
#include "cli/number_text.h"
#include "impl/json_guard/json_guard.h"

namespace spotcheck::cli {

namespace {

struct LocateFlags {
  std::string url;
  std::string kind;
  std::string stable_type;
  std::string mesh_name;
  std::string page_size;
  std::string pages;
  std::string continuation;
  std::vector<std::string> positional;
};

// `text` as a plain decimal in [1, max], or nullopt.
std::optional<std::uint32_t> count(const std::string& text, std::uint32_t max) {
  const auto value = plain_decimal(text);
  if (!value.has_value() || *value < 1 || *value > max) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(*value);
}

}  // namespace

void add_locate_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<LocateOptions>();
  auto flags = std::make_shared<LocateFlags>();
  auto* cmd = app.add_subcommand(
      "locate",
      "Look up where an Actor or Spot lives, or list one object kind page by page, in a live Redis (read-only; "
      "spec §7.4)\n  spotcheck locate actor user:42\n  spotcheck locate --kind userSpot --type Room --mesh game");
  cmd->add_option("what-and-id", flags->positional, "actor ID | spot ID")->expected(0, 2);
  auto* url_option = cmd->add_option("--url", flags->url, "redis://[user:password@]host[:port][/db] (default redis://127.0.0.1:6379)")
                         ->type_name("URL");
  cmd->add_option("--url-file", options->url_file, "Read the URL from this file (one line)")->type_name("FILE");
  cmd->add_option("--namespace", options->key_namespace, "Key namespace (default zlink:v11:)")->capture_default_str();
  cmd->add_flag("--adopt-namespace", options->adopt_namespace,
                "Read a namespace this provider did not write (the framework's own, say)");
  auto* kind_option = cmd->add_option("--kind", flags->kind, "List one object kind: actor, userSpot or instanceSpot");
  auto* type_option = cmd->add_option("--type", flags->stable_type, "Only this stable type (with --kind)");
  auto* mesh_option = cmd->add_option("--mesh", flags->mesh_name, "Only this MeshName (with --kind)");
  auto* page_size_option = cmd->add_option("--page-size", flags->page_size, "Entries per page, 1..1000 (default 100)");
  auto* pages_option = cmd->add_option("--pages", flags->pages, "Pages to print, following the continuation (default 1)");
  auto* continuation_option =
      cmd->add_option("--continuation", flags->continuation, "Resume a list where an earlier page ended");
  cmd->callback([options, flags, url_option, kind_option, type_option, mesh_option, page_size_option, pages_option,
                 continuation_option, &exit_code] {
    const auto usage = [&exit_code](const std::string& text) {
      std::cerr << "spotcheck locate: " << json_guard::one_line(text, 400) << "\n";
      exit_code = kLocateExitUsage;
    };
    if (flags->positional.size() == 1) {
      return usage("'" + flags->positional[0] + "' needs an ID: spotcheck locate actor|spot ID");
    }
    if (flags->positional.size() == 2) {
      options->what = flags->positional[0];
      options->id = flags->positional[1];
    }
    if (url_option->count() > 0) {
      options->url = flags->url;
    }
    if (kind_option->count() > 0) {
      options->kind = flags->kind;
    }
    if (type_option->count() > 0) {
      options->stable_type = flags->stable_type;
    }
    if (mesh_option->count() > 0) {
      options->mesh_name = flags->mesh_name;
    }
    if (continuation_option->count() > 0) {
      options->continuation = flags->continuation;
    }
    if (page_size_option->count() > 0) {
      const auto size = count(flags->page_size, 1'000);
      if (!size.has_value()) {
        return usage("--page-size must be a decimal number 1..1000, got '" + flags->page_size + "'");
      }
      options->page_size = *size;
    }
    if (pages_option->count() > 0) {
      const auto pages = count(flags->pages, kLocatePagesMax);
      if (!pages.has_value()) {
        return usage("--pages must be a decimal number 1.." + std::to_string(kLocatePagesMax) + ", got '" +
                     flags->pages + "'");
      }
      options->pages = *pages;
    }
    if (const char* auth = std::getenv("REDISCLI_AUTH"); auth != nullptr) {
      options->rediscli_auth = std::string(auth);
    }
    exit_code = run_locate(*options, std::cout, std::cerr);
  });
}

}  // namespace spotcheck::cli

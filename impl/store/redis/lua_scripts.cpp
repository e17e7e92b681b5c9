#include "impl/store/redis/lua_scripts.h"

#include "impl/check/check.h"

namespace spotcheck::store::redis {

namespace lua_sources {
extern const std::string_view kCommon;
extern const std::string_view kRead;
extern const std::string_view kWrite;
extern const std::string_view kScan;
extern const std::string_view kRelocationPut;
extern const std::string_view kRelocationGet;
extern const std::string_view kRelocationDelete;
}  // namespace lua_sources

namespace {

// Scripts that only read declare it, so Redis may run them on a replica and never under OOM
// rules; the others are plain write scripts (refused up front when the server is out of memory).
constexpr std::string_view kReadOnlyShebang = "#!lua flags=no-writes\n";
constexpr std::string_view kWriteShebang = "#!lua\n";

std::string compose(std::string_view shebang, std::string_view body) {
  std::string text;
  text.reserve(shebang.size() + lua_sources::kCommon.size() + body.size() + 1);
  text.append(shebang);
  text.append(lua_sources::kCommon);
  text.push_back('\n');
  text.append(body);
  return text;
}

std::array<std::string, kScriptCount> build_all() {
  std::array<std::string, kScriptCount> texts;
  texts[static_cast<std::size_t>(ScriptId::kRead)] = compose(kReadOnlyShebang, lua_sources::kRead);
  texts[static_cast<std::size_t>(ScriptId::kWrite)] = compose(kWriteShebang, lua_sources::kWrite);
  texts[static_cast<std::size_t>(ScriptId::kScan)] = compose(kWriteShebang, lua_sources::kScan);
  texts[static_cast<std::size_t>(ScriptId::kRelocationPut)] = compose(kWriteShebang, lua_sources::kRelocationPut);
  texts[static_cast<std::size_t>(ScriptId::kRelocationGet)] = compose(kReadOnlyShebang, lua_sources::kRelocationGet);
  texts[static_cast<std::size_t>(ScriptId::kRelocationDelete)] =
      compose(kWriteShebang, lua_sources::kRelocationDelete);
  for ([[maybe_unused]] const std::string& text : texts) {
    SPOTCHECK_ASSERT(text.size() > lua_sources::kCommon.size());
  }
  return texts;
}

}  // namespace

std::string_view script_name(ScriptId id) {
  switch (id) {
    case ScriptId::kRead:
      return "read";
    case ScriptId::kWrite:
      return "write";
    case ScriptId::kScan:
      return "scan";
    case ScriptId::kRelocationPut:
      return "relocation-put";
    case ScriptId::kRelocationGet:
      return "relocation-get";
    case ScriptId::kRelocationDelete:
      return "relocation-delete";
  }
  return "unknown";
}

const std::string& script_text(ScriptId id) {
  static const std::array<std::string, kScriptCount> texts = build_all();
  const auto index = static_cast<std::size_t>(id);
  SPOTCHECK_ASSERT(index < kScriptCount);
  return texts[index];
}

}  // namespace spotcheck::store::redis

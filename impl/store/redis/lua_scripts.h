// The provider's Lua scripts, one per SPI operation (sources in lua/, embedded at build time).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace spotcheck::store::redis {

enum class ScriptId : std::size_t { kRead, kWrite, kScan, kRelocationPut, kRelocationGet, kRelocationDelete };
inline constexpr std::size_t kScriptCount = 6;
inline constexpr std::array<ScriptId, kScriptCount> kAllScripts = {
    ScriptId::kRead,          ScriptId::kWrite,         ScriptId::kScan,
    ScriptId::kRelocationPut, ScriptId::kRelocationGet, ScriptId::kRelocationDelete};

std::string_view script_name(ScriptId id);
// The full script sent with SCRIPT LOAD: shebang line (flags), lua/common.lua, the body.
const std::string& script_text(ScriptId id);

}  // namespace spotcheck::store::redis

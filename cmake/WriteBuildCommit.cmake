# Writes OUT (a header defining SPOTCHECK_GIT_COMMIT: the checkout's commit, "-dirty" when tracked
# files differ from it, "unknown" without git) and touches it only when that changed, so a build
# recompiles the one file that reads it only after a commit. Run at every build
# (cli/CMakeLists.txt): the trace files' build id (replay/trace_file/trace_file.h) stays true.
execute_process(COMMAND git -C "${SRC}" rev-parse HEAD OUTPUT_VARIABLE commit ERROR_QUIET
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed)
if(failed OR commit STREQUAL "")
  set(commit "unknown")
else()
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no OUTPUT_VARIABLE changes ERROR_QUIET)
  if(NOT changes STREQUAL "")
    set(commit "${commit}-dirty")
  endif()
endif()
file(WRITE "${OUT}.tmp" "#define SPOTCHECK_GIT_COMMIT \"${commit}\"\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")

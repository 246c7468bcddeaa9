# Writes the version header with the commit the sources are at. Run at every build (cmake -P),
# not only at configure time: results and checkpoints record this commit, and a checkpoint is
# resumed only by the same build, so a value left from the last configure would let a build of
# other sources pass for the one that wrote it. A working tree with changes not committed is
# marked "-dirty-" and a hash of them, so that two different uncommitted states differ too.
# configure_file rewrites the header only when its text changes (nothing recompiles otherwise).
#   cmake -DSOURCE_DIR=... -DOUT=... -DPROJECT_VERSION=... -P git_sha.cmake
# Only the sources' own repository counts (not one they were unpacked into).
execute_process(COMMAND git rev-parse --show-toplevel WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
set(sha "")
file(REAL_PATH "${SOURCE_DIR}" source_real)
if(top)
  file(REAL_PATH "${top}" top_real)
endif()
if(top AND top_real STREQUAL source_real)
  execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE sha OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(sha)
  execute_process(COMMAND git diff HEAD --no-ext-diff --binary WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE changes ERROR_QUIET)
  execute_process(COMMAND git ls-files --others --exclude-standard WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE untracked OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(untracked)
    string(REPLACE "\n" ";" untracked "${untracked}")
    foreach(f IN LISTS untracked)
      if(EXISTS "${SOURCE_DIR}/${f}" AND NOT IS_DIRECTORY "${SOURCE_DIR}/${f}")
        file(SHA256 "${SOURCE_DIR}/${f}" h)
        string(APPEND changes "${f} ${h}\n")
      endif()
    endforeach()
  endif()
  if(changes)
    string(SHA256 h "${changes}")
    string(SUBSTRING "${h}" 0 8 h)
    set(sha "${sha}-dirty-${h}")
  endif()
else()
  set(sha "unknown")
endif()
set(COLLNOISE_GIT_SHA "${sha}")
configure_file(${SOURCE_DIR}/core/version.hpp.in ${OUT} @ONLY)

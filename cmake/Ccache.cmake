# Use ccache when present. Precompiled headers need the sloppiness below to be cached at all, and
# paths under the source tree are hashed relative to it (CCACHE_BASEDIR), so that a clone in
# another folder reuses what was compiled in this one (the suites' own sources excepted: Qt Test
# and tests/CMakeLists.txt put the build folder's path in their macros).
# Depend mode: on a miss ccache takes the headers from the compiler's -MD file instead of running
# the preprocessor first, which cost a fifth more on each unit with a precompiled header (5 s of
# 24 s for a LibTorch suite's): a cold cache should cost little more than none.
find_program(RLDA_CCACHE ccache)
if(RLDA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER
      ${CMAKE_COMMAND} -E env "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
      "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}" CCACHE_DEPEND=1 ${RLDA_CCACHE})
  message(STATUS "ccache: ${RLDA_CCACHE}")
endif()

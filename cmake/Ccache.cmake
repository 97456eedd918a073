# Use ccache when present. Precompiled headers need the sloppiness below to be cached at all, and
# paths under the source tree are hashed relative to it (CCACHE_BASEDIR), so that a clone in
# another folder (CI's) reuses what was compiled in this one.
find_program(RLDA_CCACHE ccache)
if(RLDA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER
      ${CMAKE_COMMAND} -E env "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
      "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}" ${RLDA_CCACHE})
  message(STATUS "ccache: ${RLDA_CCACHE}")
endif()

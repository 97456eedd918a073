# Use ccache when present. Precompiled headers need the sloppiness below to be cached at all.
find_program(RLDA_CCACHE ccache)
if(RLDA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER
      ${CMAKE_COMMAND} -E env "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
      ${RLDA_CCACHE})
  message(STATUS "ccache: ${RLDA_CCACHE}")
endif()

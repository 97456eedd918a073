# rlda_require_files(FILES...): stops the configure, naming the file, when a source or data file
# that a target lists is missing, so that no suite or benchmark silently drops out of a build.
# Relative paths are taken from the calling CMakeLists.txt's folder.
function(rlda_require_files)
  foreach(file IN LISTS ARGN)
    cmake_path(ABSOLUTE_PATH file BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" OUTPUT_VARIABLE path)
    if(NOT EXISTS "${path}")
      message(FATAL_ERROR "${path}: missing (listed in ${CMAKE_CURRENT_LIST_FILE}); every file a "
                          "suite or benchmark needs is in the repository, so a clone builds them all")
    endif()
  endforeach()
endfunction()

# The warnings of the project's own code, declared once: rlda_warnings(TARGET) on every library
# and program. -Wall -Wextra report unused functions, variables and parameters;
# -Wmissing-declarations a free function defined with no declaration before it, which belongs in an
# anonymous namespace (where, once nothing calls it, -Wunused-function reports it). LibTorch's and
# Qt's headers are system headers and stay quiet.
#
# RLDA_WERROR (on in CI, .ci/run) makes every warning an error but the ones GCC 12 gives falsely
# inside libstdc++'s own string and vector code at -O2/-O3, where inlining makes it see impossible
# sizes (GCC bug 105329 and its kin: "writing 9223372036854775810 bytes", "may overlap
# up to 9223372036854775811 bytes"): they stay warnings, and are still printed.
option(RLDA_WERROR "Make warnings in the project's own code errors" OFF)

function(rlda_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wmissing-declarations)
  if(RLDA_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-error=stringop-overflow -Wno-error=restrict
                             -Wno-error=array-bounds)
    endif()
  endif()
endfunction()

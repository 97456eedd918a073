# The warnings of the project's own code, declared once: rlda_warnings(TARGET) on every library
# and program. -Wall -Wextra report unused functions, variables and parameters;
# -Wmissing-declarations a free function defined with no declaration before it, which belongs in an
# anonymous namespace (where, once nothing calls it, -Wunused-function reports it). LibTorch's and
# Qt's headers are system headers and stay quiet. RLDA_WERROR makes every warning an error:
# scripts/test turns it on, so CI fails on a new warning.
option(RLDA_WERROR "Make warnings in the project's own code errors" OFF)

function(rlda_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wmissing-declarations)
  if(RLDA_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

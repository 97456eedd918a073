# The warnings of the project's own code, declared once: rlda_warnings(TARGET) on every library
# and program. -Wall -Wextra report unused functions, variables and parameters;
# -Wmissing-declarations a free function defined with no declaration before it, which belongs in an
# anonymous namespace (where, once nothing calls it, -Wunused-function reports it). LibTorch's and
# Qt's headers are system headers and stay quiet. RLDA_WERROR makes the warnings that find dead
# and misplaced code errors (not all of them: GCC 12 at -O3 warns falsely inside libstdc++'s
# string code, -Wstringop-overflow).
option(RLDA_WERROR "Make warnings in the project's own code errors" OFF)

function(rlda_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wmissing-declarations)
  if(RLDA_WERROR)
    target_compile_options(${target} PRIVATE -Werror=unused-function -Werror=unused-variable
                           -Werror=unused-but-set-variable -Werror=missing-declarations)
  endif()
endfunction()

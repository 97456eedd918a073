# RLDA_SANITIZE=ON (the `asan` preset): AddressSanitizer + UndefinedBehaviorSanitizer everywhere.
option(RLDA_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(RLDA_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

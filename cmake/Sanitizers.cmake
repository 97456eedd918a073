# RLDA_SANITIZE=ON (the `asan` preset): AddressSanitizer + UndefinedBehaviorSanitizer everywhere.
option(RLDA_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
# Added to every suite's environment (tests/CMakeLists.txt) and inherited by the programs a suite
# runs. As test properties they win over the test preset's environment, so `ctest --preset asan`
# and scripts/test --asan run alike. Why each suppression is there: scripts/sanitizers/*.supp.
set(RLDA_SANITIZER_TEST_ENV "")
if(RLDA_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  set(supp "${PROJECT_SOURCE_DIR}/scripts/sanitizers")
  set(RLDA_SANITIZER_TEST_ENV
      "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:suppressions=${supp}/asan.supp"
      "LSAN_OPTIONS=suppressions=${supp}/lsan.supp:print_suppressions=0"
      # UB is fatal as compiled (-fno-sanitize-recover) and only our code is instrumented, so
      # there is nothing for a UBSan suppressions file to hide.
      "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
endif()

# RLDA_TSAN=ON (the `tsan` preset, scripts/test --tsan): ThreadSanitizer, for the suites whose code
# runs on several threads (the worker, the job tracker, the sweeps). A data race fails the suite.
# LibTorch and Qt are not instrumented: a race inside them is not seen, and what their own threads
# do (OpenMP's pool) is listed in scripts/sanitizers/tsan.supp, each entry with its reason. Nor is
# Qt's synchronisation seen: a value handed to another thread through Qt's queue (a job posted to the
# pool, a queued call) reads as a race in the suites that use Qt's threads, until those hand-offs
# are annotated for ThreadSanitizer or Qt is built with it. QtTest's 5-minute limit on a test
# function is raised: training under ThreadSanitizer is 5 to 15 times slower.
option(RLDA_TSAN "Build with ThreadSanitizer" OFF)
if(RLDA_TSAN)
  if(RLDA_SANITIZE)
    message(FATAL_ERROR "RLDA_TSAN and RLDA_SANITIZE (AddressSanitizer) cannot be combined")
  endif()
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
  set(RLDA_SANITIZER_TEST_ENV
      "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=${PROJECT_SOURCE_DIR}/scripts/sanitizers/tsan.supp"
      "QTEST_FUNCTION_TIMEOUT=3600000")
endif()

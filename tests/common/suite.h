// One Qt Test suite among the others of its program. The suites of a test folder that link the same
// libraries share one executable (tests/CMakeLists.txt: a program per folder and kind, built once
// instead of a program per suite), and each ends with RLDA_SUITE_MAIN, RLDA_SUITE_GUILESS_MAIN or
// RLDA_SUITE_APPLESS_MAIN where a lone suite would end with Qt's QTEST_MAIN, QTEST_GUILESS_MAIN or
// QTEST_APPLESS_MAIN: the same application object, made when the suite runs. The program runs the
// suite its first argument names (`suites_core test_config -o x.xml,xunitxml`, as CTest calls it);
// tests/common/suite_main.cpp.
#pragma once

#include <QtTest/QtTest>

namespace rlda::test {

using SuiteMain = int (*)(int argc, char** argv);

// Registers a suite under its source file's base name (tests/core/test_config.cpp: test_config).
// Called during static initialisation, before main; two suites of one name stop the program there.
bool add_suite(const char* source_file, SuiteMain run);

} // namespace rlda::test

// The body of a lone suite's main, as Qt Test writes it, in a function the program's main calls.
#define RLDA_SUITE_WRAPPER_(Suite, ...)                                                                      \
    namespace {                                                                                              \
    int rlda_run_##Suite(int argc, char* argv[])                                                             \
    {                                                                                                        \
        __VA_ARGS__                                                                                          \
        Suite suite;                                                                                         \
        QTEST_SET_MAIN_SOURCE_PATH                                                                           \
        return QTest::qExec(&suite, argc, argv);                                                             \
    }                                                                                                        \
    [[maybe_unused]] const bool rlda_added_##Suite = rlda::test::add_suite(__FILE__, &rlda_run_##Suite);     \
    }

// The application QTEST_MAIN makes: QApplication in a program that links Qt Widgets, QGuiApplication
// in one that links Qt Gui, QCoreApplication otherwise.
#define RLDA_SUITE_MAIN(Suite) RLDA_SUITE_WRAPPER_(Suite, QTEST_MAIN_SETUP())
#define RLDA_SUITE_GUILESS_MAIN(Suite) RLDA_SUITE_WRAPPER_(Suite, QTEST_QAPP_SETUP(QCoreApplication))
#define RLDA_SUITE_APPLESS_MAIN(Suite) RLDA_SUITE_WRAPPER_(Suite)

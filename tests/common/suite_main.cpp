// The main of a program of several Qt Test suites (tests/common/suite.h): runs the one its first
// argument names, with the arguments after it, as that suite's own program would have run.
#include "tests/common/suite.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace {

std::map<std::string, rlda::test::SuiteMain>& suites()
{
    static std::map<std::string, rlda::test::SuiteMain> registered;
    return registered;
}

void list_suites(std::FILE* to)
{
    for (const auto& [name, run] : suites())
        std::fprintf(to, "%s\n", name.c_str());
}

} // namespace

bool rlda::test::add_suite(const char* source_file, SuiteMain run)
{
    const std::string name = std::filesystem::path(source_file).stem().string();
    if (!suites().emplace(name, run).second) {
        std::fprintf(stderr, "%s: a second suite named %s\n", source_file, name.c_str());
        std::exit(2);
    }
    return true;
}

int main(int argc, char* argv[])
{
    const std::string program = argc > 0 ? std::filesystem::path(argv[0]).filename().string() : "suites";
    if (argc < 2 || argv[1][0] == '-') {
        const bool asked = argc >= 2 && (std::string(argv[1]) == "--list" || std::string(argv[1]) == "-h" ||
                                         std::string(argv[1]) == "--help");
        std::FILE* to = asked ? stdout : stderr;
        std::fprintf(to, "usage: %s SUITE [Qt Test options], SUITE one of:\n", program.c_str());
        list_suites(to);
        return asked ? 0 : 2;
    }
    const auto found = suites().find(argv[1]);
    if (found == suites().end()) {
        std::fprintf(stderr, "%s: no suite named %s here; the suites: ", program.c_str(), argv[1]);
        const char* separator = "";
        for (const auto& [name, run] : suites()) {
            std::fprintf(stderr, "%s%s", separator, name.c_str());
            separator = ", ";
        }
        std::fprintf(stderr, "\n");
        return 2;
    }
    // The suite sees itself as the program: its name first, then its own options. Its application
    // name (QSettings' file, Qt Test's messages) is the suite's, as when each suite was a program.
    std::vector<char*> args{argv[1]};
    args.insert(args.end(), argv + 2, argv + argc);
    args.push_back(nullptr);
    QCoreApplication::setApplicationName(QString::fromUtf8(argv[1]));
    return found->second(argc - 1, args.data());
}

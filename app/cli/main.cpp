// `rlda`: the engine on the command line. Errors are one line on stderr with a non-zero exit code.
#include "app/cli/commands.h"
#include "app/cli/completion.h"
#include "app/cli/manpage.h"
#include "app/cli/numbers.h"
#include "app/cli/unknown_command.h"

#include "core/train/device.h"
#include "core/util/error.h"
#include "core/util/error_text.h"
#include "core/util/excerpt.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <exception>

namespace {

// The subcommands that ran, "sweep status": what failed, for an error that does not say so itself.
std::string operation(const CLI::App& app)
{
    std::string names;
    for (const CLI::App* a = &app; !a->get_subcommands().empty();) {
        a = a->get_subcommands().front();
        names += (names.empty() ? "" : " ") + a->get_name();
    }
    return names.empty() ? std::string("rlda") : names;
}

// rlda itself: parse, run the command, say what went wrong in one line.
int run_rlda(int argc, char** argv)
{
    CLI::App app{"rlda: reinforcement-learning-driven DNN adaptation, from the command line"};
    app.require_subcommand(1);
    app.footer("Every command and option: man rlda (or man -l <(rlda manpage)); rlda COMMAND --help.\n"
               "Bash completion: source <(rlda completion bash) (the package installs it).");
    // CMake's PROJECT_VERSION (app/CMakeLists.txt), then the LibTorch and GPUs this program can use,
    // which is what a bug report or a sweep on a new machine needs first.
    app.set_version_flag("--version", [] {
        return fmt::format("rlda {}\n{}", RLDA_VERSION, rlda::core::train::cuda_description());
    });
    bool verbose = false;
    app.add_flag("--verbose", verbose,
                 "After an error that is not rlda's own (LibTorch's, the standard library's), print its whole "
                 "text, backtrace included");
    app.fallthrough(); // --verbose after the subcommand too; inherited by the subcommands added below
    std::vector<std::function<int()>> commands{rlda::app::add_config_command(app),
                                                rlda::app::add_model_command(app),
                                                rlda::app::add_train_command(app),
                                                rlda::app::add_simulate_command(app),
                                                rlda::app::add_learn_command(app),
                                                rlda::app::add_evaluate_command(app),
                                                rlda::app::add_figures_command(app),
                                                rlda::app::add_reproduce_command(app),
                                                rlda::app::add_transfer_command(app),
                                                rlda::app::add_transfer_compare_command(app),
                                                rlda::app::add_noise_command(app),
                                                rlda::app::add_sweep_command(app),
                                                rlda::app::add_completion_command(app),
                                                rlda::app::add_manpage_command(app, RLDA_VERSION)};

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        const std::vector<std::string> args(argv + 1, argv + argc);
        if (const std::string unknown = rlda::app::unknown_command(app, args); !unknown.empty()) {
            fmt::print(stderr, "rlda: error: {}\n", rlda::core::printable(unknown));
            return 2;
        }
        if (const std::string unknown = rlda::app::unknown_option(app, args); !unknown.empty()) {
            fmt::print(stderr, "rlda: error: {}\n", rlda::core::printable(unknown));
            return 2;
        }
        fmt::print(stderr, "rlda: error: {} (see rlda --help)\n", rlda::core::printable(e.what()));
        return 2;
    }
    try {
        for (const auto& run : commands)
            if (int rc = run(); rc >= 0)
                return rc;
        return 2;
    } catch (const rlda::app::ArgumentError& e) {
        fmt::print(stderr, "rlda: error: {}\n", rlda::core::printable(e.what()));
        return 2;
    } catch (const rlda::core::Error& e) {
        fmt::print(stderr, "rlda: error: {}\n", rlda::core::printable(e.what()));
        return 1;
    } catch (const std::exception& e) {
        // Not diagnosed by rlda: still one line (a LibTorch message carries a backtrace of many),
        // naming the command; the whole text with --verbose.
        fmt::print(stderr, "rlda: error: {}: {}\n", operation(app),
                   rlda::core::printable(rlda::core::error_line(e)));
        if (verbose)
            fmt::print(stderr, "{}\n", e.what());
        return 3;
    } catch (...) {
        fmt::print(stderr, "rlda: error: {}: an unknown exception\n", operation(app));
        return 3;
    }
}

} // namespace

int main(int argc, char** argv)
{
    // What run_rlda cannot catch: its own setup (the options, the commands) or its error messages
    // failing, out of memory, say.
    try {
        return run_rlda(argc, argv);
    } catch (...) {
        std::fputs("rlda: error: an unexpected exception while starting or reporting\n", stderr);
        return 3;
    }
}

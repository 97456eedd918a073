// `rlda`: the engine on the command line. Errors are one line on stderr with a non-zero exit code.
#include "app/cli/commands.h"

#include "core/util/error.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <exception>

int main(int argc, char** argv)
{
    CLI::App app{"rlda: reinforcement-learning-driven DNN adaptation, from the command line"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "rlda " RLDA_VERSION); // CMake's PROJECT_VERSION (app/CMakeLists.txt)
    std::vector<std::function<int()>> commands{rlda::app::add_config_command(app),
                                                rlda::app::add_model_command(app),
                                                rlda::app::add_train_command(app),
                                                rlda::app::add_simulate_command(app),
                                                rlda::app::add_learn_command(app),
                                                rlda::app::add_evaluate_command(app),
                                                rlda::app::add_figures_command(app),
                                                rlda::app::add_reproduce_command(app),
                                                rlda::app::add_sweep_command(app)};

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "rlda: error: {} (see rlda --help)\n", e.what());
        return 2;
    }
    try {
        for (const auto& run : commands)
            if (int rc = run(); rc >= 0)
                return rc;
        return 2;
    } catch (const rlda::core::Error& e) {
        fmt::print(stderr, "rlda: error: {}\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        fmt::print(stderr, "rlda: internal error: {}\n", e.what());
        return 3;
    }
}

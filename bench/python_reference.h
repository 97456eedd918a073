// Running a benchmark's Python/PyTorch reference and reading the one figure it prints.
#pragma once

#include <fmt/format.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace rlda::bench {

// Runs `command` and returns the number on its first line "KEY: NUMBER"; throws, naming what the
// reference needs, when it fails or prints no such line.
inline double run_python_reference(const std::string& command, const std::string& key, const std::string& needs)
{
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe)
        throw std::runtime_error("cannot start " + command);
    const std::string format = key + ": %lf";
    char line[256];
    double value = -1.0;
    while (std::fgets(line, sizeof line, pipe))
        if (std::sscanf(line, format.c_str(), &value) == 1)
            break;
    const int rc = pclose(pipe);
    if (rc != 0 || value <= 0.0)
        throw std::runtime_error(fmt::format("the Python reference failed ({}); it needs {}", command, needs));
    return value;
}

} // namespace rlda::bench

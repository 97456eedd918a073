// Error types of the engine: one-line messages that name the file, key or value at fault.
#pragma once

#include <stdexcept>
#include <string>

namespace rlda::core {

// Base of every error the engine reports to a user (command line, workbench, tests).
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A model definition or a deepening that cannot be built or applied.
class ModelError : public Error {
public:
    using Error::Error;
};

// A config or model file that does not parse or holds a bad value: "file:line:col: key: reason".
class ConfigError : public Error {
public:
    using Error::Error;
};

// A dataset that is missing, truncated or corrupt, or options that do not fit the data.
class DataError : public Error {
public:
    using Error::Error;
};

} // namespace rlda::core

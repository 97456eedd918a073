// The message of the ConfigError `f` throws, or an empty string when it throws none; parse_error()
// is that of reading `text` as an experiment file named x.toml.
#pragma once

#include "core/config/experiment_io.h"
#include "core/util/error.h"

#include <QString>

namespace rlda::test {

template <class F> QString config_error(F&& f)
{
    try {
        f();
    } catch (const core::ConfigError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

inline QString parse_error(const QString& text)
{
    return config_error([&] { core::config::parse_experiment(text.toStdString(), "x.toml"); });
}

} // namespace rlda::test

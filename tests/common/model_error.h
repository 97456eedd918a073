// The message of the ModelError `f` throws, or an empty string when it throws none.
#pragma once

#include "core/util/error.h"

#include <QString>

namespace rlda::test {

template <class F> QString model_error(F&& f)
{
    try {
        f();
    } catch (const core::ModelError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace rlda::test

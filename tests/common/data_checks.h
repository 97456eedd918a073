// What the dataset suites check results with: a DataError's message, and a tensor's values as a
// vector of int64.
#pragma once

#include "core/util/error.h"

#include <torch/types.h>

#include <QString>

#include <cstdint>
#include <exception>
#include <functional>
#include <vector>

namespace rlda::test {

// The DataError's message, or a note saying what happened instead.
inline QString data_error(const std::function<void()>& f)
{
    try {
        f();
    } catch (const core::DataError& e) {
        return QString::fromUtf8(e.what());
    } catch (const std::exception& e) {
        return QStringLiteral("<not a DataError: %1>").arg(QString::fromUtf8(e.what()));
    }
    return QStringLiteral("<no error>");
}

inline std::vector<std::int64_t> to_vector(const torch::Tensor& t)
{
    const auto c = t.to(torch::kLong).contiguous();
    return {c.data_ptr<std::int64_t>(), c.data_ptr<std::int64_t>() + c.numel()};
}

} // namespace rlda::test

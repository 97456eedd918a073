// How every view names what an adaptation did: "deepen 1", "widen 0", "do nothing". Events
// written before widening (and built in code without an operation) deepened the block their
// action names.
#pragma once

#include "core/job/events.h"

#include <QString>

#include <string>
#include <utility>

namespace rlda::widgets {

// The operation and the original block of an adaptation that did something.
inline std::pair<std::string, int> operationOf(const core::train::AdaptationEvent& e)
{
    return {e.operation.empty() ? "deepen" : e.operation, e.block >= 0 ? e.block : e.action};
}

// "deepen 1", "widen 0", "do nothing".
inline QString adaptationText(const core::train::AdaptationEvent& e)
{
    if (e.did_nothing)
        return QStringLiteral("do nothing");
    const auto [operation, block] = operationOf(e);
    return QStringLiteral("%1 %2").arg(QString::fromStdString(operation)).arg(block);
}

} // namespace rlda::widgets

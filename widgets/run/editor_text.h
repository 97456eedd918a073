// Internal to the experiment editor (experiment_editor.cpp, experiment_editor_state.cpp): how it
// turns the config's values and keys into text, and the config's names both use.
#pragma once

#include "core/config/experiment.h"
#include "core/config/schema.h"
#include "core/config/validate.h"
#include "widgets/qs.h"

#include <QLocale>
#include <QString>

#include <string>

namespace rlda::widgets::editor_text {

using rlda::core::config::Change;
using rlda::core::config::ExperimentConfig;
using rlda::core::config::AgentKind;
using rlda::core::config::Problem;
using rlda::core::config::Type;

using rlda::widgets::qs;

// Shortest text that reads back to the same double, as the TOML writer prints it.
inline QString shortest(double v) { return QString::number(v, 'g', QLocale::FloatingPointShortest); }

// "scheduler.events[1].time" -> "scheduler.events", "agent.sequence[2]" -> "agent.sequence".
inline QString baseKey(const QString& key)
{
    const qsizetype bracket = key.indexOf(QLatin1Char('['));
    return bracket < 0 ? key : key.left(bracket);
}

} // namespace rlda::widgets::editor_text

// Internal to the experiment editor (experiment_editor.cpp, experiment_editor_state.cpp): how it
// turns the config's values and keys into text.
#pragma once

#include <QLocale>
#include <QString>

#include <string>

namespace rlda::widgets::editor_text {

inline QString qs(const std::string& s) { return QString::fromStdString(s); }

// Shortest text that reads back to the same double, as the TOML writer prints it.
inline QString shortest(double v) { return QString::number(v, 'g', QLocale::FloatingPointShortest); }

// "scheduler.events[1].time" -> "scheduler.events", "agent.sequence[2]" -> "agent.sequence".
inline QString baseKey(const QString& key)
{
    const int bracket = key.indexOf(QLatin1Char('['));
    return bracket < 0 ? key : key.left(bracket);
}

} // namespace rlda::widgets::editor_text

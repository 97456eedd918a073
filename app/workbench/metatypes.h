// The value types that cross from the worker's thread to the GUI in queued signals, declared for
// Qt's meta-type system in one place that every header using them in signals or slots includes.
// (std::vector<EpisodeRecord> needs no declaration: Qt 6 derives it from the element type.)
#pragma once

#include "core/config/experiment.h"
#include "core/io/comparison.h"
#include "core/job/events.h"
#include "core/run/learn_run.h"
#include "core/table/results.h"
#include "widgets/run/run_control.h"

#include <QMetaType>

namespace rlda::app {
// One enum for the worker and the control that shows it; its Q_ENUM declares it to Qt already.
using RunState = widgets::RunControl::State;
}

Q_DECLARE_METATYPE(rlda::core::config::ExperimentConfig)
Q_DECLARE_METATYPE(rlda::core::run::LearnRunSettings)
Q_DECLARE_METATYPE(rlda::core::train::RunStart)
Q_DECLARE_METATYPE(rlda::core::train::EpochMetrics)
Q_DECLARE_METATYPE(rlda::core::train::BatchProgress)
Q_DECLARE_METATYPE(rlda::core::train::AdaptationEvent)
Q_DECLARE_METATYPE(rlda::core::train::AllocationRecord)
Q_DECLARE_METATYPE(rlda::core::train::RunResult)
Q_DECLARE_METATYPE(rlda::core::run::StageStart)
Q_DECLARE_METATYPE(rlda::core::sim::Evaluation)
Q_DECLARE_METATYPE(rlda::core::run::LearnRunResult)
Q_DECLARE_METATYPE(rlda::core::run::Comparison)
Q_DECLARE_METATYPE(rlda::core::run::SeedComparisons)

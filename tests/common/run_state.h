// How QCOMPARE prints a RunState: its name ("finished"), found by QTest through ADL.
#pragma once

#include "app/workbench/worker.h"

#include <QByteArray>

namespace rlda::app {
inline char* toString(RunState s) { return qstrdup(qPrintable(runStateName(s))); }
} // namespace rlda::app

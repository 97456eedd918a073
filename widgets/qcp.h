// The one way to include QCustomPlot here. Its header uses Qt's `signals`/`foreach` keywords,
// which QT_NO_KEYWORDS (needed next to LibTorch) switches off; they are mapped back for it alone.
#pragma once

#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef foreach
#undef emit
#undef slots
#undef signals

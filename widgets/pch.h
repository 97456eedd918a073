// Precompiled header of the Qt Widgets libraries (widgets/, app/workbench): Qt Widgets and
// QCustomPlot, parsed once per build instead of in each of their ~75 sources. Only headers every
// compiler of the tree reads alike; nothing of the project's own but qcp.h, the one way in to
// QCustomPlot.
#pragma once

#include <QtWidgets>

#include "widgets/qcp.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

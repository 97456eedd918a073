// Precompiled header of the widget and workbench suites: Qt Test beside the widget libraries' own
// header (widgets/pch.h: Qt Widgets and QCustomPlot).
#pragma once

#include "widgets/pch.h"

#include <QtTest>

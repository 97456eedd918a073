// Precompiled header of the Qt Test suites that link no widget: Qt Test and Qt Core.
#pragma once

#include <QtCore>
#include <QtTest>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// Precompiled header of the suites that use LibTorch themselves (tensors, modules): the engine's
// heavy headers (core/pch.h) beside Qt Test.
#pragma once

#include "core/pch.h"

#include <QtCore>
#include <QtTest>

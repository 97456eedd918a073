// The LibTorch engine behind app/workbench/engine.h: core's entry points, called as the command
// line calls them. Only the programs, and the suites that train, link it (rlda_workbench_engine).
#pragma once

#include "app/workbench/engine.h"

#include <memory>

namespace rlda::app {

std::unique_ptr<const Engine> makeTorchEngine();

} // namespace rlda::app

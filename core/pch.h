// Precompiled header for targets that use LibTorch: the heavy headers, parsed once per target.
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/container/any.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/pooling.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/pimpl.h>
#include <torch/optim/adam.h>
#include <torch/utils.h>

#include <fmt/format.h>

#include <map>
#include <string>
#include <variant>
#include <vector>

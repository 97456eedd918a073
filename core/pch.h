// Precompiled header of the LibTorch layers (core/net, data, policy, train, sim, run), their
// benchmarks and, with Qt Test, the suites that use LibTorch (tests/common/pch_torch.h): every
// LibTorch header the engine includes, parsed once per target group instead of in each file.
#pragma once

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/core/Generator.h>
#include <c10/util/Exception.h>
#include <torch/autograd.h>
#include <torch/cuda.h>
#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/batchnorm.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/container/any.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/pooling.h>
#include <torch/nn/modules/rnn.h>
#include <torch/nn/pimpl.h>
#include <torch/optim/adam.h>
#include <torch/optim/optimizer.h>
#include <torch/optim/sgd.h>
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>
#include <torch/types.h>
#include <torch/utils.h>
#include <torch/version.h>

#include <fmt/format.h>

#include <map>
#include <string>
#include <variant>
#include <vector>

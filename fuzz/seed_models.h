// The small networks behind the policy and checkpoint seeds (seed_tensor_files.cpp), shared with
// the harnesses that load into them.
#pragma once

#include "core/model/zoo.h"
#include "core/net/net.h"
#include "core/policy/reinforce.h"

namespace rlda::fuzz {

// FeedForwardNet2 at 1x4x4 and 3 classes, deepened once at block 1: a checkpoint's network.
inline core::model::ModelSpec checkpoint_spec()
{
    auto spec = core::model::zoo_model("FeedForwardNet2", {1, 4, 4}, 3);
    core::model::deepen_spec(spec, 1);
    return spec;
}
inline core::model::Net checkpoint_net() { return core::model::Net(checkpoint_spec()); }

// A policy over that model's 3 actions, its vocabulary from deepenings up to 2 (as in
// tests/core/test_policy.cpp), with small layers: a seed of a few kilobytes leaves the mutations
// to the header and the extents rather than to weights no check looks into.
inline core::agent::PolicyLearner seed_policy(std::uint64_t seed)
{
    core::config::PolicyConfig sizes;
    sizes.embedding_size = 4;
    sizes.hidden_size = 4;
    sizes.decider_lstm_size = 4;
    sizes.decider_linear_size = 8;
    sizes.time_encoding_size = 2;
    return core::agent::PolicyLearner(
        core::agent::Vocabulary::from_models({core::model::zoo_model("FeedForwardNet2", {1, 4, 4}, 3)}, 2), sizes,
        3, seed);
}

} // namespace rlda::fuzz

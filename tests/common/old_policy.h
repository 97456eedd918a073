// A policy file in the format rlda wrote before tensor files (core/util/tensor_file.h): a LibTorch
// archive of the network, Adam's state and the meta values, laid out as PolicyLearner::save and
// FastAdam::save wrote them at d244218. For the tests of loading such a file and of its warning.
#pragma once

#include "core/policy/reinforce.h"

#include <torch/serialize/output-archive.h>

#include <optional>
#include <random>
#include <sstream>
#include <string>

namespace rlda::test {

// `p`'s network in the older format, with fresh optimizer state. `sizes`, when given, replaces the
// meta sizes (embedding, hidden, decider LSTM, decider linear, time encoding, decay interval,
// actions, episode) so that a test can write sizes that do not match the weights.
inline void write_old_policy(const core::agent::PolicyLearner& p, const std::string& file,
                             std::optional<torch::Tensor> sizes = {})
{
    const auto& s = p.sizes();
    if (!sizes)
        sizes = torch::tensor({s.embedding_size, s.hidden_size, s.decider_lstm_size, s.decider_linear_size,
                               s.time_encoding_size, s.decay_freq, p.actions(), std::int64_t{0}},
                              torch::kLong);
    torch::serialize::OutputArchive a, net_archive, opt_archive;
    p.network()->save(net_archive);
    opt_archive.write("step", torch::tensor(std::int64_t{0}, torch::kLong));
    opt_archive.write("lr", torch::tensor(p.lr(), torch::kFloat64));
    std::size_t i = 0;
    for (const auto& t : p.network()->parameters()) {
        opt_archive.write("exp_avg_" + std::to_string(i), torch::zeros_like(t));
        opt_archive.write("exp_avg_sq_" + std::to_string(i++), torch::zeros_like(t));
    }
    a.write("policy", net_archive);
    a.write("optimizer", opt_archive);
    c10::List<std::string> words;
    for (const auto& w : p.vocabulary().words())
        words.push_back(w);
    a.write("meta/words", c10::IValue(words));
    a.write("meta/sizes", *sizes);
    a.write("meta/rates", torch::tensor({s.alpha, s.learning_rate_decay, 1.0, 0.9}, torch::kFloat64));
    std::ostringstream rng;
    rng << std::mt19937_64(11);
    a.write("meta/rng", c10::IValue(rng.str()));
    a.write("meta/vocab_name", c10::IValue(s.vocab));
    a.save_to(file);
}

} // namespace rlda::test

// The learning agent: a policy network trained with REINFORCE, saved and loaded whole.
#pragma once

#include "core/agent/agent.h"
#include "core/agent/fast_policy.h"
#include "core/agent/policy.h"
#include "core/agent/vocabulary.h"
#include "core/config/experiment.h"
#include "core/util/tensor_file.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rlda::core::agent {

inline constexpr const char* kPolicyKind = "policy"; // the tensor file's kind
inline constexpr std::int64_t kPolicyFileVersion = 1; // its layout, in the header's "version"
inline constexpr std::int64_t kMaxPolicyActions = 4096; // decider outputs a policy file may have

struct Choice {
    int action = 0;
    std::vector<double> probabilities; // at the current temperature
};

// Samples actions while learning (keeping log p of each), updates once per episode:
//   objective = mean over the episode's decisions of -log p(a) * r,  Adam(alpha),
//   alpha x learning_rate_decay every decay_freq episodes, and temperature x temperature_decay
//   (down to 1) every temperature_every episodes (0, the default: every decay_freq as well).
// The network runs through FastPolicy (hand-written forward and backward) by default; with
// set_reference_autograd(true) it runs through PolicyNet::forward and LibTorch's autograd
// instead, the same computation, kept to check the fast path against. Both use FastAdam.
class PolicyLearner {
public:
    PolicyLearner(Vocabulary vocabulary, const config::PolicyConfig& sizes, std::int64_t actions,
                  std::uint64_t seed);
    // A policy file written by save(): network, vocabulary, optimizer, episode, temperature and the
    // sampling RNG, so that learning goes on exactly. Throws Error naming the file. A file of the
    // format before tensor files (a LibTorch archive) loads too, after `warn` is told it is
    // unverified.
    static PolicyLearner load(const std::string& path, const Warn& warn = {});
    // The same from a tensor file already read and verified (kind kPolicyKind).
    static PolicyLearner load(const TensorFile& file);
    // A tensor file (core/util/tensor_file.h) of kind kPolicyKind, atomically: every tensor of
    // the network as "policy/<name>" (policy_shapes' names), the optimizer's as "adam/...", the
    // sizes under their [policy] keys' names and the learning state in the header.
    void save(const std::string& path) const;

    // `layers`: vocabulary ids (int64 [L]) of the current architecture's leaf layers. With
    // `learn`, log p of the choice is kept for finish_episode(); without, nothing is kept.
    Choice sample(const torch::Tensor& layers, double time_left, double time_budget, bool learn = true);
    Choice greedy(const torch::Tensor& layers, double time_left, double time_budget);
    // Keeps log p of an action chosen elsewhere (a replayed or demonstrated sequence) for the
    // episode's update, as sample() does for its own draw.
    Choice record(const torch::Tensor& layers, double time_left, double time_budget, int action);
    // Ends the episode with its reward: one Adam step over all its decisions; returns the objective.
    double finish_episode(double reward);

    torch::Tensor encode(const std::vector<std::string>& leaf_layers,
                         std::vector<std::string>* unknown = nullptr) const;

    std::int64_t actions() const { return net_->actions(); }
    std::int64_t episode() const { return episode_; }
    double temperature() const { return temperature_; }
    void set_temperature(double t); // a curriculum stage's starting temperature
    double temperature_decay() const { return temperature_decay_; }
    void set_temperature_decay(double rate) { temperature_decay_ = rate; }
    // Episodes between two temperature decays; 0 = decay_freq. The original paper says 500 (its
    // decay_freq); the original code's default, which no published config set, was 1.
    std::int64_t temperature_every() const { return temperature_every_; }
    void set_temperature_every(std::int64_t episodes);
    // An option, off by default (the original has none): learn from r - b, where b is an
    // exponential moving average of past rewards with this decay (e.g. 0.99); 0 turns it off.
    // Same expected gradient, less variance when close sequences earn nearly the same reward.
    void set_reward_baseline(double decay);
    double reward_baseline_decay() const { return baseline_decay_; }
    double lr() const;
    const Vocabulary& vocabulary() const { return vocabulary_; }
    const config::PolicyConfig& sizes() const { return net_->sizes(); }

    bool reference_autograd() const { return reference_; }
    // Throws Error in the middle of an episode (its decisions are kept in the other path's form).
    void set_reference_autograd(bool on);
    const PolicyNet& network() const { return net_; }

private:
    static PolicyLearner load_torch_archive(const std::string& path);
    std::vector<std::string> parameter_names() const; // FastAdam's order
    torch::Tensor tensor_named(const std::string& name) const; // a parameter or the embeddings

    // One learning decision of the fast path: which of the episode's sequences it read, its head.
    struct Step {
        std::size_t sequence = 0;
        HeadTape head;
        int action = 0;
        double temperature = 1.0;
    };

    Choice choose(const torch::Tensor& probabilities, int action);
    int draw(const std::vector<double>& probabilities);
    Choice sample_reference(const torch::Tensor& layers, double time_left, double time_budget, bool learn);
    // The episode's next step: the forward of `layers` (its sequence part reused when an earlier
    // decision of the episode saw the same architecture: the parameters have not moved since).
    Step& forward_step(const torch::Tensor& layers, double time_left, double time_budget);
    double finish_fast(double reward);
    double finish_reference(double reward);
    bool episode_in_progress() const { return steps_used_ > 0 || !log_probs_.empty(); }

    Vocabulary vocabulary_;
    PolicyNet net_{nullptr};
    std::unique_ptr<FastPolicy> fast_;
    std::unique_ptr<FastAdam> opt_;
    bool reference_ = false;
    // The episode in progress: fast path (pools reused across episodes, `*_used_` of them live) ...
    std::vector<SequenceTape> sequences_;
    std::size_t sequences_used_ = 0;
    std::vector<Step> steps_;
    std::size_t steps_used_ = 0;
    std::vector<float> d_last_; // [sequences, decider size]
    PolicyTape scratch_;        // forwards that learn nothing
    // ... and reference path.
    std::vector<torch::Tensor> log_probs_;
    std::int64_t episode_ = 0;
    double temperature_ = 1.0;
    double temperature_decay_ = 0.9;
    std::int64_t temperature_every_ = 0; // 0: decay_freq
    double baseline_decay_ = 0.0; // 0: no baseline
    double baseline_ = 0.0;
    bool baseline_started_ = false;
    std::mt19937_64 rng_;
};

// Plugs a policy into the trainer: greedy by default, or sampling.
class PolicyAgent final : public Agent {
public:
    PolicyAgent(std::shared_ptr<PolicyLearner> learner, bool greedy,
                std::function<void(const std::string&)> warn = {});
    Decision decide(const DecisionContext& c) override;
    std::string name() const override { return greedy_ ? "policy (greedy)" : "policy (sampling)"; }

private:
    std::shared_ptr<PolicyLearner> learner_;
    bool greedy_;
    std::function<void(const std::string&)> warn_;
};

} // namespace rlda::core::agent

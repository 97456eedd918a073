// The learning agent: a policy network trained with REINFORCE, saved and loaded whole
// (PolicyLearner, any encoder), and PolicyAgent, which plays a saved policy in training
// (agent.kind = "policy", built by train::make_agent). Algorithm 4 (core/sim/learn.h) drives the
// learner; a policy file it cannot trust is an Error naming the file.
#pragma once

#include "core/agent/agent.h"
#include "core/agent/learner_options.h"
#include "core/agent/vocabulary.h"
#include "core/config/experiment.h"
#include "core/policy/fast_episode.h"
#include "core/policy/policy.h"
#include "core/policy/structural_policy.h"
#include "core/util/tensor_file.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace rlda::core::agent {

inline constexpr const char* kPolicyKind = "policy"; // the tensor file's kind
inline constexpr std::int64_t kPolicyFileVersion = 2; // its layout, in the header's "version"; 1 reads too
inline constexpr std::int64_t kMaxPolicyActions = 4096; // decider outputs a policy file may have

struct Choice {
    int action = 0;
    std::vector<double> probabilities; // at the current temperature
};

// Samples actions while learning (keeping log p of each), updates once per episode (by default):
//   objective = mean over the episode's decisions of -log p(a) * r,  Adam(alpha),
//   alpha x learning_rate_decay every decay_freq episodes, and temperature x temperature_decay
//   (down to 1) every temperature_every episodes (0, the default: every decay_freq as well).
// The network runs through its hand-written forward and backward by default (FastPolicy, or
// FastStructural when sizes.encoder is structural: a StructuralNet, structural_policy.h, which
// serves a model of any block count); with set_reference_autograd(true) it runs through the
// network's forward and LibTorch's autograd instead, the same computation, kept to check the fast
// path against. Both use FastAdam.
class PolicyLearner {
public:
    // `actions`: the original encoder's outputs (blocks + 1 of the model it is made for); the
    // structural encoder ignores it and `vocabulary`.
    // `operations`: what its actions do (the structural encoder scores each operation on each block).
    PolicyLearner(Vocabulary vocabulary, const config::PolicyConfig& sizes, std::int64_t actions,
                  std::uint64_t seed, std::vector<model::Operation> operations = {model::Operation::Deepen});
    // A new policy for `model` choosing among `actions` (its vocabulary: the zoo at the model's
    // input and classes, changed by up to 3 of these operations; its outputs: actions.size()), of
    // either encoder. Without `actions`, the paper's: deepen any block, or do nothing.
    static PolicyLearner for_model(const config::PolicyConfig& sizes, const model::ModelSpec& model,
                                   std::uint64_t seed, const model::ActionSpace& actions);
    static PolicyLearner for_model(const config::PolicyConfig& sizes, const model::ModelSpec& model,
                                   std::uint64_t seed);
    // A policy file written by save(): network, vocabulary, optimizer, episode, temperature, the
    // learner's options and averages, and the sampling RNG, so that learning goes on exactly (an
    // update of several episodes saved half-way starts afresh). Throws Error naming the file. A file of the
    // format before tensor files (a LibTorch archive) loads too, after `warn` is told it is
    // unverified.
    static PolicyLearner load(const std::string& path, const Warn& warn = {});
    // The same from a tensor file already read and verified (kind kPolicyKind).
    static PolicyLearner load(const TensorFile& file);
    // A tensor file (core/util/tensor_file.h) of kind kPolicyKind, atomically: every tensor of
    // the network as "policy/<name>" (policy_shapes' names), the optimizer's as "adam/...", the
    // sizes under their [policy] keys' names and the learning state in the header.
    void save(const std::string& path) const;

    // `layers`: the network's input() for the current architecture. With `learn`, log p of the
    // choice is kept for finish_episode(); without, nothing is kept. `state`: the training state at
    // the decision (encode_state of its decision features), which the state encoder requires and
    // the others refuse (Error).
    Choice sample(const torch::Tensor& layers, double time_left, double time_budget, bool learn = true,
                  const StateEncoding* state = nullptr);
    Choice greedy(const torch::Tensor& layers, double time_left, double time_budget,
                  const StateEncoding* state = nullptr);
    // Keeps log p of an action chosen elsewhere (a replayed or demonstrated sequence) for the
    // episode's update, as sample() does for its own draw.
    Choice record(const torch::Tensor& layers, double time_left, double time_budget, int action,
                  const StateEncoding* state = nullptr);
    // Ends the episode with its reward: one Adam step over all its decisions; returns the objective.
    double finish_episode(double reward);

    torch::Tensor encode(const std::vector<std::string>& leaf_layers,
                         std::vector<std::string>* unknown = nullptr) const;
    // The network's input for an architecture: vocabulary ids of its leaf layers (original; layers
    // it does not know go to `unknown`) or structural_input() of its features (structural).
    torch::Tensor input(const model::ModelSummary& architecture, std::vector<std::string>* unknown = nullptr) const;

    config::PolicyEncoder encoder() const { return sizes().encoder; }
    // Whether every decision needs the training state (the state encoder).
    bool reads_state() const { return config::reads_state(encoder()); }
    // The actions every decision has: blocks + 1 of the model it was made for (original), or 0 for
    // the structural encoder, which takes each architecture's own.
    std::int64_t actions() const { return net_ ? net_->actions() : 0; }
    // The operations its actions number.
    const std::vector<model::Operation>& operations() const { return operations_; }
    // Whether it can choose among `actions`: the same operations, and for the original encoder
    // the same number of actions.
    bool serves(const model::ActionSpace& actions) const
    {
        return actions.operations() == operations_ && (net_ ? actions.size() == net_->actions() : actions.size() >= 2);
    }
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
    double reward_baseline_decay() const { return options_.baseline; }
    // Throws Error naming the option out of range (normalise needs a baseline; episodes >= 1).
    // Changing episodes_per_update takes effect at the next update.
    void set_options(const LearnerOptions& options);
    const LearnerOptions& options() const { return options_; }
    double lr() const;
    const Vocabulary& vocabulary() const { return vocabulary_; }
    const config::PolicyConfig& sizes() const { return net_ ? net_->sizes() : structural_->sizes(); }

    bool reference_autograd() const { return reference_; }
    // Throws Error in the middle of an episode (its decisions are kept in the other path's form).
    void set_reference_autograd(bool on);
    const PolicyNet& network() const { return net_; } // null for the structural encoder
    const torch::nn::Module& module() const;          // whichever network it is

private:
    static PolicyLearner load_torch_archive(const std::string& path);
    std::vector<std::string> parameter_names() const; // FastAdam's order
    torch::Tensor tensor_named(const std::string& name) const; // a parameter or the embeddings

    Choice choose(const torch::Tensor& probabilities, int action);
    int draw(const std::vector<double>& probabilities);
    torch::Tensor logits(const torch::Tensor& input, double time_left, double time_budget, const StateEncoding* state);
    Choice sample_reference(const torch::Tensor& layers, double time_left, double time_budget, bool learn,
                            const StateEncoding* state);
    // f(episode, input): the fast path's episode of whichever network, and `input` in its
    // kernel's form (as_ids or as_rows); returns what f returns.
    template <typename F> auto on_fast_path(const torch::Tensor& input, F&& f);
    // The episode's gradients for advantage `advantage` and entropy weight `entropy`, both already
    // divided by the episodes per update; return the objective.
    double finish_reference(double advantage, double entropy);
    double advantage_of(double reward); // r, r - b or (r - b) / rms, moving the averages on
    bool episode_in_progress() const
    {
        return (fast_ && fast_->in_progress()) || (fast_structural_ && fast_structural_->in_progress()) ||
               !log_probs_.empty();
    }

    Vocabulary vocabulary_;
    std::vector<model::Operation> operations_;
    PolicyNet net_{nullptr};
    StructuralNet structural_{nullptr};
    std::unique_ptr<FastAdam> opt_;
    bool reference_ = false;
    // The episode in progress: fast path (one of the two, the network's) ...
    std::optional<FastEpisode<FastPolicy>> fast_;
    std::optional<FastEpisode<FastStructural>> fast_structural_;
    // ... and reference path.
    std::vector<torch::Tensor> log_probs_, entropies_;
    std::int64_t episode_ = 0;
    double temperature_ = 1.0;
    double temperature_decay_ = 0.9;
    std::int64_t temperature_every_ = 0; // 0: decay_freq
    LearnerOptions options_;
    double baseline_ = 0.0;
    bool baseline_started_ = false;
    double spread_ = 0.0;             // moving mean of (r - b)^2, for options_.normalise
    std::int64_t pending_episodes_ = 0; // episodes whose gradients wait for the next step
    std::mt19937_64 rng_;
};

// Plugs a policy into the trainer: greedy by default, or sampling.
class PolicyAgent final : public Agent {
public:
    PolicyAgent(std::shared_ptr<PolicyLearner> learner, bool greedy,
                std::function<void(const std::string&)> warn = {});
    // The state encoder's policy reads the decision's features (encode_state): Error without them.
    Decision decide(const DecisionContext& c) override;
    std::string name() const override { return greedy_ ? "policy (greedy)" : "policy (sampling)"; }
    bool reads_features() const override { return learner_->reads_state(); }

private:
    std::shared_ptr<PolicyLearner> learner_;
    bool greedy_;
    std::function<void(const std::string&)> warn_;
};

} // namespace rlda::core::agent

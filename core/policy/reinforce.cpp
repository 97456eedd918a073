// REINFORCE over the policy network: sampling, the episode's update, the learner's settings and
// the agent that asks it (its file is policy_file.cpp).
#include "core/policy/reinforce.h"

#include "core/config/value_limits.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

namespace rlda::core::agent {
namespace {

// The ids of an architecture as the fast path reads them: int64, one dimension, contiguous, on the
// CPU. encode() makes them so; anything else index_select would take is converted.
torch::Tensor as_ids(const torch::Tensor& layers)
{
    if (layers.scalar_type() == torch::kLong && layers.dim() == 1 && layers.is_contiguous() &&
        layers.device().is_cpu())
        return layers;
    if (layers.dim() != 1 || !(layers.scalar_type() == torch::kLong || layers.scalar_type() == torch::kInt))
        throw Error("policy: layers must be a vector of vocabulary ids (see encode())");
    return layers.to(torch::kCPU, torch::kLong).contiguous();
}

// An architecture's rows as the structural fast path reads them (structural_input()'s form):
// float32, [L, kLayerFeatures + 1], contiguous, on the CPU; anything else of that shape is converted.
torch::Tensor as_rows(const torch::Tensor& input)
{
    if (input.dim() != 2 || input.size(1) != kLayerFeatures + 1)
        throw Error(fmt::format("policy: a structural input is float [layers, {}] (see structural_input())",
                                kLayerFeatures + 1));
    if (input.scalar_type() == torch::kFloat && input.is_contiguous() && input.device().is_cpu())
        return input;
    return input.to(torch::kCPU, torch::kFloat).contiguous();
}

template <typename T> std::span<const T> span_of(const torch::Tensor& t)
{
    return {t.data_ptr<T>(), static_cast<std::size_t>(t.numel())};
}

int argmax(const std::vector<double>& p)
{
    return static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
}

} // namespace

PolicyLearner::PolicyLearner(Vocabulary vocabulary, const config::PolicyConfig& sizes, std::int64_t actions,
                             std::uint64_t seed, std::vector<model::Operation> operations)
    : vocabulary_(std::move(vocabulary)), operations_(std::move(operations)), rng_(seed)
{
    torch::manual_seed(seed);
    if (config::scores_blocks(sizes.encoder)) {
        structural_ = StructuralNet(sizes, operations_);
        fast_structural_.emplace(FastStructural(structural_));
        opt_ = std::make_unique<FastAdam>(structural_->parameters(), sizes.alpha);
        return;
    }
    net_ = PolicyNet(sizes, static_cast<std::int64_t>(vocabulary_.size()), actions, seed);
    fast_.emplace(FastPolicy(net_));
    opt_ = std::make_unique<FastAdam>(net_->parameters(), sizes.alpha);
}

PolicyLearner PolicyLearner::for_model(const config::PolicyConfig& sizes, const model::ModelSpec& model,
                                       std::uint64_t seed, const model::ActionSpace& actions)
{
    if (config::scores_blocks(sizes.encoder))
        return {Vocabulary(), sizes, 0, seed, actions.operations()};
    return {Vocabulary::for_original_encoder(model, actions), sizes, actions.size(), seed,
            actions.operations()};
}

PolicyLearner PolicyLearner::for_model(const config::PolicyConfig& sizes, const model::ModelSpec& model,
                                       std::uint64_t seed)
{
    return for_model(sizes, model, seed, model::action_space(model));
}

const torch::nn::Module& PolicyLearner::module() const
{
    if (net_)
        return *net_;
    return *structural_;
}

torch::Tensor PolicyLearner::input(const model::ModelSummary& architecture, std::vector<std::string>* unknown) const
{
    if (structural_)
        return structural_input(structural_features(architecture));
    return encode(architecture.leaf_layers, unknown);
}

torch::Tensor PolicyLearner::logits(const torch::Tensor& input, double time_left, double time_budget,
                                    const StateEncoding* state)
{
    if (net_)
        check_no_state(config::PolicyEncoder::Original, state);
    return net_ ? net_->forward(input, time_left, time_budget)
                : structural_->forward(input, time_left, time_budget, state);
}

torch::Tensor PolicyLearner::encode(const std::vector<std::string>& leaf_layers,
                                    std::vector<std::string>* unknown) const
{
    return torch::tensor(vocabulary_.encode(leaf_layers, unknown), torch::kLong);
}

void PolicyLearner::set_reference_autograd(bool on)
{
    if (on != reference_ && episode_in_progress())
        throw Error("policy: cannot switch between the fast and the reference path in the middle of an episode");
    reference_ = on;
}

Choice PolicyLearner::choose(const torch::Tensor& probabilities, int action)
{
    const auto p = probabilities.contiguous();
    return {action, std::vector<double>(p.data_ptr<float>(), p.data_ptr<float>() + p.numel())};
}

// Inverse-CDF draw with our own RNG: reproducible and independent of LibTorch's generator.
int PolicyLearner::draw(const std::vector<double>& p)
{
    const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
    double cumulative = 0.0;
    for (std::size_t a = 0; a < p.size(); ++a) {
        cumulative += p[a];
        if (u < cumulative)
            return static_cast<int>(a);
    }
    return static_cast<int>(p.size()) - 1;
}

template <typename F> auto PolicyLearner::on_fast_path(const torch::Tensor& input, F&& f)
{
    if (fast_structural_) {
        const auto rows = as_rows(input); // kept alive while f reads it
        return f(*fast_structural_, span_of<float>(rows));
    }
    const auto ids = as_ids(input);
    return f(*fast_, span_of<std::int64_t>(ids));
}

Choice PolicyLearner::sample_reference(const torch::Tensor& layers, double time_left, double time_budget, bool learn,
                                       const StateEncoding* state)
{
    std::optional<torch::NoGradGuard> no_grad;
    if (!learn)
        no_grad.emplace();
    const auto log_p = torch::log_softmax(logits(layers, time_left, time_budget, state) / temperature_, -1);
    Choice c = choose(log_p.detach().exp(), 0);
    c.action = draw(c.probabilities);
    if (learn) {
        log_probs_.push_back(log_p[c.action]);
        if (options_.entropy_bonus > 0.0)
            entropies_.push_back(-(log_p.exp() * log_p).sum());
    }
    return c;
}

Choice PolicyLearner::sample(const torch::Tensor& layers, double time_left, double time_budget, bool learn,
                             const StateEncoding* state)
{
    if (reference_)
        return sample_reference(layers, time_left, time_budget, learn, state);
    return on_fast_path(layers, [&](auto& episode, auto input) {
        Choice c;
        softmax(learn ? episode.decide(input, time_left, time_budget, temperature_, state)
                      : episode.forward(input, time_left, time_budget, state),
                temperature_, c.probabilities);
        c.action = draw(c.probabilities);
        if (learn)
            episode.take(c.action);
        return c;
    });
}

Choice PolicyLearner::record(const torch::Tensor& layers, double time_left, double time_budget, int action,
                             const StateEncoding* state)
{
    const std::int64_t n = structural_ ? model::ActionSpace(static_cast<int>(structural_blocks(layers)), operations_).size()
                                       : actions();
    if (action < 0 || action >= n)
        throw Error(fmt::format("policy: action {} is outside 0..{}", action, n - 1));
    if (reference_) {
        const auto log_p = torch::log_softmax(logits(layers, time_left, time_budget, state) / temperature_, -1);
        log_probs_.push_back(log_p[action]);
        if (options_.entropy_bonus > 0.0)
            entropies_.push_back(-(log_p.exp() * log_p).sum());
        return choose(log_p.detach().exp(), action);
    }
    return on_fast_path(layers, [&](auto& episode, auto input) {
        Choice c{action, {}};
        softmax(episode.decide(input, time_left, time_budget, temperature_, state), temperature_, c.probabilities);
        episode.take(action);
        return c;
    });
}

Choice PolicyLearner::greedy(const torch::Tensor& layers, double time_left, double time_budget,
                             const StateEncoding* state)
{
    if (reference_) {
        torch::NoGradGuard no_grad;
        const auto p = action_probabilities(logits(layers, time_left, time_budget, state), temperature_);
        return choose(p, static_cast<int>(p.argmax().item<std::int64_t>()));
    }
    return on_fast_path(layers, [&](auto& episode, auto input) {
        Choice c;
        softmax(episode.forward(input, time_left, time_budget, state), temperature_, c.probabilities);
        c.action = argmax(c.probabilities);
        return c;
    });
}

double PolicyLearner::finish_reference(double advantage, double entropy)
{
    // One backward for the whole episode: the same gradients as one per decision. Gradients are
    // zero at an update's first episode (FastAdam leaves them so) and add up over its episodes.
    auto objective = -torch::stack(log_probs_).mean() * advantage;
    if (entropy > 0.0 && !entropies_.empty())
        objective = objective - torch::stack(entropies_).mean() * entropy;
    objective.backward();
    log_probs_.clear();
    entropies_.clear();
    return objective.item<double>();
}

double PolicyLearner::advantage_of(double reward)
{
    if (options_.baseline <= 0.0)
        return reward;
    if (!baseline_started_)
        baseline_ = reward; // the first episode learns nothing instead of a huge step
    baseline_started_ = true;
    double advantage = reward - baseline_;
    const double decay = options_.baseline;
    baseline_ = decay * baseline_ + (1.0 - decay) * reward;
    if (options_.normalise) {
        const double square = advantage * advantage;
        spread_ = spread_ > 0.0 ? decay * spread_ + (1.0 - decay) * square : square;
        // Including this episode bounds |advantage| by 1 / sqrt(1 - decay).
        advantage = spread_ > 0.0 ? advantage / std::sqrt(spread_) : 0.0;
    }
    return advantage;
}

double PolicyLearner::finish_episode(double reward)
{
    if (!episode_in_progress())
        throw Error("policy: an episode without decisions cannot be learned from");
    // An update of n episodes takes the mean of their gradients.
    const double share = 1.0 / static_cast<double>(options_.episodes_per_update);
    const double advantage = advantage_of(reward) * share;
    const double entropy = options_.entropy_bonus * share;
    const double objective =
        reference_          ? finish_reference(advantage, entropy)
        : fast_structural_ ? fast_structural_->finish(advantage, entropy)
                            : fast_->finish(advantage, entropy);
    // Learning that diverged (a huge entropy bonus or learning rate) stops here, before a policy of
    // NaN is saved or its objective written as a number.
    if (!std::isfinite(objective))
        throw Error(fmt::format("policy: the objective became {} at episode {}: learning diverged; lower the "
                                "learning rate or the entropy bonus",
                                objective, episode_ + 1));
    if (++pending_episodes_ >= options_.episodes_per_update) {
        opt_->step_and_zero_grad();
        pending_episodes_ = 0;
    }
    ++episode_;
    const auto every = sizes().decay_freq;
    if (every > 0 && episode_ % every == 0)
        opt_->set_lr(opt_->lr() * sizes().learning_rate_decay);
    const auto temperature_every = temperature_every_ > 0 ? temperature_every_ : every;
    if (temperature_every > 0 && episode_ % temperature_every == 0)
        temperature_ = std::max(1.0, temperature_ * temperature_decay_);
    return objective;
}

void PolicyLearner::set_temperature_every(std::int64_t episodes)
{
    if (episodes < 0)
        throw Error(fmt::format("policy: the temperature decays every N >= 1 episodes (0: every decay_freq), not {}",
                                episodes));
    temperature_every_ = episodes;
}

void PolicyLearner::set_reward_baseline(double decay)
{
    LearnerOptions o = options_;
    o.baseline = decay;
    set_options(o);
}

void PolicyLearner::set_options(const LearnerOptions& o)
{
    if (o.baseline < 0.0 || o.baseline >= 1.0)
        throw Error(fmt::format("policy: the reward baseline's decay must be in [0, 1), not {}", o.baseline));
    if (o.normalise && o.baseline <= 0.0)
        throw Error("policy: normalised advantages need a reward baseline (a decay in (0, 1))");
    if (!(o.entropy_bonus >= 0.0 && o.entropy_bonus <= config::kMaxSquarable))
        throw Error(fmt::format("policy: the entropy bonus must be from 0 to {:g}, not {}",
                                config::kMaxSquarable, o.entropy_bonus));
    if (o.episodes_per_update < 1)
        throw Error(fmt::format("policy: episodes per update must be >= 1, not {}", o.episodes_per_update));
    options_ = o;
}

void PolicyLearner::set_temperature(double t)
{
    if (!(t >= config::kMinTemperature && t <= config::kMaxSquarable))
        throw Error(fmt::format("policy: temperature must be in [{:g}, {:g}], not {}", config::kMinTemperature,
                                config::kMaxSquarable, t));
    temperature_ = t;
}

double PolicyLearner::lr() const { return opt_->lr(); }

std::vector<std::string> PolicyLearner::parameter_names() const
{
    std::vector<std::string> names;
    for (const auto& p : module().named_parameters())
        names.push_back(p.key());
    return names;
}

torch::Tensor PolicyLearner::tensor_named(const std::string& name) const
{
    // The dicts are returned by value: kept alive here while their entries are looked at.
    const auto parameters = module().named_parameters();
    if (const auto* p = parameters.find(name))
        return *p;
    const auto buffers = module().named_buffers();
    if (const auto* b = buffers.find(name))
        return *b;
    throw Error(fmt::format("policy: the network has no tensor {}", name));
}

PolicyAgent::PolicyAgent(std::shared_ptr<PolicyLearner> learner, bool greedy,
                         std::function<void(const std::string&)> warn)
    : learner_(std::move(learner)), greedy_(greedy), warn_(std::move(warn))
{
}

Decision PolicyAgent::decide(const DecisionContext& c)
{
    if (!learner_->serves(c.actions))
        throw Error(fmt::format(
            "policy: it chooses among {} actions of the operations {}, but {} has {} of {} ({} "
            "blocks)",
            learner_->actions(), model::operations_text(learner_->operations()), c.model.name,
            c.num_actions(), model::operations_text(c.actions.operations()), c.model.original_blocks));
    std::vector<std::string> unknown;
    const auto layers = learner_->input(c.model, &unknown);
    if (!unknown.empty() && warn_)
        warn_(fmt::format("policy: {} layer(s) not in its vocabulary, read as <unk>: {}", unknown.size(),
                          unknown.front()));
    std::optional<StateEncoding> state; // the network refuses a missing one (check_state)
    if (learner_->reads_state() && c.features != nullptr)
        state = encode_state(*c.features, c.actions.blocks());
    const StateEncoding* s = state ? &*state : nullptr;
    const Choice choice = greedy_ ? learner_->greedy(layers, c.time_left, c.time_budget, s)
                                  : learner_->sample(layers, c.time_left, c.time_budget, /*learn=*/false, s);
    return {choice.action, choice.probabilities};
}

} // namespace rlda::core::agent

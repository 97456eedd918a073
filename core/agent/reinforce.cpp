// REINFORCE over the policy network, and its file format.
#include "core/agent/reinforce.h"

#include "core/util/atomic_file.h"
#include "core/util/error.h"

#include <fmt/format.h>
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <sstream>

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

std::span<const std::int64_t> span_of(const torch::Tensor& ids)
{
    return {ids.data_ptr<std::int64_t>(), static_cast<std::size_t>(ids.numel())};
}

// Softmax of logits / T in double (the reference computes it in float: they agree to ~1e-7).
void softmax(std::span<const float> logits, double temperature, std::vector<double>& p)
{
    p.resize(logits.size());
    double top = -std::numeric_limits<double>::infinity();
    for (float z : logits)
        top = std::max(top, z / temperature);
    double sum = 0.0;
    for (std::size_t a = 0; a < logits.size(); ++a)
        sum += p[a] = std::exp(logits[a] / temperature - top);
    for (double& x : p)
        x /= sum;
}

int argmax(const std::vector<double>& p)
{
    return static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
}

} // namespace

PolicyLearner::PolicyLearner(Vocabulary vocabulary, const config::PolicyConfig& sizes, std::int64_t actions,
                             std::uint64_t seed)
    : vocabulary_(std::move(vocabulary)), rng_(seed)
{
    torch::manual_seed(seed);
    net_ = PolicyNet(sizes, static_cast<std::int64_t>(vocabulary_.size()), actions, seed);
    fast_ = std::make_unique<FastPolicy>(net_);
    opt_ = std::make_unique<FastAdam>(net_->parameters(), sizes.alpha);
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

PolicyLearner::Step& PolicyLearner::forward_step(const torch::Tensor& layers, double time_left, double time_budget)
{
    const auto owned = as_ids(layers);
    const auto ids = span_of(owned);
    std::size_t seq = 0;
    while (seq < sequences_used_ && !std::ranges::equal(sequences_[seq].ids, ids))
        ++seq;
    if (seq == sequences_used_) {
        if (sequences_.size() == sequences_used_)
            sequences_.emplace_back();
        fast_->encode(ids, sequences_[seq]);
        ++sequences_used_;
    }
    if (steps_.size() == steps_used_)
        steps_.emplace_back();
    Step& step = steps_[steps_used_];
    fast_->head(sequences_[seq], time_left, time_budget, step.head);
    step.sequence = seq;
    step.temperature = temperature_;
    ++steps_used_; // only now: a throw above leaves the episode as it was
    return step;
}

Choice PolicyLearner::sample_reference(const torch::Tensor& layers, double time_left, double time_budget, bool learn)
{
    std::optional<torch::NoGradGuard> no_grad;
    if (!learn)
        no_grad.emplace();
    const auto logits = net_->forward(layers, time_left, time_budget);
    const auto log_p = torch::log_softmax(logits / temperature_, -1);
    Choice c = choose(log_p.detach().exp(), 0);
    c.action = draw(c.probabilities);
    if (learn)
        log_probs_.push_back(log_p[c.action]);
    return c;
}

Choice PolicyLearner::sample(const torch::Tensor& layers, double time_left, double time_budget, bool learn)
{
    if (reference_)
        return sample_reference(layers, time_left, time_budget, learn);
    Choice c;
    if (learn) {
        Step& step = forward_step(layers, time_left, time_budget);
        softmax(step.head.logits, temperature_, c.probabilities);
        step.action = c.action = draw(c.probabilities);
    } else {
        fast_->forward(span_of(as_ids(layers)), time_left, time_budget, scratch_);
        softmax(scratch_.head.logits, temperature_, c.probabilities);
        c.action = draw(c.probabilities);
    }
    return c;
}

Choice PolicyLearner::record(const torch::Tensor& layers, double time_left, double time_budget, int action)
{
    if (action < 0 || action >= actions())
        throw Error(fmt::format("policy: action {} is outside 0..{}", action, actions() - 1));
    if (reference_) {
        const auto log_p = torch::log_softmax(net_->forward(layers, time_left, time_budget) / temperature_, -1);
        log_probs_.push_back(log_p[action]);
        return choose(log_p.detach().exp(), action);
    }
    Step& step = forward_step(layers, time_left, time_budget);
    step.action = action;
    Choice c{action, {}};
    softmax(step.head.logits, temperature_, c.probabilities);
    return c;
}

Choice PolicyLearner::greedy(const torch::Tensor& layers, double time_left, double time_budget)
{
    if (reference_) {
        torch::NoGradGuard no_grad;
        const auto p = action_probabilities(net_->forward(layers, time_left, time_budget), temperature_);
        return choose(p, static_cast<int>(p.argmax().item<std::int64_t>()));
    }
    fast_->forward(span_of(as_ids(layers)), time_left, time_budget, scratch_);
    Choice c;
    softmax(scratch_.head.logits, temperature_, c.probabilities);
    c.action = argmax(c.probabilities);
    return c;
}

double PolicyLearner::finish_reference(double reward)
{
    // One backward for the whole episode: the same gradients as one per decision. Gradients are
    // zero here: FastAdam leaves them so.
    const auto objective = -torch::stack(log_probs_).mean() * reward;
    objective.backward();
    log_probs_.clear();
    return objective.item<double>();
}

double PolicyLearner::finish_fast(double reward)
{
    // objective = -(r/k) sum_j log softmax(z_j / T_j)[a_j], so
    // dL/dz_j = (r/k) (softmax(z_j / T_j) - onehot(a_j)) / T_j.
    const double scale = reward / static_cast<double>(steps_used_);
    const auto d = static_cast<std::size_t>(fast_->decider_size());
    d_last_.assign(sequences_used_ * d, 0.0f);
    std::vector<double> p;
    std::vector<float> d_logits(static_cast<std::size_t>(actions()));
    double log_p_sum = 0.0;
    for (std::size_t j = 0; j < steps_used_; ++j) {
        const Step& step = steps_[j];
        softmax(step.head.logits, step.temperature, p);
        log_p_sum += std::log(p[static_cast<std::size_t>(step.action)]);
        for (std::size_t a = 0; a < p.size(); ++a)
            d_logits[a] = static_cast<float>(scale * (p[a] - (static_cast<int>(a) == step.action ? 1.0 : 0.0)) /
                                             step.temperature);
        fast_->backward_head(step.head, d_logits, std::span<float>(d_last_).subspan(step.sequence * d, d));
    }
    // Decisions that shared an architecture share one pass back through the LSTMs: it is linear
    // in the gradient arriving at the decider's last state.
    for (std::size_t s = 0; s < sequences_used_; ++s)
        fast_->backward_sequence(sequences_[s], std::span<const float>(d_last_).subspan(s * d, d));
    steps_used_ = 0;
    sequences_used_ = 0;
    return -log_p_sum * scale;
}

double PolicyLearner::finish_episode(double reward)
{
    if (!episode_in_progress())
        throw Error("policy: an episode without decisions cannot be learned from");
    double learn_from = reward;
    if (baseline_decay_ > 0.0) {
        if (!baseline_started_)
            baseline_ = reward; // the first episode learns nothing instead of a huge step
        baseline_started_ = true;
        learn_from = reward - baseline_;
        baseline_ = baseline_decay_ * baseline_ + (1.0 - baseline_decay_) * reward;
    }
    const double objective = reference_ ? finish_reference(learn_from) : finish_fast(learn_from);
    opt_->step_and_zero_grad();
    ++episode_;
    const auto every = net_->sizes().decay_freq;
    if (every > 0 && episode_ % every == 0)
        opt_->set_lr(opt_->lr() * net_->sizes().learning_rate_decay);
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
    if (decay < 0.0 || decay >= 1.0)
        throw Error(fmt::format("policy: the reward baseline's decay must be in [0, 1), not {}", decay));
    baseline_decay_ = decay;
}

void PolicyLearner::set_temperature(double t)
{
    if (!(t > 0.0))
        throw Error(fmt::format("policy: temperature must be positive, not {}", t));
    temperature_ = t;
}

double PolicyLearner::lr() const { return opt_->lr(); }

void PolicyLearner::save(const std::string& path) const
{
    torch::serialize::OutputArchive a, net_archive, opt_archive;
    net_->save(net_archive);
    opt_->save(opt_archive);
    a.write("policy", net_archive);
    a.write("optimizer", opt_archive);
    c10::List<std::string> words;
    for (const auto& w : vocabulary_.words())
        words.push_back(w);
    a.write("meta/words", c10::IValue(words));
    const auto& s = net_->sizes();
    a.write("meta/sizes", torch::tensor({s.embedding_size, s.hidden_size, s.decider_lstm_size, s.decider_linear_size,
                                         s.time_encoding_size, s.decay_freq, net_->actions(), episode_},
                                        torch::kLong));
    a.write("meta/baseline", torch::tensor({baseline_decay_, baseline_, baseline_started_ ? 1.0 : 0.0}, torch::kFloat64));
    a.write("meta/temperature_every", torch::tensor({temperature_every_}, torch::kLong));
    a.write("meta/rates", torch::tensor({s.alpha, s.learning_rate_decay, temperature_, temperature_decay_},
                                        torch::kFloat64));
    std::ostringstream rng;
    rng << rng_;
    a.write("meta/rng", c10::IValue(rng.str()));
    a.write("meta/vocab_name", c10::IValue(s.vocab));
    replace_atomically(path, [&](const std::filesystem::path& tmp) { a.save_to(tmp.string()); });
}

PolicyLearner PolicyLearner::load(const std::string& path)
{
    torch::serialize::InputArchive a;
    try {
        a.load_from(path);
    } catch (const c10::Error&) {
        throw Error(fmt::format("{}: not a readable policy file", path));
    }
    c10::IValue words_v, rng_v, vocab_v;
    torch::Tensor sizes, rates;
    try {
        a.read("meta/words", words_v);
        a.read("meta/sizes", sizes);
        a.read("meta/rates", rates);
        a.read("meta/rng", rng_v);
        a.read("meta/vocab_name", vocab_v);
    } catch (const c10::Error&) {
        throw Error(fmt::format("{}: not a policy file of rlda (missing its metadata)", path));
    }
    std::vector<std::string> words;
    for (const auto& w : words_v.toList())
        words.push_back(w.get().toStringRef());
    config::PolicyConfig s;
    auto size = [&](int i) { return sizes[i].item<std::int64_t>(); };
    s.embedding_size = size(0);
    s.hidden_size = size(1);
    s.decider_lstm_size = size(2);
    s.decider_linear_size = size(3);
    s.time_encoding_size = size(4);
    s.decay_freq = size(5);
    s.alpha = rates[0].item<double>();
    s.learning_rate_decay = rates[1].item<double>();
    s.vocab = vocab_v.toStringRef();
    PolicyLearner p(Vocabulary(words), s, size(6), 0);
    torch::serialize::InputArchive net_archive, opt_archive;
    try {
        a.read("policy", net_archive);
        p.net_->load(net_archive);
        a.read("optimizer", opt_archive);
        p.opt_->load(opt_archive);
    } catch (const std::exception&) { // c10::Error from torch, Error from FastAdam
        throw Error(fmt::format("{}: the network or optimizer state does not fit its sizes", path));
    }
    p.episode_ = size(7);
    p.temperature_ = rates[2].item<double>();
    p.temperature_decay_ = rates[3].item<double>();
    torch::Tensor baseline;
    try {
        a.read("meta/baseline", baseline);
        p.baseline_decay_ = baseline[0].item<double>();
        p.baseline_ = baseline[1].item<double>();
        p.baseline_started_ = baseline[2].item<double>() != 0.0;
    } catch (const c10::Error&) {
        // written before the option existed: no baseline
    }
    torch::Tensor temperature_every;
    try {
        a.read("meta/temperature_every", temperature_every);
        p.set_temperature_every(temperature_every[0].item<std::int64_t>());
    } catch (const c10::Error&) {
        // written before the option existed: every decay_freq
    } catch (const Error&) {
        throw Error(fmt::format("{}: its temperature interval is negative", path));
    }
    std::istringstream rng(rng_v.toStringRef());
    rng >> p.rng_;
    return p;
}

PolicyAgent::PolicyAgent(std::shared_ptr<PolicyLearner> learner, bool greedy,
                         std::function<void(const std::string&)> warn)
    : learner_(std::move(learner)), greedy_(greedy), warn_(std::move(warn))
{
}

Decision PolicyAgent::decide(const DecisionContext& c)
{
    if (c.num_actions() != learner_->actions())
        throw Error(fmt::format("policy: it chooses among {} actions, but {} has {} ({} blocks + do nothing)",
                                learner_->actions(), c.model.name, c.num_actions(), c.model.original_blocks));
    std::vector<std::string> unknown;
    const auto layers = learner_->encode(c.model.leaf_layers, &unknown);
    if (!unknown.empty() && warn_)
        warn_(fmt::format("policy: {} layer(s) not in its vocabulary, read as <unk>: {}", unknown.size(),
                          unknown.front()));
    const Choice choice = greedy_ ? learner_->greedy(layers, c.time_left, c.time_budget)
                                  : learner_->sample(layers, c.time_left, c.time_budget, /*learn=*/false);
    return {choice.action, choice.probabilities};
}

} // namespace rlda::core::agent

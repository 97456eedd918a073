// An episode's decisions on either hand-written kernel and their REINFORCE gradients.
#include "core/policy/fast_episode.h"
#include "core/policy/structural_policy.h"

#include "core/util/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace rlda::core::agent {

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

double entropy_of(const std::vector<double>& p)
{
    double h = 0.0;
    for (double x : p)
        if (x > 0.0)
            h -= x * std::log(x);
    return h;
}

template <typename Kernel>
void FastEpisode<Kernel>::head(const typename Kernel::Sequence& sequence, double time_left, double time_budget,
                               typename Kernel::Head& head, const StateEncoding* state) const
{
    if constexpr (std::is_same_v<Kernel, FastStructural>) {
        kernel_.head(sequence, time_left, time_budget, head, state);
    } else {
        check_no_state(config::PolicyEncoder::Original, state);
        kernel_.head(sequence, time_left, time_budget, head);
    }
}

template <typename Kernel>
std::span<const float> FastEpisode<Kernel>::decide(Input input, double time_left, double time_budget,
                                                   double temperature, const StateEncoding* state)
{
    std::size_t seq = 0;
    while (seq < sequences_used_ && !Kernel::reads(sequences_[seq], input))
        ++seq;
    if (seq == sequences_used_) {
        if (sequences_.size() == sequences_used_)
            sequences_.emplace_back();
        kernel_.encode(input, sequences_[seq]);
        ++sequences_used_;
    }
    if (steps_.size() == steps_used_)
        steps_.emplace_back();
    Step& step = steps_[steps_used_];
    head(sequences_[seq], time_left, time_budget, step.head, state);
    step.sequence = seq;
    step.temperature = temperature;
    step.action = 0;
    ++steps_used_; // only now: a throw above leaves the episode as it was
    return step.head.logits;
}

template <typename Kernel>
std::span<const float> FastEpisode<Kernel>::forward(Input input, double time_left, double time_budget,
                                                    const StateEncoding* state)
{
    kernel_.encode(input, scratch_.sequence);
    head(scratch_.sequence, time_left, time_budget, scratch_.head, state);
    return scratch_.head.logits;
}

template <typename Kernel> double FastEpisode<Kernel>::finish(double advantage, double entropy)
{
    // dL/dz_j = ((A/k) (p_j - onehot(a_j)) + (beta/k) p_j (log p_j + H(p_j))) / T_j.
    const double scale = advantage / static_cast<double>(steps_used_);
    const double spread = entropy / static_cast<double>(steps_used_);
    d_offsets_.assign(1, 0);
    for (std::size_t s = 0; s < sequences_used_; ++s)
        d_offsets_.push_back(d_offsets_.back() + kernel_.sequence_gradient_size(sequences_[s]));
    d_sequences_.assign(d_offsets_.back(), 0.0f);
    const auto d_sequence = [&](std::size_t s) {
        return std::span<float>(d_sequences_).subspan(d_offsets_[s], d_offsets_[s + 1] - d_offsets_[s]);
    };
    double log_p_sum = 0.0, entropy_sum = 0.0;
    for (std::size_t j = 0; j < steps_used_; ++j) {
        const Step& step = steps_[j];
        softmax(step.head.logits, step.temperature, p_);
        log_p_sum += std::log(p_[static_cast<std::size_t>(step.action)]);
        const double h = spread > 0.0 ? entropy_of(p_) : 0.0;
        entropy_sum += h;
        d_logits_.resize(p_.size());
        for (std::size_t a = 0; a < p_.size(); ++a) {
            const double bonus = spread > 0.0 && p_[a] > 0.0 ? spread * p_[a] * (std::log(p_[a]) + h) : 0.0;
            d_logits_[a] = static_cast<float>(
                (scale * (p_[a] - (static_cast<int>(a) == step.action ? 1.0 : 0.0)) + bonus) / step.temperature);
        }
        kernel_.backward_head(sequences_[step.sequence], step.head, d_logits_, d_sequence(step.sequence));
    }
    // Decisions that shared an architecture share one pass back through the sequence part: it is
    // linear in the gradient arriving from the heads.
    for (std::size_t s = 0; s < sequences_used_; ++s)
        kernel_.backward_sequence(sequences_[s], d_sequence(s));
    steps_used_ = 0;
    sequences_used_ = 0;
    return -log_p_sum * scale - entropy_sum * spread;
}

template class FastEpisode<FastPolicy>;
template class FastEpisode<FastStructural>;

} // namespace rlda::core::agent

// One learning episode on a hand-written kernel (FastPolicy or FastStructural): its decisions'
// tapes, sequences shared between decisions that see the same architecture, and REINFORCE's
// gradients at its end.
#pragma once

#include "core/policy/fast_policy.h"
#include "core/policy/fast_structural.h"

#include <cstddef>
#include <span>
#include <vector>

namespace rlda::core::agent {

// Softmax of logits / T in double (the reference computes it in float: they agree to ~1e-7).
void softmax(std::span<const float> logits, double temperature, std::vector<double>& p);
// -sum p log p of a distribution that sums to 1.
double entropy_of(const std::vector<double>& p);

// `Kernel` provides Input, Sequence, Head and Tape (a Sequence and a Head), encode(), head(),
// forward(), reads(), sequence_gradient_size(), backward_head(sequence, head, ...) and
// backward_sequence(), as FastPolicy and FastStructural do; the tapes' pools are reused across
// episodes, so that an episode allocates nothing once they have grown. A decision's training state
// (the state encoder's, else null) goes to FastStructural's head; FastPolicy reads none.
template <typename Kernel> class FastEpisode {
public:
    using Input = typename Kernel::Input;

    explicit FastEpisode(Kernel kernel) : kernel_(std::move(kernel)) {}

    // A learning decision: the forward of `input` (its sequence part reused when an earlier
    // decision of the episode read the same input: the parameters have not moved since) at
    // `temperature`; its logits. take() then names the action. A throw leaves the episode as it was.
    std::span<const float> decide(Input input, double time_left, double time_budget, double temperature,
                                  const StateEncoding* state = nullptr);
    void take(int action) { steps_[steps_used_ - 1].action = action; }
    // A forward that learns nothing (greedy, sampling without learning); valid until the next.
    std::span<const float> forward(Input input, double time_left, double time_budget,
                                   const StateEncoding* state = nullptr);

    bool in_progress() const { return steps_used_ > 0; }
    // The episode's gradients, added to the parameters' .grad(), for
    //   objective = -(A/k) sum_j log p_j[a_j] - (beta/k) sum_j H(p_j),  p_j = softmax(z_j / T_j)
    // over its k decisions, advantage A and entropy weight beta (both already divided by the
    // episodes per update); returns the objective and ends the episode.
    double finish(double advantage, double entropy);

    Kernel& kernel() { return kernel_; }

private:
    void head(const typename Kernel::Sequence& sequence, double time_left, double time_budget,
              typename Kernel::Head& head, const StateEncoding* state) const;

    struct Step {
        std::size_t sequence = 0; // which of the episode's sequences it read
        typename Kernel::Head head;
        int action = 0;
        double temperature = 1.0;
    };

    Kernel kernel_;
    // Pools reused across episodes, `*_used_` of them live.
    std::vector<typename Kernel::Sequence> sequences_;
    std::size_t sequences_used_ = 0;
    std::vector<Step> steps_;
    std::size_t steps_used_ = 0;
    std::vector<float> d_sequences_;          // the sequences' gradients, end to end
    std::vector<std::size_t> d_offsets_;      // where each starts, and the end
    std::vector<double> p_;
    std::vector<float> d_logits_;
    typename Kernel::Tape scratch_;           // forwards that learn nothing
};

extern template class FastEpisode<FastPolicy>;
extern template class FastEpisode<FastStructural>;

} // namespace rlda::core::agent

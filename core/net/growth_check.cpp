// Growing a network in place and comparing its output with the ungrown one.
#include "core/net/growth_check.h"

#include "core/net/net.h"

namespace rlda::core::model {

GrowthCheck check_growth(const ModelSpec& spec, const std::vector<int>& deepen,
                         const std::vector<Action>& grow, double widen_factor)
{
    torch::manual_seed(0);
    Net net(spec);
    train_on_noise(net, 5, /*seed=*/0);
    Net before = clone_net(net);
    for (int block : deepen)
        net->deepen(block);
    for (const Action& g : grow) {
        if (g.op == Operation::Widen)
            net->widen(g.block, widen_factor);
        else
            net->deepen(g.block);
    }
    const double diff = max_abs_output_diff(before, net);
    return {net->spec(), diff};
}

} // namespace rlda::core::model

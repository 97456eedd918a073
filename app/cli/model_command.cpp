// `rlda model show`: parameters, original blocks and leaf layers, optionally after deepening and widening,
// with a function-preservation check.
#include "app/cli/commands.h"
#include "app/cli/numbers.h"

#include "core/model/net.h"
#include "core/model/zoo.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>

namespace rlda::app {
namespace {

struct ShowOptions {
    std::string model;
    std::string deepen;
    std::string grow;
    double factor = 2.0;
    std::string input = "3x32x32";
    std::int64_t classes = 10;
    bool check = false;
};

int run_show(const ShowOptions& o)
{
    namespace m = rlda::core::model;
    const m::Shape input = m::parse_shape(o.input);
    const std::vector<int> actions = m::parse_actions(o.deepen);
    const std::vector<m::Action> grow = m::parse_growth(o.grow);
    m::ModelSpec spec = m::load_model(o.model, input, o.classes);

    double diff = 0.0;
    if (o.check) {
        torch::manual_seed(0);
        m::Net net(spec);
        m::train_on_noise(net, 5, /*seed=*/0);
        m::Net before = m::clone_net(net);
        for (int a : actions)
            net->deepen(a);
        for (const m::Action& g : grow) {
            if (g.op == m::Operation::Widen)
                net->widen(g.block, o.factor);
            else
                net->deepen(g.block);
        }
        diff = m::max_abs_output_diff(before, net);
        spec = net->spec();
    } else {
        for (int a : actions)
            m::deepen_spec(spec, a);
        m::apply_growth(spec, grow, o.factor);
    }

    const m::ModelSummary s = m::summarize(spec);
    fmt::print("parameters: {}\nblocks: {}\n", s.parameters, s.original_blocks);
    for (const auto& layer : s.leaf_layers)
        fmt::print("{}\n", layer);
    if (o.check)
        fmt::print("max_abs_diff: {:.3g}\n", diff);
    return 0;
}

} // namespace

std::function<int()> add_model_command(CLI::App& app)
{
    auto* model = app.add_subcommand("model", "Inspect models of the zoo or TOML model files");
    model->require_subcommand(1);
    auto* show = model->add_subcommand("show", "Parameter count, original blocks and leaf layers");
    auto o = std::make_shared<ShowOptions>();
    show->add_option("MODEL", o->model, "A zoo name (ConvNet2, …) or a TOML model file")->required();
    show->add_option("--deepen", o->deepen, "Deepen actions in order, e.g. \"0 2 1\"");
    show->add_option("--grow", o->grow,
                     "Deepen or widen after the deepenings, in order: \"0 w1\" deepens block 0, then widens block 1");
    show->add_option("--factor", o->factor, "Widening factor")->capture_default_str()->check(CLI::Range(1.0001, 8.0));
    show->add_option("--input", o->input, "Input shape CxHxW")->capture_default_str()->check(input_shape());
    show->add_option("--classes", o->classes, "Number of classes")
        ->capture_default_str()
        ->check(whole_number(1, kMaxClasses));
    show->add_flag("--check", o->check,
                   "Train on noise for a few steps, deepen and widen, print max |output difference| in eval mode");
    return [show, o]() -> int {
        if (!show->parsed())
            return -1;
        return run_show(*o);
    };
}

} // namespace rlda::app

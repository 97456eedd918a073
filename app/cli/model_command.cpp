// `rlda model show`: parameters, original blocks, the input shape and classes (and whether they were
// assumed) and leaf layers, optionally after deepening and widening, with a function-preservation
// check.
#include "app/cli/commands.h"
#include "app/cli/numbers.h"

#include "core/config/dataset_shape.h"
#include "core/config/names.h"
#include "core/model/zoo.h"
#include "core/net/growth_check.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>

namespace rlda::app {
namespace {

namespace cfg = rlda::core::config;

// What a model is shown for when nothing says: CIFAR-10's samples, as the paper's models were built.
cfg::SampleShape assumed_sample()
{
    cfg::DatasetConfig cifar;
    cifar.kind = cfg::DatasetKind::Cifar10;
    return cfg::sample_shape(cifar);
}

struct ShowOptions {
    std::string model;
    std::string deepen;
    std::string grow;
    double factor = 2.0;
    std::string input = core::model::shape_string(assumed_sample().input);
    std::int64_t classes = assumed_sample().classes;
    std::string dataset; // a dataset kind whose samples give the input and classes
    bool input_given = false;
    bool classes_given = false;
    bool check = false;
};

// "input: 1x28x28, 10 classes", and where they came from when not from --input and --classes.
std::string input_line(const ShowOptions& o, const core::model::Shape& input, std::int64_t classes)
{
    std::string line = fmt::format("input: {}, {} classes", core::model::shape_string(input), classes);
    if (!o.dataset.empty())
        return fmt::format("{} ({})", line, o.dataset);
    if (!o.input_given && !o.classes_given)
        return line + " (assumed, CIFAR-10's; pass --input CxHxW and --classes N, or --dataset NAME)";
    if (!o.input_given)
        return line + " (input assumed, CIFAR-10's; pass --input CxHxW)";
    if (!o.classes_given)
        return line + " (classes assumed; pass --classes N)";
    return line;
}

int run_show(const ShowOptions& o)
{
    namespace m = rlda::core::model;
    m::Shape input = m::parse_shape(o.input);
    std::int64_t classes = o.classes;
    if (!o.dataset.empty()) {
        cfg::DatasetConfig d;
        d.kind = *cfg::from_string<cfg::DatasetKind>(o.dataset); // CLI11 checked the name
        const cfg::SampleShape sample = cfg::sample_shape(d);
        input = sample.input;
        classes = sample.classes;
    }
    const std::vector<int> actions = m::parse_actions(o.deepen);
    const std::vector<m::Action> grow = m::parse_growth(o.grow);
    m::ModelSpec spec = m::load_model(o.model, input, classes);

    double diff = 0.0;
    if (o.check) {
        auto checked = m::check_growth(spec, actions, grow, o.factor);
        diff = checked.max_abs_diff;
        spec = std::move(checked.grown);
    } else {
        for (int a : actions)
            m::deepen_spec(spec, a);
        m::apply_growth(spec, grow, o.factor);
    }

    const m::ModelSummary s = m::summarize(spec);
    fmt::print("parameters: {}\nblocks: {}\n{}\n", s.parameters, s.original_blocks, input_line(o, input, classes));
    for (const auto& layer : s.leaf_layers)
        fmt::print("{}\n", layer);
    // What a run may do to it: a block that cannot be deepened or widened is named here, before a
    // run that allows the operation refuses the model.
    const auto impossible = m::impossible_actions(
        spec, m::action_space(spec, {m::Operation::Deepen, m::Operation::Widen}, o.factor));
    if (impossible.empty())
        fmt::print("actions: every block can be deepened, and every block but the last widened\n");
    for (const auto& why : impossible)
        fmt::print("cannot: {}\n", why);
    if (o.check) {
        fmt::print("max_abs_diff: {:.3g}\n", diff);
        if (actions.empty() && grow.empty())
            fmt::print("note: no --deepen or --grow was given, so the model was compared with itself and "
                       "max_abs_diff is 0 by construction; add one, e.g. --deepen \"0\"\n");
    }
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
    auto* input = show->add_option("--input", o->input, "Input shape CxHxW (default: CIFAR-10's)")
                      ->capture_default_str()
                      ->check(input_shape());
    auto* classes = show->add_option("--classes", o->classes, "Number of classes")
                        ->capture_default_str()
                        ->check(whole_number(1, kMaxClasses));
    // The datasets of a fixed shape; synthetic data is as configured, so --input and --classes.
    std::vector<std::string> fixed;
    for (const auto& name : cfg::names<cfg::DatasetKind>())
        if (name != cfg::to_string(cfg::DatasetKind::Synthetic))
            fixed.push_back(name);
    show->add_option("--dataset", o->dataset,
                     "Input shape and classes of this dataset's samples (fashion-mnist: 1x28x28, 10 classes)")
        ->check(CLI::IsMember(fixed))
        ->excludes(input)
        ->excludes(classes);
    show->add_flag("--check", o->check,
                   "Train on noise for a few steps, deepen and widen, print max |output difference| in eval mode");
    return [show, o, input, classes]() -> int {
        if (!show->parsed())
            return -1;
        o->input_given = input->count() > 0;
        o->classes_given = classes->count() > 0;
        return run_show(*o);
    };
}

} // namespace rlda::app

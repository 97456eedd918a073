// Persistence: the warm-start checkpoint every simulation branch starts from (saved at the first
// allocation change, read by Trainer::resume_from), the in-memory TrainerState of a pending decision
// (Trainer::state and restore), and the trained model's file (Trainer::save_model).
#include "core/train/trainer_impl.h"

#include "core/net/tensors.h"
#include "core/train/checkpoint.h"
#include "core/util/error.h"

#include <ATen/CPUGeneratorImpl.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <mutex>

namespace rlda::core::train {

void Trainer::Impl::save_checkpoint(const std::filesystem::path& file)
{
    CheckpointMeta m;
    m.model_name = base.name;
    m.input = base.input;
    m.classes = base.classes;
    m.grown = grown;
    m.operations = operations_text();
    m.chosen = chosen;
    m.clock = clock.state();
    m.scheduler_reported = static_cast<std::int64_t>(sched.reported());
    m.epochs_started = epochs_started;
    m.epochs_completed = epochs_completed;
    m.steps = steps;
    m.adapting = adapting;
    m.decisions = decisions;
    m.lr = lr;
    m.history = history;
    m.grad_sq_mean = grad_sq_mean;
    train::save_checkpoint(file, m, *net, *opt);
}

// Everything is read and checked before any of the trainer's state changes, so a file that
// fails leaves the trainer as it was.
void Trainer::Impl::resume(const std::filesystem::path& file)
{
    CheckpointReader reader(file, [&](const std::string& warning) { obs.on_message(warning); });
    const CheckpointMeta& m = reader.meta();
    if (m.model_name != base.name || m.input != base.input || m.classes != base.classes)
        throw Error(fmt::format("{}: the checkpoint is of {} ({}, {} classes), this job trains {} "
                                "({}, {} classes)",
                                file.string(), m.model_name, model::shape_string(m.input), m.classes,
                                base.name, model::shape_string(base.input), base.classes));
    if (m.operations != operations_text())
        throw Error(fmt::format("{}: the checkpoint's actions are of the operations {}, this job's of {} "
                                "(trainer.operations)",
                                file.string(), m.operations, operations_text()));
    model::ModelSpec spec = base;
    for (int action : m.grown)
        guarded_grow(file, spec, action);
    if (!m.grad_sq_mean.empty() &&
        static_cast<int>(m.grad_sq_mean.size()) != model::original_block_count(spec))
        throw Error(fmt::format("{}: features/grad_sq_mean has {} entries for a model of {} blocks",
                                file.string(), m.grad_sq_mean.size(), model::original_block_count(spec)));
    model::Net restored(spec);
    place(restored);
    reader.load_model(*restored);
    restored->train();
    auto restored_opt = make_optimizer(restored, m.lr);
    reader.load_optimizer(*restored_opt, *restored);

    net = restored;
    ++weights_version;
    opt = std::move(restored_opt);
    grown = m.grown;
    chosen = m.chosen;
    clock.restore(m.clock);
    sched.restore(static_cast<std::size_t>(m.scheduler_reported));
    epochs_started = m.epochs_started;
    epochs_completed = m.epochs_completed;
    steps = m.steps;
    adapting = m.adapting;
    decisions = m.decisions;
    set_lr(m.lr);
    teacher = model::Net(nullptr);
    checkpoint_saved = true; // a branch never overwrites the checkpoint it started from
    history = m.history;
    grad_sq_mean = m.grad_sq_mean;
    for (const EpochMetrics& e : history) // the replay: see TrainObserver
        obs.on_epoch(e);
}

std::string Trainer::Impl::operations_text() const
{
    return fmt::format("{}", fmt::join(model::operation_strings(actions.operations()), ","));
}

void Trainer::Impl::guarded_grow(const std::filesystem::path& file, model::ModelSpec& spec, int action) const
{
    try {
        model::apply_action(spec, actions, action);
    } catch (const Error& e) {
        throw Error(fmt::format("{}: meta/deepened does not fit the model: {}", file.string(), e.what()));
    }
}

struct TrainerState::Data {
    model::Net net{nullptr};
    std::vector<int> grown, chosen;
    bool adapting = false;
    int decisions = 0;
    double lr = 0.0;
    int epochs_started = 0, epochs_completed = 0;
    std::int64_t steps = 0;
    bool checkpoint_saved = false;
    std::vector<EpochMetrics> history;
    std::vector<double> grad_sq_mean;
    ClockState clock;
    std::size_t reported = 0;
    torch::Tensor rng; // the CPU generator's state
};

TrainerState::TrainerState() = default;
TrainerState::~TrainerState() = default;
TrainerState::TrainerState(const TrainerState&) = default;
TrainerState& TrainerState::operator=(const TrainerState&) = default;

TrainerState Trainer::state() const
{
    const Impl& m = *impl_;
    if (!m.decision_pending())
        throw Error("trainer: state() with no decision pending");
    if (m.teacher)
        throw Error("trainer: state() while distilling after a \"down\": not kept");
    auto d = std::make_shared<TrainerState::Data>();
    auto gen = at::detail::getDefaultCPUGenerator();
    {
        std::lock_guard<std::mutex> lock(gen.mutex());
        d->rng = gen.get_state();
    }
    d->net = model::clone_net(m.net);
    {
        // Taking a state changes nothing: the clone's construction drew from the generator.
        std::lock_guard<std::mutex> lock(gen.mutex());
        gen.set_state(d->rng);
    }
    d->grown = m.grown;
    d->chosen = m.chosen;
    d->adapting = m.adapting;
    d->decisions = m.decisions;
    d->lr = m.lr;
    d->epochs_started = m.epochs_started;
    d->epochs_completed = m.epochs_completed;
    d->steps = m.steps;
    d->checkpoint_saved = m.checkpoint_saved;
    d->history = m.history;
    d->grad_sq_mean = m.grad_sq_mean;
    d->clock = m.clock.state();
    d->reported = m.sched.reported();
    TrainerState out;
    out.data_ = std::move(d);
    return out;
}

void Trainer::restore(const TrainerState& state)
{
    if (!state.data_)
        throw Error("trainer: restore() of an empty state");
    Impl& m = *impl_;
    const TrainerState::Data& d = *state.data_;
    m.net = model::clone_net(d.net); // the same layout (channels-last) and bytes
    ++m.weights_version;
    m.grown = d.grown;
    m.chosen = d.chosen;
    m.adapting = d.adapting;
    m.decisions = d.decisions;
    m.epochs_started = d.epochs_started;
    m.epochs_completed = d.epochs_completed;
    m.steps = d.steps;
    m.checkpoint_saved = d.checkpoint_saved;
    m.history = d.history;
    m.grad_sq_mean = d.grad_sq_mean;
    m.clock.restore(d.clock);
    m.sched.restore(d.reported);
    m.teacher = model::Net(nullptr);
    m.lr = d.lr;
    m.make_optimizer(); // replaced at the decision anyway
    // Last: making the network above drew from the generator.
    auto gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(d.rng);
}

// model.pt: a tensor file of this kind, "model/<name>" for every parameter and buffer, and the
// model's name, input shape and classes in its header.
constexpr const char* kModelKind = "model";

void Trainer::save_model(const std::filesystem::path& file) const
{
    TensorFileWriter f(kModelKind);
    const model::ModelSpec& spec = impl_->net->spec();
    f.set("model_name", spec.name);
    f.set("input", std::vector<std::int64_t>(spec.input.begin(), spec.input.end()));
    f.set("classes", spec.classes);
    for (const auto& p : impl_->net->named_parameters())
        add_tensor(f, "model/" + p.key(), p.value());
    for (const auto& b : impl_->net->named_buffers())
        add_tensor(f, "model/" + b.key(), b.value());
    f.write(file);
}

} // namespace rlda::core::train

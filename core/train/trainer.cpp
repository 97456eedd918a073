// Algorithm 1: epochs under the scheduler, adaptation after "up", undo + distillation after "down",
// and the warm-start checkpoint every simulation branch starts from.
#include "core/train/trainer.h"

#include "core/config/operations.h"
#include "core/data/dataset.h"
#include "core/data/sampler.h"
#include "core/model/net.h"
#include "core/train/checkpoint.h"
#include "core/train/device.h"
#include "core/train/optimizer.h"
#include "core/train/probe.h"
#include "core/util/atomic_file.h"
#include "core/util/error.h"
#include "core/util/tensor_file.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/loss.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <mutex>
#include <optional>

namespace rlda::core::train {
namespace F = torch::nn::functional;

struct Trainer::Impl {
    using Pause = Trainer::Pause;
    TrainerSettings s;
    model::ModelSpec base;
    const data::DatasetSplit& data;
    Scheduler& sched;
    Clock& clock;
    agent::Agent& agent;
    TrainObserver null_observer;
    TrainObserver& obs;

    torch::Device device{torch::kCPU};
    data::Dataset train, test; // on `device`
    data::BatchSampler sampler;

    model::Net net{nullptr};
    std::unique_ptr<torch::optim::Optimizer> opt;
    double lr = 0.0;

    model::ActionSpace actions;  // what the agent chooses among: [trainer] operations on base's blocks
    std::vector<int> grown; // actions applied and not undone: the current spec is base + these
    std::vector<int> chosen;   // every action the agent chose
    bool adapting = false;
    int decisions = 0;
    model::Net teacher{nullptr};
    double distill_weight = 0.0;

    int epochs_started = 0;
    int epochs_completed = 0;
    std::int64_t steps = 0;
    bool checkpoint_saved = false;
    std::vector<EpochMetrics> history;
    std::optional<int> forced;       // decide(): the action to take instead of asking the agent
    // Bumped whenever the weights may change (a step, an adaptation, a new network): an evaluation of
    // unchanged weights (a run's final report right after its last epoch's) is not computed again.
    std::uint64_t weights_version = 0;
    std::optional<std::pair<std::uint64_t, double>> last_evaluation;
    Trainer::Work work; // by this trainer, for build costs
    // Decision features: gathered when measuring (the settings, or an agent that reads them).
    bool measuring = false;
    GradientStats grad_stats;          // the epoch in progress
    std::vector<double> grad_sq_mean;  // the last completed epoch's; empty: none gathered yet

    Impl(TrainerSettings settings, model::ModelSpec base_spec, const data::DatasetSplit& d, Scheduler& sc,
         Clock& c, agent::Agent& a, TrainObserver* o)
        : s(std::move(settings)), base(std::move(base_spec)), data(d), sched(sc), clock(c), agent(a),
          obs(o ? *o : null_observer), device(resolve_device(s.job.device)),
          sampler(d.train.size(), s.job.batch_size, s.job.seed, /*drop_last=*/false, device), actions(config::trainer_actions(s.trainer, base))
    {
        if (s.job.batch_size < 1)
            throw Error(fmt::format("job.batch_size: must be positive, not {}", s.job.batch_size));
        if (d.train.size() == 0 || d.test.size() == 0)
            throw Error("dataset: the train and test sets must not be empty");
        if (d.train.shape() != base.input)
            throw Error(fmt::format("job.model: {} was built for input {}, but the dataset has {}",
                                    base.name, model::shape_string(base.input),
                                    model::shape_string(d.train.shape())));
        train = d.train.to(device);
        test = d.test.to(device);
        torch::manual_seed(s.job.seed);
        net = model::Net(base);
        place(net);
        lr = s.job.lr;
        make_optimizer();
        measuring = s.measure_features || agent.reads_features();
    }

    // On the device, and on the CPU in the layout its convolutions run fastest in.
    void place(model::Net& n) const
    {
        n->to(device);
        n->set_channels_last(device.is_cpu());
    }

    void make_optimizer() { opt = make_optimizer(net, lr); }

    std::unique_ptr<torch::optim::Optimizer> make_optimizer(model::Net& n, double rate) const
    {
        return train::make_optimizer(s.job, n->parameters(), rate);
    }

    void set_lr(double value)
    {
        lr = value;
        set_learning_rate(*opt, value);
    }

    double evaluate()
    {
        if (last_evaluation && last_evaluation->first == weights_version) {
            clock.on_evaluation(); // it still costs what an evaluation costs on the virtual clock
            return last_evaluation->second;
        }
        torch::NoGradGuard no_grad;
        net->eval();
        const std::int64_t n = test.size();
        auto correct = torch::zeros({}, torch::TensorOptions().dtype(torch::kLong).device(device));
        for (std::int64_t i = 0; i < n; i += s.eval_batch) {
            const auto len = std::min(s.eval_batch, n - i);
            auto out = net->forward(test.images.narrow(0, i, len));
            correct += out.argmax(1).eq(test.labels.narrow(0, i, len)).sum();
        }
        net->train();
        clock.on_evaluation();
        ++work.evaluations;
        const double accuracy = static_cast<double>(correct.item<std::int64_t>()) / static_cast<double>(n);
        last_evaluation = {weights_version, accuracy};
        return accuracy;
    }

    torch::Tensor loss_for(const torch::Tensor& out, const torch::Tensor& x, const torch::Tensor& y)
    {
        auto ce = F::cross_entropy(out, y);
        if (!teacher)
            return ce;
        torch::Tensor soft;
        {
            torch::NoGradGuard no_grad;
            soft = F::softmax(teacher->forward(x) / s.trainer.distill_temperature, F::SoftmaxFuncOptions(1));
        }
        const double T = s.trainer.distill_temperature;
        auto kd = F::kl_div(F::log_softmax(out / T, F::LogSoftmaxFuncOptions(1)), soft,
                            F::KLDivFuncOptions().reduction(torch::kBatchMean)) *
                  (T * T);
        return distill_weight * kd + (1.0 - distill_weight) * ce;
    }

    agent::DecisionFeatures decision_features()
    {
        ProbeContext c;
        c.history = history;
        c.grad_sq_mean = grad_sq_mean;
        c.lr = s.job.lr; // a decision starts a fresh optimizer at the initial rate
        c.time_left = sched.time_left();
        c.time_budget = sched.time_budget();
        return measure_features(*net, test, c);
    }

    void consult()
    {
        const model::ModelSummary before = net->summary();
        agent::DecisionContext ctx{before, actions, decisions, sched.time_left(), sched.time_budget()};
        std::optional<agent::DecisionFeatures> features;
        if (!forced && agent.reads_features()) {
            features = decision_features();
            ctx.features = &*features;
        }
        const agent::Decision d = forced ? agent::Decision{*forced, {}} : agent.decide(ctx);
        if (d.action < 0 || d.action >= ctx.num_actions())
            throw Error(fmt::format("agent {} chose action {}, outside 0..{}", agent.name(), d.action,
                                    ctx.num_actions() - 1));
        const bool deepens = d.action != ctx.num_actions() - 1;
        model::Net copy = s.trainer.check_preservation && deepens ? model::clone_net(net) : model::Net(nullptr);
        // A widening's copies are drawn from the job's seed and the decision, so a run repeats.
        const model::ActionResult r =
            net->apply(actions, d.action, s.trainer.widen_noise, s.job.seed * 1000003u + chosen.size());
        ++weights_version;
        if (!r.did_nothing())
            grown.push_back(d.action);
        chosen.push_back(d.action);

        AdaptationEvent e;
        e.decision = ++decisions;
        e.time = sched.elapsed();
        e.time_left = sched.time_left();
        e.agent = agent.name();
        e.action = d.action;
        e.did_nothing = r.did_nothing();
        e.operations = model::operation_strings(actions.operations());
        if (!r.did_nothing()) {
            e.operation = model::to_string(r.what.op);
            e.block = r.what.block;
        }
        e.probabilities = d.probabilities;
        e.features = std::move(features);
        e.before = before;
        e.after = net->summary();
        if (copy)
            e.max_abs_diff = model::max_abs_output_diff(copy, net);
        lr = s.job.lr; // a fresh optimizer at the initial learning rate, as the original
        make_optimizer();
        obs.on_adaptation(e);
    }

    std::string undo_last_growth()
    {
        if (grown.empty())
            return "nothing to undo: the model has not been deepened or widened";
        const std::int64_t larger = net->parameter_count();
        grown.pop_back();
        model::ModelSpec smaller = base;
        for (int a : grown)
            model::apply_action(smaller, actions, a);
        model::Net student(smaller);
        place(student);
        // Every module of the smaller model is in the larger one; an undone widening keeps the
        // original units of its layers.
        model::copy_state_narrowing(net, student);
        teacher = net;
        teacher->eval();
        net = student;
        ++weights_version;
        net->train();
        distill_weight = s.trainer.distill_weight;
        lr = s.job.lr;
        make_optimizer();
        return fmt::format("restored the architecture before the last adaptation ({} -> {} parameters); "
                           "distilling from the larger model",
                           larger, net->parameter_count());
    }

    void handle_allocation(Allocation change, const std::string& checkpoint_note)
    {
        AllocationRecord rec;
        rec.time = sched.elapsed();
        rec.change = change;
        if (change == Allocation::Up) {
            adapting = true;
            decisions = 0;
            rec.effect = fmt::format("adaptation mode: the agent is consulted before each of the next "
                                     "{} epochs",
                                     s.trainer.max_decisions);
        } else {
            adapting = false;
            rec.effect = undo_last_growth();
        }
        if (!checkpoint_saved && !s.warm_start_checkpoint.empty()) {
            save_checkpoint(s.warm_start_checkpoint);
            checkpoint_saved = true;
            rec.effect += checkpoint_note;
        }
        obs.on_allocation(rec);
    }

    enum class EpochEnd { Completed, Interrupted, Expired, Cancelled };

    EpochEnd train_epoch(const std::stop_token& stop)
    {
        sampler.reshuffle(epochs_started);
        ++epochs_started;
        net->train();
        const auto opts = torch::TensorOptions().device(device);
        auto loss_sum = torch::zeros({}, opts.dtype(torch::kFloat64));
        auto correct = torch::zeros({}, opts.dtype(torch::kLong));
        std::int64_t seen = 0;
        const std::int64_t batches = sampler.batches();
        const double lr_used = lr;
        if (measuring)
            grad_stats.start(*net); // an epoch cut short is started over: only completed ones count
        for (std::int64_t b = 0; b < batches; ++b) {
            if (stop.stop_requested())
                return EpochEnd::Cancelled;
            if (sched.expired())
                return EpochEnd::Expired;
            if (const Allocation a = sched.allocation(); a != Allocation::Same) {
                handle_allocation(a, "; warm-start checkpoint saved");
                return EpochEnd::Interrupted;
            }
            const auto [x, y] = data::take(train, sampler.indices(b));
            opt->zero_grad();
            const auto out = net->forward(x);
            const auto loss = loss_for(out, x, y);
            loss.backward();
            if (measuring)
                grad_stats.add_step();
            opt->step();
            ++weights_version;
            ++work.steps;
            clock.on_step();
            ++steps;
            {
                torch::NoGradGuard no_grad;
                loss_sum += loss.detach().to(torch::kFloat64) * x.size(0);
                correct += out.argmax(1).eq(y).sum();
            }
            seen += x.size(0);
            obs.on_progress({epochs_started, b + 1, batches, sched.elapsed(), sched.time_left(),
                             sched.time_budget()});
        }
        ++epochs_completed;
        ++work.epochs;
        if (measuring)
            grad_sq_mean = grad_stats.finish();
        EpochMetrics m = measure(lr_used);
        m.train_loss = loss_sum.item<double>() / static_cast<double>(seen);
        m.train_acc = static_cast<double>(correct.item<std::int64_t>()) / static_cast<double>(seen);
        history.push_back(m);
        obs.on_epoch(m);
        set_lr(lr * s.job.lr_decay);
        if (teacher) {
            distill_weight *= s.trainer.distill_decay;
            if (distill_weight < 1e-6)
                teacher = model::Net(nullptr);
        }
        return EpochEnd::Completed;
    }

    // Test accuracy and the run's counters now; the caller adds what only it knows.
    EpochMetrics measure(double lr_used)
    {
        EpochMetrics m;
        m.epoch = epochs_completed;
        m.test_acc = evaluate(); // first: the evaluation itself costs (virtual) time
        m.time = sched.elapsed();
        m.time_left = sched.time_left();
        m.lr = lr_used;
        m.parameters = net->parameter_count();
        m.steps = steps;
        return m;
    }

    RunResult run(const std::stop_token& stop)
    {
        RunResult result;
        while (true) {
            if (stop.stop_requested()) {
                result.cancelled = true;
                break;
            }
            if (sched.expired())
                break;
            if (adapting && decisions < s.trainer.max_decisions)
                consult();
            const EpochEnd end = train_epoch(stop);
            if (end == EpochEnd::Cancelled) {
                result.cancelled = true;
                break;
            }
            if (end == EpochEnd::Expired)
                break;
        }
        EpochMetrics final = measure(lr);
        final.final = true;
        obs.on_epoch(final);

        result.final_test_acc = final.test_acc;
        result.epochs = epochs_completed;
        result.steps = steps;
        result.actions = chosen;
        result.final_model = net->summary();
        obs.on_finished(result);
        return result;
    }

    bool decision_pending() const { return adapting && decisions < s.trainer.max_decisions; }

    // The loop of run() up to its next consultation: the same checks in the same order.
    Pause run_to_decision(const std::stop_token& stop)
    {
        while (true) {
            if (stop.stop_requested() || sched.expired())
                return Pause::Ended;
            if (decision_pending())
                return Pause::Decision;
            const EpochEnd end = train_epoch(stop);
            if (end == EpochEnd::Cancelled || end == EpochEnd::Expired)
                return Pause::Ended;
        }
    }

    // run()'s consultation with `action` chosen, then its epoch, then on to the next consultation.
    Pause decide(int action, const std::stop_token& stop)
    {
        if (!decision_pending())
            throw Error("trainer: decide() with no decision pending");
        forced = action;
        try {
            consult();
        } catch (...) {
            forced.reset();
            throw;
        }
        forced.reset();
        const EpochEnd end = train_epoch(stop);
        if (end == EpochEnd::Cancelled || end == EpochEnd::Expired)
            return Pause::Ended;
        return run_to_decision(stop);
    }

    void save_checkpoint(const std::filesystem::path& file)
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
    void resume(const std::filesystem::path& file)
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
        if (!m.grad_sq_mean.empty() && static_cast<int>(m.grad_sq_mean.size()) != model::original_block_count(spec))
            throw Error(fmt::format("{}: features/grad_sq_mean has {} entries for a model of {} blocks", file.string(),
                                    m.grad_sq_mean.size(), model::original_block_count(spec)));
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

    std::string operations_text() const { return fmt::format("{}", fmt::join(model::operation_strings(actions.operations()), ",")); }

    void guarded_grow(const std::filesystem::path& file, model::ModelSpec& spec, int action) const
    {
        try {
            model::apply_action(spec, actions, action);
        } catch (const Error& e) {
            throw Error(fmt::format("{}: meta/deepened does not fit the model: {}", file.string(), e.what()));
        }
    }
};

Trainer::Trainer(TrainerSettings settings, model::ModelSpec base, const data::DatasetSplit& data,
                 Scheduler& scheduler, Clock& clock, agent::Agent& agent, TrainObserver* observer)
    : impl_(std::make_unique<Impl>(std::move(settings), std::move(base), data, scheduler, clock, agent, observer))
{
}

Trainer::~Trainer() = default;

void Trainer::resume_from(const std::filesystem::path& checkpoint) { impl_->resume(checkpoint); }

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

Trainer::Pause Trainer::run_to_decision(const std::stop_token& stop) { return impl_->run_to_decision(stop); }

Trainer::Pause Trainer::decide(int action, const std::stop_token& stop) { return impl_->decide(action, stop); }

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

agent::DecisionFeatures Trainer::decision_features() const
{
    if (!impl_->decision_pending())
        throw Error("trainer: decision_features() with no decision pending");
    return impl_->decision_features();
}

Trainer::Work Trainer::work() const { return impl_->work; }

RunResult Trainer::run(const std::stop_token& stop) { return impl_->run(stop); }

const model::ModelSpec& Trainer::model_spec() const { return impl_->net->spec(); }

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
        f.add("model/" + p.key(), p.value());
    for (const auto& b : impl_->net->named_buffers())
        f.add("model/" + b.key(), b.value());
    f.write(file);
}

} // namespace rlda::core::train

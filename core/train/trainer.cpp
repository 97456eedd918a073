// The trainer's construction, the public Trainer members that forward to Trainer::Impl, and Algorithm 1's
// epoch loop: epochs under the scheduler, with the agent consulted in adaptation mode and the allocation
// changes handed to adaptation (trainer_adaptation.cpp). trainer_impl.h says where the rest lives.
#include "core/train/trainer_impl.h"

#include "core/config/operations.h"
#include "core/train/optimizer.h"
#include "core/train/torch_device.h"
#include "core/util/error.h"

#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/loss.h>

#include <fmt/format.h>

#include <algorithm>

namespace rlda::core::train {
namespace F = torch::nn::functional;

Trainer::Impl::Impl(TrainerSettings settings, model::ModelSpec base_spec, const data::DatasetSplit& d,
                    Scheduler& sc, Clock& c, agent::Agent& a, TrainObserver* o)
    : s(std::move(settings)), base(std::move(base_spec)), data(d), sched(sc), clock(c), agent(a),
      obs(o ? *o : null_observer), device(resolve_device(s.job.device)),
      sampler(d.train.size(), s.job.batch_size, s.job.seed, /*drop_last=*/false, device),
      actions(config::trainer_actions(s.trainer, base))
{
    if (s.job.batch_size < 1)
        throw Error(fmt::format("job.batch_size: must be positive, not {}", s.job.batch_size));
    if (d.train.size() == 0 || d.test.size() == 0)
        throw Error("dataset: the train and test sets must not be empty");
    if (d.train.shape() != base.input)
        throw Error(fmt::format("job.model: {} was built for input {}, but the dataset has {}", base.name,
                                model::shape_string(base.input), model::shape_string(d.train.shape())));
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
void Trainer::Impl::place(model::Net& n) const
{
    n->to(device);
    n->set_channels_last(device.is_cpu());
}

void Trainer::Impl::make_optimizer()
{
    opt = make_optimizer(net, lr);
}

std::unique_ptr<torch::optim::Optimizer> Trainer::Impl::make_optimizer(model::Net& n, double rate) const
{
    return train::make_optimizer(s.job, n->parameters(), rate);
}

void Trainer::Impl::set_lr(double value)
{
    lr = value;
    set_learning_rate(*opt, value);
}

std::optional<double> Trainer::Impl::evaluate(const std::stop_token& stop)
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
        if (stop.stop_requested()) {
            net->train();
            return std::nullopt;
        }
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

torch::Tensor Trainer::Impl::loss_for(const torch::Tensor& out, const torch::Tensor& x,
                                      const torch::Tensor& y)
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

Trainer::Impl::EpochEnd Trainer::Impl::train_epoch(const std::stop_token& stop)
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
        obs.on_progress(
            {epochs_started, b + 1, batches, sched.elapsed(), sched.time_left(), sched.time_budget()});
    }
    // Tested first: a cancel during the test ends the epoch as one cut short (no record, not counted).
    const auto tested = evaluate(stop);
    if (!tested)
        return EpochEnd::Cancelled;
    ++epochs_completed;
    ++work.epochs;
    if (measuring)
        grad_sq_mean = grad_stats.finish();
    EpochMetrics m = measure(lr_used, *tested);
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
EpochMetrics Trainer::Impl::measure(double lr_used, double test_acc)
{
    EpochMetrics m;
    m.epoch = epochs_completed;
    m.test_acc = test_acc; // tested first: the evaluation itself costs (virtual) time
    m.time = sched.elapsed();
    m.time_left = sched.time_left();
    m.lr = lr_used;
    m.parameters = net->parameter_count();
    m.steps = steps;
    return m;
}

RunResult Trainer::Impl::run(const std::stop_token& stop)
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
    // The model as it ends, tested; a cancelled run does not wait for a test the weights changed
    // since (evaluate() stops at once): its final record says so and keeps the last test's accuracy.
    const auto tested = evaluate(stop);
    if (!tested)
        result.cancelled = true; // also a run whose budget ended as the stop came: it has no result
    EpochMetrics final = measure(lr, tested ? *tested : last_tested_accuracy());
    final.final = true;
    final.tested = tested.has_value();
    obs.on_epoch(final);

    result.final_test_acc = final.test_acc;
    result.epochs = epochs_completed;
    result.steps = steps;
    result.actions = chosen;
    result.final_model = net->summary();
    obs.on_finished(result);
    return result;
}

bool Trainer::Impl::decision_pending() const
{
    return adapting && decisions < s.trainer.max_decisions;
}

// The loop of run() up to its next consultation: the same checks in the same order.
Trainer::Pause Trainer::Impl::run_to_decision(const std::stop_token& stop)
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
Trainer::Pause Trainer::Impl::decide(int action, const std::stop_token& stop)
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

Trainer::Trainer(TrainerSettings settings, model::ModelSpec base, const data::DatasetSplit& data,
                 Scheduler& scheduler, Clock& clock, agent::Agent& agent, TrainObserver* observer)
    : impl_(std::make_unique<Impl>(std::move(settings), std::move(base), data, scheduler, clock, agent, observer))
{
}

Trainer::~Trainer() = default;

void Trainer::resume_from(const std::filesystem::path& checkpoint) { impl_->resume(checkpoint); }

Trainer::Pause Trainer::run_to_decision(const std::stop_token& stop) { return impl_->run_to_decision(stop); }

Trainer::Pause Trainer::decide(int action, const std::stop_token& stop) { return impl_->decide(action, stop); }

agent::DecisionFeatures Trainer::decision_features() const
{
    if (!impl_->decision_pending())
        throw Error("trainer: decision_features() with no decision pending");
    return impl_->decision_features();
}

Trainer::Work Trainer::work() const { return impl_->work; }

RunResult Trainer::run(const std::stop_token& stop) { return impl_->run(stop); }

const model::ModelSpec& Trainer::model_spec() const { return impl_->net->spec(); }

} // namespace rlda::core::train

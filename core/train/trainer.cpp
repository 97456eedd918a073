// Algorithm 1: epochs under the scheduler, adaptation after "up", undo + distillation after "down",
// and the warm-start checkpoint every simulation branch starts from.
#include "core/train/trainer.h"

#include "core/data/dataset.h"
#include "core/data/sampler.h"
#include "core/model/net.h"
#include "core/util/atomic_file.h"
#include "core/util/error.h"

#include <torch/cuda.h>
#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>
#include <torch/serialize.h>
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <fmt/format.h>

namespace rlda::core::train {
namespace F = torch::nn::functional;

namespace {

torch::Device parse_device(const std::string& name, TrainObserver& obs)
{
    if (name == "cpu")
        return torch::kCPU;
    if (name.starts_with("cuda")) {
        if (!torch::cuda::is_available()) {
            obs.on_message(fmt::format("device {} requested, but this LibTorch build has no usable "
                                       "CUDA device; training on the CPU",
                                       name));
            return torch::kCPU;
        }
        return torch::Device(name);
    }
    throw Error(fmt::format("job.device: unknown device \"{}\" (cpu, cuda or cuda:N)", name));
}

torch::Tensor ints(const std::vector<int>& v)
{
    std::vector<std::int64_t> w(v.begin(), v.end());
    return torch::tensor(w, torch::kLong);
}

std::vector<int> to_ints(const torch::Tensor& t)
{
    std::vector<int> v;
    auto c = t.contiguous();
    for (std::int64_t i = 0; i < c.numel(); ++i)
        v.push_back(static_cast<int>(c[i].item<std::int64_t>()));
    return v;
}

constexpr int kHistoryColumns = 10;

std::vector<double> history_row(const EpochMetrics& m)
{
    return {double(m.epoch), m.time,  m.time_left, m.train_loss,          m.train_acc,
            m.test_acc,      m.lr,    double(m.parameters), double(m.steps), m.final ? 1.0 : 0.0};
}

EpochMetrics history_metrics(const torch::Tensor& row)
{
    auto r = [&](int i) { return row[i].item<double>(); };
    EpochMetrics m;
    m.epoch = static_cast<int>(r(0));
    m.time = r(1);
    m.time_left = r(2);
    m.train_loss = r(3);
    m.train_acc = r(4);
    m.test_acc = r(5);
    m.lr = r(6);
    m.parameters = static_cast<std::int64_t>(r(7));
    m.steps = static_cast<std::int64_t>(r(8));
    m.final = r(9) != 0.0;
    return m;
}

} // namespace

struct Trainer::Impl {
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

    std::vector<int> deepened; // applied and not undone: the current spec is base + deepened
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

    Impl(TrainerSettings settings, model::ModelSpec base_spec, const data::DatasetSplit& d, Scheduler& sc,
         Clock& c, agent::Agent& a, TrainObserver* o)
        : s(std::move(settings)), base(std::move(base_spec)), data(d), sched(sc), clock(c), agent(a),
          obs(o ? *o : null_observer), device(parse_device(s.job.device, obs)),
          sampler(d.train.size(), s.job.batch_size, s.job.seed)
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
    }

    // On the device, and on the CPU in the layout its convolutions run fastest in.
    void place(model::Net& n) const
    {
        n->to(device);
        n->set_channels_last(device.is_cpu());
    }

    void make_optimizer()
    {
        if (s.job.optimizer == "sgd")
            opt = std::make_unique<torch::optim::SGD>(net->parameters(),
                                                      torch::optim::SGDOptions(lr).momentum(s.job.momentum));
        else
            opt = std::make_unique<torch::optim::Adam>(net->parameters(), torch::optim::AdamOptions(lr));
    }

    void set_lr(double value)
    {
        lr = value;
        for (auto& group : opt->param_groups())
            group.options().set_lr(value);
    }

    double evaluate()
    {
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
        return static_cast<double>(correct.item<std::int64_t>()) / static_cast<double>(n);
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

    void consult()
    {
        const model::ModelSummary before = net->summary();
        const agent::DecisionContext ctx{before, decisions, sched.time_left(), sched.time_budget()};
        const agent::Decision d = agent.decide(ctx);
        if (d.action < 0 || d.action >= ctx.num_actions())
            throw Error(fmt::format("agent {} chose action {}, outside 0..{}", agent.name(), d.action,
                                    ctx.num_actions() - 1));
        const bool deepens = d.action != ctx.num_actions() - 1;
        model::Net copy = s.trainer.check_preservation && deepens ? model::clone_net(net) : model::Net(nullptr);
        const model::DeepenResult r = net->deepen(d.action);
        if (!r.did_nothing)
            deepened.push_back(d.action);
        chosen.push_back(d.action);

        AdaptationEvent e;
        e.decision = ++decisions;
        e.time = sched.elapsed();
        e.time_left = sched.time_left();
        e.agent = agent.name();
        e.action = d.action;
        e.did_nothing = r.did_nothing;
        e.probabilities = d.probabilities;
        e.before = before;
        e.after = net->summary();
        if (copy)
            e.max_abs_diff = model::max_abs_output_diff(copy, net);
        lr = s.job.lr; // a fresh optimizer at the initial learning rate, as the original
        make_optimizer();
        obs.on_adaptation(e);
    }

    std::string undo_last_deepening()
    {
        if (deepened.empty())
            return "nothing to undo: the model has not been deepened";
        const std::int64_t larger = net->parameter_count();
        deepened.pop_back();
        model::ModelSpec smaller = base;
        for (int a : deepened)
            model::deepen_spec(smaller, a);
        model::Net student(smaller);
        place(student);
        model::copy_state(net, student); // every module of the smaller model is in the larger one
        teacher = net;
        teacher->eval();
        net = student;
        net->train();
        distill_weight = s.trainer.distill_weight;
        lr = s.job.lr;
        make_optimizer();
        return fmt::format("restored the architecture before the last deepening ({} -> {} parameters); "
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
            rec.effect = undo_last_deepening();
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
            opt->step();
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

    void save_checkpoint(const std::filesystem::path& file)
    {
        torch::serialize::OutputArchive a;
        torch::serialize::OutputArchive model_archive, opt_archive;
        net->save(model_archive);
        opt->save(opt_archive);
        a.write("model", model_archive);
        a.write("optimizer", opt_archive);
        a.write("meta/model_name", c10::IValue(base.name));
        a.write("meta/input", torch::tensor(base.input, torch::kLong));
        a.write("meta/classes", torch::tensor(base.classes, torch::kLong));
        a.write("meta/deepened", ints(deepened));
        a.write("meta/chosen", ints(chosen));
        const ClockState cs = clock.state();
        a.write("meta/clock", torch::tensor({cs.seconds}, torch::kFloat64));
        a.write("meta/clock_counts", torch::tensor({static_cast<std::int64_t>(cs.steps),
                                                    static_cast<std::int64_t>(cs.evaluations)},
                                                   torch::kLong));
        a.write("meta/counters",
                torch::tensor({static_cast<std::int64_t>(sched.reported()), std::int64_t{epochs_started},
                               std::int64_t{epochs_completed}, steps, std::int64_t{adapting ? 1 : 0},
                               std::int64_t{decisions}},
                              torch::kLong));
        a.write("meta/lr", torch::tensor({lr}, torch::kFloat64));
        auto hist = torch::zeros({static_cast<std::int64_t>(history.size()), kHistoryColumns}, torch::kFloat64);
        for (std::size_t i = 0; i < history.size(); ++i) {
            const auto row = history_row(history[i]);
            hist[static_cast<std::int64_t>(i)] = torch::tensor(row, torch::kFloat64);
        }
        a.write("meta/history", hist);
        replace_atomically(file, [&](const std::filesystem::path& tmp) { a.save_to(tmp.string()); });
    }

    void resume(const std::filesystem::path& file)
    {
        torch::serialize::InputArchive a;
        try {
            a.load_from(file.string());
        } catch (const c10::Error& e) {
            throw Error(fmt::format("{}: not a readable checkpoint", file.string()));
        }
        c10::IValue name;
        torch::Tensor input, classes, t;
        try {
            a.read("meta/model_name", name);
            a.read("meta/input", input);
            a.read("meta/classes", classes);
        } catch (const c10::Error&) {
            throw Error(fmt::format("{}: not a warm-start checkpoint of rlda", file.string()));
        }
        std::vector<std::int64_t> in_shape(input.data_ptr<std::int64_t>(),
                                           input.data_ptr<std::int64_t>() + input.numel());
        if (name.toStringRef() != base.name || in_shape != base.input ||
            classes.item<std::int64_t>() != base.classes)
            throw Error(fmt::format("{}: the checkpoint is of {} ({}, {} classes), this job trains {} "
                                    "({}, {} classes)",
                                    file.string(), name.toStringRef(), model::shape_string(in_shape),
                                    classes.item<std::int64_t>(), base.name, model::shape_string(base.input),
                                    base.classes));
        a.read("meta/deepened", t);
        deepened = to_ints(t);
        a.read("meta/chosen", t);
        chosen = to_ints(t);
        model::ModelSpec spec = base;
        for (int action : deepened)
            model::deepen_spec(spec, action);
        net = model::Net(spec);
        place(net);
        torch::serialize::InputArchive model_archive, opt_archive;
        a.read("model", model_archive);
        net->load(model_archive);
        net->train();

        torch::Tensor clock_s, clock_counts, counters, lr_t, hist;
        a.read("meta/clock", clock_s);
        a.read("meta/clock_counts", clock_counts);
        a.read("meta/counters", counters);
        a.read("meta/lr", lr_t);
        a.read("meta/history", hist);
        clock.restore({clock_s[0].item<double>(), clock_counts[0].item<std::int64_t>(),
                       clock_counts[1].item<std::int64_t>()});
        sched.restore(static_cast<std::size_t>(counters[0].item<std::int64_t>()));
        epochs_started = static_cast<int>(counters[1].item<std::int64_t>());
        epochs_completed = static_cast<int>(counters[2].item<std::int64_t>());
        steps = counters[3].item<std::int64_t>();
        adapting = counters[4].item<std::int64_t>() != 0;
        decisions = static_cast<int>(counters[5].item<std::int64_t>());
        lr = lr_t[0].item<double>();
        make_optimizer();
        a.read("optimizer", opt_archive);
        opt->load(opt_archive);
        set_lr(lr);
        checkpoint_saved = true; // a branch never overwrites the checkpoint it started from
        history.clear();
        for (std::int64_t i = 0; i < hist.size(0); ++i) {
            history.push_back(history_metrics(hist[i]));
            obs.on_epoch(history.back());
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

RunResult Trainer::run(std::stop_token stop) { return impl_->run(stop); }

const model::ModelSpec& Trainer::model_spec() const { return impl_->net->spec(); }

void Trainer::save_model(const std::filesystem::path& file) const
{
    torch::serialize::OutputArchive a;
    impl_->net->save(a);
    replace_atomically(file, [&](const std::filesystem::path& tmp) { a.save_to(tmp.string()); });
}

} // namespace rlda::core::train

// A replicated table's rows trained fused: the R seeds of each sequence as one FusedNet (HFTA-style),
// depth first over the decisions as TreeBuilder does for one seed. What the trainer does between
// decisions (train/trainer.cpp) is done here for R replicas at once: the same checks at the same
// points, a fresh optimizer at job.lr after each decision, the decay after each epoch, and the
// virtual clock advanced once per step and per epoch's evaluation (R replicas take one step each).
#include "core/sim/table_training.h"
#include "core/table/sequences.h"

#include "core/config/operations.h"
#include "core/data/sampler.h"
#include "core/job/scheduler.h"
#include "core/net/fused.h"
#include "core/net/net.h"
#include "core/train/checkpoint.h"
#include "core/train/optimizer.h"
#include "core/train/setup.h"
#include "core/train/torch_device.h"
#include "core/util/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <optional>

namespace rlda::core::sim::detail {
namespace {

namespace fs = std::filesystem;

// The run of every replica at a point of the tree: the models (unfused), and the counters that the R
// runs share, since they take the same steps on the same clock.
struct Point {
    std::vector<model::Net> nets;
    train::ClockState clock;
    std::size_t reported = 0;
    int epochs_started = 0;
    std::vector<int> chosen;   // the actions taken so far, the warm start's included
    int decisions = 0;         // since the "up"
    std::vector<double> times; // the time left at each decision of this branch
};

// Where a stretch of training stopped.
struct Stop {
    bool decision = false;  // at a pending decision; else the budget is spent
    bool cancelled = false; // `stop` was requested
    std::vector<double> accuracy; // each replica's final test accuracy, when the budget is spent
};

class FusedTree {
public:
    FusedTree(const std::vector<FusedSeed>& seeds, int part, int parts, BuildProgress& p,
              const std::function<void()>& report, const std::stop_token& stop)
        : seeds_(seeds), first_(*seeds.front().job), c_(first_.c), part_(part), parts_(parts), p_(p), stop_(stop),
          device_(train::resolve_device(c_.job.device)), actions_(config::trainer_actions(c_.trainer, first_.spec)),
          clock_(train::make_clock(c_.scheduler)),
          sched_(c_.scheduler.budget, train::allocation_events(c_.scheduler), c_.scheduler.start_time, *clock_)
    {
        if (seeds.size() < 2)
            throw Error("fused replicates: fewer than two seeds");
        for (const auto& s : seeds) {
            const auto& d = s.job->data;
            if (d.train.size() != first_.data.train.size() || d.test.size() != first_.data.test.size())
                throw Error(fmt::format("sweep.fused: the seeds' datasets differ in size ({} and {} training "
                                        "samples); build them separately (sweep.fused = \"off\")",
                                        first_.data.train.size(), d.train.size()));
            train_.push_back(d.train.to(device_));
            test_.push_back(d.test.to(device_));
            samplers_.emplace_back(d.train.size(), c_.job.batch_size, s.job->c.job.seed, /*drop_last=*/false, device_);
            sinks_.emplace_back(std::make_unique<RowSink>(*s.job, s.file, *s.table, p, report));
        }
        root_ = warm_starts();
    }

    void build()
    {
        if (missing({}))
            node({}, root_);
    }

private:
    // Every seed's warm start, checked to stop at the same point (the same steps on the same clock).
    Point warm_starts()
    {
        Point at;
        std::optional<train::CheckpointMeta> first;
        for (const auto& s : seeds_) {
            train::CheckpointReader reader(s.checkpoint);
            const train::CheckpointMeta& m = reader.meta();
            if (m.model_name != first_.spec.name || m.input != first_.spec.input)
                throw Error(fmt::format("{}: the checkpoint is of {}, this job trains {}", s.checkpoint.string(),
                                        m.model_name, first_.spec.name));
            if (first && (m.clock.steps != first->clock.steps || m.clock.evaluations != first->clock.evaluations ||
                          m.scheduler_reported != first->scheduler_reported ||
                          m.epochs_started != first->epochs_started || m.decisions != first->decisions ||
                          m.chosen != first->chosen || m.grown != first->grown))
                throw Error(fmt::format("{}: this seed's warm start stopped elsewhere than {}'s; fused replicates "
                                        "train in step, so build them separately (sweep.fused = \"off\")",
                                        s.checkpoint.string(), seeds_.front().checkpoint.string()));
            if (!m.adapting || m.decisions >= c_.trainer.max_decisions)
                throw Error(fmt::format("{}: not a warm start at a pending decision", s.checkpoint.string()));
            model::ModelSpec spec = first_.spec;
            for (const int a : m.grown)
                model::apply_action(spec, actions_, a);
            model::Net net(spec);
            net->to(device_);
            reader.load_model(*net);
            net->train();
            at.nets.push_back(net);
            if (!first)
                first = m;
        }
        at.clock = first->clock;
        at.reported = static_cast<std::size_t>(first->scheduler_reported);
        at.epochs_started = first->epochs_started;
        at.chosen = first->chosen;
        at.decisions = first->decisions;
        return at;
    }

    // The codes of the sequences under `prefix`: [first, first + count).
    std::pair<std::int64_t, std::int64_t> subtree(const std::vector<int>& prefix) const
    {
        std::int64_t first = sequence_code(prefix, first_.num_actions), count = 1;
        for (std::size_t i = prefix.size(); i < static_cast<std::size_t>(first_.decisions); ++i) {
            first *= first_.num_actions;
            count *= first_.num_actions;
        }
        return {first, count};
    }

    bool lacks(std::size_t r, std::int64_t code) const
    {
        return !seeds_[r].table->find(sequence_of(code, first_.decisions, first_.num_actions));
    }

    // Whether some seed lacks a row of the part under `prefix`.
    bool missing(const std::vector<int>& prefix) const
    {
        const auto [first, count] = subtree(prefix);
        for (std::int64_t code = first; code < first + count; ++code)
            if (in_part(code, part_, parts_, first_.decisions, first_.num_actions))
                for (std::size_t r = 0; r < seeds_.size(); ++r)
                    if (lacks(r, code))
                        return true;
        return false;
    }

    // At a pending decision after `prefix`: every action tried from `here`.
    void node(const std::vector<int>& prefix, const Point& here)
    {
        for (int a = 0; a < first_.num_actions && !stop_.stop_requested(); ++a) {
            std::vector<int> seq = prefix;
            seq.push_back(a);
            if (!missing(seq))
                continue;
            Point next = decide(here, a);
            const Stop end = train_on(next);
            if (end.cancelled)
                return;
            if (end.decision && seq.size() < static_cast<std::size_t>(first_.decisions))
                node(seq, next);
            else
                leaves(seq, next, end.accuracy);
        }
    }

    // The trainer's consultation with `action` chosen, for every replica: the growth, then the
    // time left recorded. The clock and scheduler are put back to `here` first.
    Point decide(const Point& here, int action)
    {
        clock_->restore(here.clock);
        sched_.restore(here.reported);
        Point next = here;
        next.nets.clear();
        for (std::size_t r = 0; r < seeds_.size(); ++r) {
            model::Net net = model::clone_net(here.nets[r]);
            // The widening's copies are drawn as each seed's trainer draws them.
            net->apply(actions_, action, c_.trainer.widen_noise,
                       seeds_[r].job->c.job.seed * 1000003u + here.chosen.size());
            next.nets.push_back(net);
        }
        next.chosen.push_back(action);
        ++next.decisions;
        next.times.push_back(sched_.time_left());
        return next;
    }

    // From a decision just taken: an epoch, then on to the next pending decision or the budget's
    // end, as Trainer::decide does. `at` is moved along.
    Stop train_on(Point& at)
    {
        model::FusedNet fused(at.nets);
        auto opt = train::make_optimizer(c_.job, fused->parameters(), c_.job.lr);
        double lr = c_.job.lr;
        Stop end;
        bool trained = false;
        while (true) {
            if (trained) { // the checks at the top of the trainer's loop
                if (stop_.stop_requested()) {
                    end.cancelled = true;
                    break;
                }
                if (sched_.expired())
                    break;
                if (at.decisions < c_.trainer.max_decisions) {
                    end.decision = true;
                    break;
                }
            }
            trained = true;
            const auto epoch = train_epoch(fused, *opt, at);
            if (epoch == Epoch::Cancelled) {
                end.cancelled = true;
                break;
            }
            if (epoch == Epoch::Expired)
                break;
            lr *= c_.job.lr_decay;
            train::set_learning_rate(*opt, lr);
        }
        if (!end.decision && !end.cancelled)
            end.accuracy = evaluate(fused);
        fused->unfuse_into(at.nets);
        at.clock = clock_->state();
        at.reported = sched_.reported();
        return end;
    }

    enum class Epoch { Completed, Expired, Cancelled };

    Epoch train_epoch(model::FusedNet& fused, torch::optim::Optimizer& opt, Point& at)
    {
        const auto R = seeds_.size();
        for (auto& s : samplers_)
            s.reshuffle(at.epochs_started);
        ++at.epochs_started;
        fused->train();
        const std::int64_t batches = samplers_.front().batches();
        std::vector<torch::Tensor> xs(R), ys(R);
        for (std::int64_t b = 0; b < batches; ++b) {
            if (stop_.stop_requested())
                return Epoch::Cancelled;
            if (sched_.expired())
                return Epoch::Expired;
            if (sched_.allocation() != train::Allocation::Same) // tree_buildable: the one event is past
                throw Error("scheduler.events: fused replicates train after the one \"up\" event only");
            for (std::size_t r = 0; r < R; ++r) {
                auto batch = data::take(train_[r], samplers_[r].indices(b));
                xs[r] = std::move(batch.images);
                ys[r] = std::move(batch.labels);
            }
            opt.zero_grad();
            const auto out = fused->forward(torch::stack(xs));
            model::fused_cross_entropy(out, torch::stack(ys)).backward();
            opt.step();
            clock_->on_step();
            p_.steps += static_cast<std::int64_t>(R);
        }
        clock_->on_evaluation(); // the trainer's end-of-epoch test evaluation costs (virtual) time
        p_.epochs += static_cast<std::int64_t>(R);
        p_.evaluations += static_cast<std::int64_t>(R);
        return Epoch::Completed;
    }

    // Each replica's accuracy on its own test set.
    std::vector<double> evaluate(model::FusedNet& fused)
    {
        torch::NoGradGuard no_grad;
        fused->eval();
        const auto R = seeds_.size();
        const std::int64_t n = test_.front().size();
        auto correct = torch::zeros({static_cast<std::int64_t>(R)}, torch::TensorOptions().dtype(torch::kLong).device(device_));
        constexpr std::int64_t kEvalBatch = 1000; // as the trainer's
        std::vector<torch::Tensor> xs(R), ys(R);
        for (std::int64_t i = 0; i < n; i += kEvalBatch) {
            const auto len = std::min(kEvalBatch, n - i);
            for (std::size_t r = 0; r < R; ++r) {
                xs[r] = test_[r].images.narrow(0, i, len);
                ys[r] = test_[r].labels.narrow(0, i, len);
            }
            correct += fused->forward(torch::stack(xs)).argmax(2).eq(torch::stack(ys)).sum(1);
        }
        fused->train();
        clock_->on_evaluation();
        p_.evaluations += static_cast<std::int64_t>(R);
        const auto counts = correct.to(torch::kCPU);
        std::vector<double> out;
        for (std::size_t r = 0; r < R; ++r)
            out.push_back(static_cast<double>(counts[static_cast<std::int64_t>(r)].item<std::int64_t>()) /
                          static_cast<double>(n));
        return out;
    }

    // The budget is spent after `prefix`: every sequence under it ends alike, at each seed.
    void leaves(const std::vector<int>& prefix, const Point& at, const std::vector<double>& accuracy)
    {
        std::vector<double> times = at.times;
        times.resize(static_cast<std::size_t>(first_.decisions), 0.0); // decisions the budget never reached
        const auto [first, count] = subtree(prefix);
        for (std::int64_t code = first; code < first + count; ++code) {
            if (!in_part(code, part_, parts_, first_.decisions, first_.num_actions))
                continue;
            for (std::size_t r = 0; r < seeds_.size(); ++r) {
                if (!lacks(r, code))
                    continue;
                TableRow row;
                row.actions = sequence_of(code, first_.decisions, first_.num_actions);
                row.time_left = times;
                row.total_time = c_.scheduler.budget;
                row.accuracy = accuracy[r];
                sinks_[r]->add(std::move(row));
            }
        }
    }

    const std::vector<FusedSeed>& seeds_;
    const Job& first_;
    const config::ExperimentConfig& c_;
    int part_, parts_;
    BuildProgress& p_;
    const std::stop_token& stop_;
    torch::Device device_;
    model::ActionSpace actions_;
    std::unique_ptr<train::Clock> clock_;
    train::Scheduler sched_;
    std::vector<data::Dataset> train_, test_;
    std::vector<data::BatchSampler> samplers_;
    std::vector<std::unique_ptr<RowSink>> sinks_;
    Point root_;
};

} // namespace

void train_missing_fused(const std::vector<FusedSeed>& seeds, int part, int parts, BuildProgress& p,
                         const std::function<void()>& report, const std::stop_token& stop)
{
    FusedTree(seeds, part, parts, p, report, stop).build();
}

} // namespace rlda::core::sim::detail

// Adaptation, Algorithm 1's answer to an allocation change: on "up" the agent is consulted before each
// of the next epochs and its action deepens or widens the model (Net2Net); on "down" the last growth is
// undone and the smaller model distils from the larger one. Also the decision features it is given.
#include "core/train/trainer_impl.h"

#include "core/util/error.h"

#include <fmt/format.h>

namespace rlda::core::train {

agent::DecisionFeatures Trainer::Impl::decision_features()
{
    ProbeContext c;
    c.history = history;
    c.grad_sq_mean = grad_sq_mean;
    c.lr = s.job.lr; // a decision starts a fresh optimizer at the initial rate
    c.time_left = sched.time_left();
    c.time_budget = sched.time_budget();
    return measure_features(*net, test, c);
}

void Trainer::Impl::consult()
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

std::string Trainer::Impl::undo_last_growth()
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

void Trainer::Impl::handle_allocation(Allocation change, const std::string& checkpoint_note)
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

} // namespace rlda::core::train

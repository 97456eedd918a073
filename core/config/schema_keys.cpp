// The experiment schema's one table: every key of an experiment file (its type, label, help,
// default binding, range and rule) in its section, the original tool's aliases, and hints for the
// settings of other tools. The types the table is made of and the checks it drives are schema.cpp.
#include "core/config/schema.h"

#include "core/config/value_limits.h"
#include "core/model/limits.h"
#include "core/model/zoo.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace rlda::core::config {
namespace {

Range at_least(double min) { return Range{min}; }
const Range non_negative{0.0};
const Range unit{0.0, 1.0};
const Range unit_open_closed{0.0, 1.0, true, false}; // (0, 1]
const Range unit_closed_open{0.0, 1.0, false, true}; // [0, 1)
const Range positive_squarable{0.0, kMaxSquarable, true, false}; // (0, 1.8e19]: float32 (limits.h)
const Range non_negative_squarable{0.0, kMaxSquarable};
const Range seconds{0.0, kMaxBudget}; // a cost or a wait within the longest budget
const Range temperature{kMinTemperature, kMaxSquarable};

// [D-]HH:MM:SS, as sbatch --time takes it (the one form written without ambiguity).
bool is_time_limit(std::string_view t)
{
    const auto digits = [](std::string_view s, std::size_t min, std::size_t max) {
        return s.size() >= min && s.size() <= max &&
               std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; });
    };
    if (const auto dash = t.find('-'); dash != std::string_view::npos) {
        if (!digits(t.substr(0, dash), 1, 3))
            return false;
        t.remove_prefix(dash + 1);
    }
    if (t.size() != 8 || t[2] != ':' || t[5] != ':')
        return false;
    return digits(t.substr(0, 2), 2, 2) && digits(t.substr(3, 2), 2, 2) && digits(t.substr(6, 2), 2, 2) &&
           t.substr(3, 2) < "60" && t.substr(6, 2) < "60";
}
Schema make_schema()
{
    Schema s;
    s.sections = {{"job", "What is trained and how."},
                  {"dataset", "Where the samples come from."},
                  {"scheduler", "The time budget and when the allocation changes (seconds)."},
                  {"trainer", R"(Adaptation after "up", distillation after "down".)"},
                  {"agent", "Who decides which block to deepen."},
                  {"policy", "The policy network and its REINFORCE learner."},
                  {"simulation", "The simulation table a learning run learns from."},
                  {"runner", "Repetitions."},
                  {"sweep", "How `rlda simulate` spreads the rows over processes or cluster jobs."}};
    using C = ExperimentConfig;
    auto& k = s.keys;
    k.push_back({.name = "name",
                 .type = Type::Text,
                 .label = "Name",
                 .help = "Names the run and its folder",
                 .value = top<&C::name>(),
                 .required = true,
                 .valid = is_run_name,
                 .rule = "{} cannot name a folder inside runs/ (no '/', not \".\" or \"..\", no control "
                         "characters, at most 200 bytes)"});

    // [job]
    k.push_back({.name = "job.model", .type = Type::Path, .label = "Model",
                 .help = "A zoo model, or a TOML model file (relative to the config file)",
                 .value = member<&C::job, &JobConfig::model>(), .choices = model::zoo_names(), .required = true});
    k.push_back({.name = "job.head", .type = Type::Choice, .label = "Output head",
                 .help = "Zoo models: relu = the original's ReLU on the logits, logits = plain logits; "
                         "a model file writes its own last block",
                 .value = by_name(
                     member<&C::job, &JobConfig::head>(), [](model::OutputHead h) { return model::to_string(h); },
                     [](std::string_view t) { return model::parse_output_head(t); }),
                 .choices = model::output_head_names()});
    k.push_back({.name = "job.optimizer", .type = Type::Choice, .label = "Optimizer",
                 .help = "Adam, or SGD with momentum", .value = named<&C::job, &JobConfig::optimizer>(),
                 .choices = names<Optimizer>()});
    k.push_back({.name = "job.lr", .type = Type::Number, .label = "Learning rate",
                 .help = "Reset to this after every adaptation", .value = member<&C::job, &JobConfig::lr>(),
                 .range = positive_squarable});
    k.push_back({.name = "job.lr_decay", .type = Type::Number, .label = "LR decay",
                 .help = "Multiplied into the learning rate after every epoch",
                 .value = member<&C::job, &JobConfig::lr_decay>(), .range = unit_open_closed});
    k.push_back({.name = "job.momentum", .type = Type::Number, .label = "Momentum", .help = "SGD only",
                 .value = member<&C::job, &JobConfig::momentum>(), .range = unit_closed_open});
    k.push_back({.name = "job.batch_size", .type = Type::Integer, .label = "Batch size",
                 .help = "Samples per training step", .value = member<&C::job, &JobConfig::batch_size>(),
                 .range = at_least(1)});
    k.push_back({.name = "job.seed", .type = Type::Integer, .label = "Seed",
                 .help = "Weights, data order and generated data", .value = member<&C::job, &JobConfig::seed>()});
    k.push_back({.name = "job.device", .type = Type::Device, .label = "Device",
                 .help = "Where the job trains", .value = member<&C::job, &JobConfig::device>(),
                 .choices = {"cpu", "cuda", "cuda:0", "cuda:1"}, .valid = is_device_name,
                 .rule = R"(unknown device {} (allowed: "cpu", "cuda", "cuda:N"))"});

    // [dataset]
    k.push_back({.name = "dataset.kind", .type = Type::Choice, .label = "Kind", .help = "Where the samples come from",
                 .value = named<&C::dataset, &DatasetConfig::kind>(), .choices = names<DatasetKind>()});
    k.push_back({.name = "dataset.path", .type = Type::Path, .label = "Path",
                 .help = "Data folder; empty = the kind's default location",
                 .value = member<&C::dataset, &DatasetConfig::path>()});
    k.push_back({.name = "dataset.normalization", .type = Type::Choice, .label = "Normalization",
                 .help = "half: mean 0.5, std 0.5 per channel; dataset: its own statistics; none",
                 .value = named<&C::dataset, &DatasetConfig::normalization>(), .choices = names<Normalization>()});
    k.push_back({.name = "dataset.train_subset", .type = Type::Integer, .label = "Train subset",
                 .help = "Training samples used; 0 = all", .value = member<&C::dataset, &DatasetConfig::train_subset>(),
                 .range = non_negative});
    k.push_back({.name = "dataset.test_subset", .type = Type::Integer, .label = "Test subset",
                 .help = "Test samples used; 0 = all", .value = member<&C::dataset, &DatasetConfig::test_subset>(),
                 .range = non_negative});
    k.push_back({.name = "dataset.random_subset", .type = Type::Flag, .label = "Random subset (seeded)",
                 .help = "A seeded random subset instead of the first N samples",
                 .value = member<&C::dataset, &DatasetConfig::random_subset>()});
    k.push_back({.name = "dataset.test_unused_train",
                 .type = Type::Flag,
                 .label = "Test on unused training samples",
                 .help = "Test also on the training samples train_subset leaves out: a larger held-out pool",
                 .value = member<&C::dataset, &DatasetConfig::test_unused_train>()});
    k.push_back({.name = "dataset.shape", .type = Type::Integers, .label = "Shape",
                 .help = "Synthetic: [channels, height, width]", .value = member<&C::dataset, &DatasetConfig::shape>(),
                 .range = at_least(1), .size = 3,
                 .rule = "expected 3 positive integers [channels, height, width], got [{}]"});
    // At most a model's classes (core/model/limits.h).
    k.push_back({.name = "dataset.classes", .type = Type::Integer, .label = "Classes",
                 .help = "Synthetic: number of classes", .value = member<&C::dataset, &DatasetConfig::classes>(),
                 .range = Range{2, static_cast<double>(model::kMaxClasses)}});
    k.push_back({.name = "dataset.train_size", .type = Type::Integer, .label = "Train size",
                 .help = "Synthetic: training samples", .value = member<&C::dataset, &DatasetConfig::train_size>(),
                 .range = at_least(1)});
    k.push_back({.name = "dataset.test_size", .type = Type::Integer, .label = "Test size",
                 .help = "Synthetic: test samples", .value = member<&C::dataset, &DatasetConfig::test_size>(),
                 .range = at_least(1)});
    k.push_back({.name = "dataset.noise", .type = Type::Number, .label = "Noise",
                 .help = "Synthetic: noise level, higher is harder", .value = member<&C::dataset, &DatasetConfig::noise>(),
                 .range = non_negative_squarable});

    // [scheduler]; the start time and the events are checked against the budget in validate.cpp.
    k.push_back({.name = "scheduler.budget", .type = Type::Number, .label = "Budget (s)",
                 .help = "Seconds the job may run", .value = member<&C::scheduler, &SchedulerConfig::budget>(),
                 .range = Range{0.0, kMaxBudget, true, false}});
    k.push_back({.name = "scheduler.start_time", .type = Type::Number, .label = "Start time (s)",
                 .help = "Seconds of the budget already used when training starts, in [0, budget)",
                 .value = member<&C::scheduler, &SchedulerConfig::start_time>()});
    k.push_back({.name = "scheduler.events", .type = Type::Events, .label = "Allocation events",
                 .help = R"(Allocation changes, each { time = s, change = "up" | "down" } in [0, budget))",
                 .value = member<&C::scheduler, &SchedulerConfig::events>()});
    k.push_back({.name = "scheduler.clock", .type = Type::Choice, .label = "Clock",
                 .help = "virtual: reproducible, a fixed cost per step; wall: real seconds",
                 .value = named<&C::scheduler, &SchedulerConfig::clock>(), .choices = names<ClockKind>()});
    k.push_back(
        {.name = "scheduler.step_cost",
         .type = Type::Number,
         .label = "Step cost (s)",
         .help = "Virtual clock: seconds charged per training step, > 0; the budget must be reached within "
                 "1e9 steps",
         .value = member<&C::scheduler, &SchedulerConfig::step_cost>(),
         .range = {-kUnbounded, kMaxBudget}});
    k.push_back({.name = "scheduler.eval_cost", .type = Type::Number, .label = "Eval cost (s)",
                 .help = "Virtual clock: seconds charged per test evaluation",
                 .value = member<&C::scheduler, &SchedulerConfig::eval_cost>(), .range = seconds});

    // [trainer]
    k.push_back({.name = "trainer.max_decisions", .type = Type::Integer, .label = "Max decisions",
                 .help = "Agent consultations after an \"up\"",
                 .value = member<&C::trainer, &TrainerConfig::max_decisions>(), .range = non_negative});
    k.push_back({.name = "trainer.distill_temperature", .type = Type::Number, .label = "Temperature",
                 .help = "Softmax temperature of the soft targets",
                 .value = member<&C::trainer, &TrainerConfig::distill_temperature>(), .range = temperature});
    k.push_back({.name = "trainer.distill_weight", .type = Type::Number, .label = "Weight",
                 .help = "Soft-target weight at the first epoch after \"down\"",
                 .value = member<&C::trainer, &TrainerConfig::distill_weight>(), .range = unit});
    k.push_back({.name = "trainer.distill_decay", .type = Type::Number, .label = "Decay",
                 .help = "Multiplied into the weight after every epoch",
                 .value = member<&C::trainer, &TrainerConfig::distill_decay>(), .range = unit});
    k.push_back({.name = "trainer.check_preservation", .type = Type::Flag, .label = "Check function preservation",
                 .help = "Measure max |delta| of the outputs at every deepening",
                 .value = member<&C::trainer, &TrainerConfig::check_preservation>()});
    k.push_back({.name = "trainer.operations", .type = Type::Texts, .label = "Operations",
                 .help = "What an action may do to a block: deepen it (Net2DeeperNet), widen it (Net2WiderNet), or both",
                 .value = member<&C::trainer, &TrainerConfig::operations>(), .choices = model::operation_names(),
                 .required = true});
    k.push_back({.name = "trainer.widen_factor", .type = Type::Number, .label = "Widening factor",
                 .help = "A widened layer's width is its width times this, rounded",
                 .value = member<&C::trainer, &TrainerConfig::widen_factor>(), .range = {1.0, 8.0, true, false}});
    k.push_back({.name = "trainer.widen_noise", .type = Type::Number, .label = "Widening noise",
                 .help = "How unevenly a copied unit's outgoing weights are shared among its copies, so that they "
                         "learn apart; the function is kept either way",
                 .value = member<&C::trainer, &TrainerConfig::widen_noise>(), .range = {0.0, 0.5, false, true}});
    k.push_back({.name = "trainer.warm_start_checkpoint", .type = Type::Flag, .label = "Warm-start checkpoint",
                 .help = "Save a checkpoint at the first allocation event",
                 .value = member<&C::trainer, &TrainerConfig::warm_start_checkpoint>()});

    // [agent]; a fixed sequence against the model and a policy's file are checked in validate.cpp.
    k.push_back({.name = "agent.kind", .type = Type::Choice, .label = "Kind",
                 .help = "fixed: a sequence; random; none: always Do Nothing; policy: a trained policy; "
                         "simulation: every sequence in turn; heuristics: gradient (GradMax), loss-drop (Firefly), "
                         "first, last, grow-while-improving (AutoGrow)",
                 .value = named<&C::agent, &AgentConfig::kind>(), .choices = names<AgentKind>()});
    k.push_back({.name = "agent.sequence", .type = Type::Integers, .label = "Sequence",
                 .help = "Fixed agent: actions in order; i deepens original block i, the block count is Do Nothing",
                 .value = member<&C::agent, &AgentConfig::sequence>(), .range = non_negative,
                 .rule = "must not be negative (0..n-1 deepen original block i, n = Do Nothing), got {}"});
    k.push_back({.name = "agent.policy", .type = Type::Path, .label = "Policy file",
                 .help = "Policy agent: the policy file (policy.pt) of a learning run",
                 .value = member<&C::agent, &AgentConfig::policy>()});
    k.push_back({.name = "agent.temperature", .type = Type::Number, .label = "Temperature",
                 .help = "Policy agent: softmax temperature", .value = member<&C::agent, &AgentConfig::temperature>(),
                 .range = temperature});
    k.push_back({.name = "agent.greedy", .type = Type::Flag, .label = "Greedy (argmax)",
                 .help = "Policy agent: argmax instead of sampling", .value = member<&C::agent, &AgentConfig::greedy>()});
    k.push_back({.name = "agent.seed", .type = Type::Integer, .label = "Seed",
                 .help = "Random agent, and a policy's sampling", .value = member<&C::agent, &AgentConfig::seed>()});
    k.push_back({.name = "agent.threshold", .type = Type::Number, .label = "Improvement threshold",
                 .help = "grow-while-improving: grow only while the last epoch raised the test accuracy by more "
                         "than this fraction",
                 .value = member<&C::agent, &AgentConfig::threshold>(), .range = unit});

    // [policy]
    k.push_back({.name = "policy.encoder", .type = Type::Choice, .label = "Encoder",
                 .help = "original: fixed embeddings of layer strings, one output per action index (the paper); "
                         "structural: each layer's numbers, one logit per block, any model; "
                         "state: structural plus each block's training state (tables with decision features)",
                 .value = named<&C::policy, &PolicyConfig::encoder>(), .choices = names<PolicyEncoder>()});
    k.push_back({.name = "policy.vocab", .type = Type::Text, .help = "Layer-string vocabulary",
                 .value = member<&C::policy, &PolicyConfig::vocab>(), .required = true});
    k.push_back({.name = "policy.embedding_size", .type = Type::Integer, .help = "Fixed layer embeddings",
                 .value = member<&C::policy, &PolicyConfig::embedding_size>(), .range = at_least(1)});
    k.push_back({.name = "policy.hidden_size", .type = Type::Integer, .help = "BiLSTM encoder, per direction",
                 .value = member<&C::policy, &PolicyConfig::hidden_size>(), .range = at_least(1)});
    k.push_back({.name = "policy.decider_lstm_size", .type = Type::Integer, .help = "The decider's LSTM",
                 .value = member<&C::policy, &PolicyConfig::decider_lstm_size>(), .range = at_least(1)});
    k.push_back({.name = "policy.decider_linear_size", .type = Type::Integer, .help = "The decider's linear layers",
                 .value = member<&C::policy, &PolicyConfig::decider_linear_size>(), .range = at_least(1)});
    k.push_back({.name = "policy.time_encoding_size", .type = Type::Integer,
                 .help = "Sines of the fraction of the budget left",
                 .value = member<&C::policy, &PolicyConfig::time_encoding_size>(), .range = non_negative});
    k.push_back({.name = "policy.max_actions", .type = Type::Integer, .help = "Decider outputs; 0 = from the model",
                 .value = member<&C::policy, &PolicyConfig::max_actions>(), .range = non_negative});
    k.push_back({.name = "policy.action_set_size", .type = Type::Integer,
                 .help = "Actions per decision; 0 = from the model",
                 .value = member<&C::policy, &PolicyConfig::action_set_size>(), .range = non_negative});
    k.push_back({.name = "policy.alpha", .type = Type::Number, .help = "Adam learning rate",
                 .value = member<&C::policy, &PolicyConfig::alpha>(), .range = positive_squarable});
    k.push_back({.name = "policy.learning_rate_decay", .type = Type::Number,
                 .help = "Multiplied in every decay_freq episodes",
                 .value = member<&C::policy, &PolicyConfig::learning_rate_decay>(), .range = unit_open_closed});
    k.push_back({.name = "policy.decay_freq", .type = Type::Integer, .help = "Episodes between decays",
                 .value = member<&C::policy, &PolicyConfig::decay_freq>(), .range = at_least(1)});

    // [simulation], [runner]
    k.push_back({.name = "simulation.table", .type = Type::Path, .help = "Simulation table CSV; empty = none",
                 .value = member<&C::simulation, &SimulationConfig::table>()});
    k.push_back({.name = "runner.total_episodes", .type = Type::Integer,
                 .help = "Training runs, or learning episodes against a table",
                 .value = member<&C::runner, &RunnerConfig::total_episodes>(), .range = at_least(1)});
    k.push_back({.name = "runner.save", .type = Type::Flag, .help = "Simulation runs: write the table as it grows",
                 .value = member<&C::runner, &RunnerConfig::save>()});

    // [sweep]
    k.push_back({.name = "sweep.backend", .type = Type::Choice,
                 .help = "local: worker processes here; slurm: cluster jobs",
                 .value = named<&C::sweep, &SweepConfig::backend>(), .choices = names<SweepBackend>()});
    k.push_back({.name = "sweep.workers", .type = Type::Integer, .help = "Local: worker processes; 0 = one per core",
                 .value = member<&C::sweep, &SweepConfig::workers>(), .range = non_negative});
    k.push_back({.name = "sweep.threads_per_task",
                 .type = Type::Integer,
                 .help = "LibTorch threads in each task; rows depend on it",
                 .value = member<&C::sweep, &SweepConfig::threads_per_task>(),
                 .range = Range{1, static_cast<double>(kMaxThreadsPerTask)}});
    k.push_back({.name = "sweep.max_retries",
                 .type = Type::Integer,
                 .help = "Reruns of a part whose process failed",
                 .value = member<&C::sweep, &SweepConfig::max_retries>(),
                 .range = Range{0, static_cast<double>(kMaxRetries)}});
    k.push_back({.name = "sweep.partition", .type = Type::Text, .help = "Slurm: partition; empty = the default",
                 .value = member<&C::sweep, &SweepConfig::partition>()});
    k.push_back({.name = "sweep.time_limit", .type = Type::Text, .help = "Slurm: time per task, [D-]HH:MM:SS",
                 .value = member<&C::sweep, &SweepConfig::time_limit>(), .valid = is_time_limit,
                 .rule = R"(expected [D-]HH:MM:SS (e.g. "01:30:00" or "2-00:00:00"), got {})"});
    k.push_back({.name = "sweep.cpus_per_task", .type = Type::Integer, .help = "Slurm: CPUs per task",
                 .value = member<&C::sweep, &SweepConfig::cpus_per_task>(), .range = at_least(1)});
    k.push_back({.name = "sweep.gres", .type = Type::Text,
                 .help = "Slurm: generic resources, e.g. \"gpu:1\"; empty = none",
                 .value = member<&C::sweep, &SweepConfig::gres>()});
    k.push_back({.name = "sweep.sbatch_args", .type = Type::Texts, .help = "Slurm: more sbatch options, as they are",
                 .value = member<&C::sweep, &SweepConfig::sbatch_args>()});
    k.push_back({.name = "sweep.seeds", .type = Type::Integers, .label = "Seeds",
                 .help = "rlda simulate: build the table at each of these seeds, one replicate each (its mean and "
                         "spread, how far it can be trusted); empty = job.seed alone",
                 .value = member<&C::sweep, &SweepConfig::seeds>(), .range = non_negative});
    k.push_back({.name = "sweep.fused", .type = Type::Choice, .label = "Fused replicates",
                 .help = "Replicated tables: train the seeds of a sequence as one fused model (on: always; off: "
                         "never; auto: on a GPU only, where it is faster); rows depend on it",
                 .value = named<&C::sweep, &SweepConfig::fused>(), .choices = names<FusedReplicates>()});
    k.push_back({.name = "sweep.race",
                 .type = Type::Flag,
                 .label = "Race",
                 .help =
                     "rlda simulate: after every sequence is built at the seeds, give new seeds only to the "
                     "sequences still in the 95 % confidence set for the best, until it has one member",
                 .value = member<&C::sweep, &SweepConfig::race>()});
    k.push_back({.name = "sweep.race_max_seeds",
                 .type = Type::Integer,
                 .label = "Race: most seeds",
                 .help = "A race stops when its sequences have this many seeds",
                 .value = member<&C::sweep, &SweepConfig::race_max_seeds>(),
                 .range = {2.0, static_cast<double>(kMaxReplicates)}});
    k.push_back(
        {.name = "sweep.race_budget_epochs",
         .type = Type::Number,
         .label = "Race: budget (epochs)",
         .help = "A race starts no round that would take its training past this many epochs; 0 = no budget",
         .value = member<&C::sweep, &SweepConfig::race_budget_epochs>(),
         .range = non_negative});
    k.push_back({.name = "sweep.poll_seconds", .type = Type::Number, .help = "Seconds between looks at the tasks",
                 .value = member<&C::sweep, &SweepConfig::poll_seconds>(), .range = {0.0, kMaxBudget, true, false}});

    // The original tool's spellings.
    auto& a = s.aliases;
    a.push_back({.name = "job.dataset", .key = "dataset.kind"});
    a.push_back({.name = "scheduler.running_time", .key = "scheduler.budget"});
    a.push_back({.name = "scheduler.gpu_changes", .key = "scheduler.events"});
    a.push_back({.name = "trainer.weights",
                 .note = "not used: the original tool's PyTorch warm-start weights cannot be loaded here"});
    a.push_back({.name = "trainer.runtimes",
                 .note = "not used: the original tool's runtimes of its warm-start run; time here comes from "
                         "[scheduler]"});
    a.push_back({.name = "agent.device", .key = "job.device"});
    a.push_back({.name = "agent.policyfile", .key = "agent.policy",
                 .note = "a .pth file is the original tool's PyTorch pickle, which the workbench cannot load; "
                         "use a policy saved by `rlda learn`",
                 .extension = ".pth"});
    a.push_back({.name = "agent.num_actions", .key = "trainer.max_decisions"});
    a.push_back({.name = "agent.save_file",
                 .note = "not used: the original tool's pickled results; results go to the run folder"});
    // The original kept the policy's settings in [agent].
    for (const Key* p : s.keys_of("policy"))
        a.push_back({.name = "agent." + p->short_name(), .key = p->name});
    a.push_back({.name = "simulation.datafile", .key = "simulation.table",
                 .note = "a .pkl file is the original tool's pickled table, which the workbench cannot read; "
                         "use its CSV form (as in data/paper/tables)",
                 .extension = ".pkl"});
    a.push_back({.name = "runner.seed", .key = "job.seed"});
    a.push_back({.name = "runner.folder", .key = "name"});
    a.push_back({.name = "runner.agent", .key = "agent.kind",
                 .values = {{"RandomAgent", "random"}, {"Agent", "policy"}, {"SimulationAgent", "simulation"}}});

    // Other tools' settings that are not keys here.
    s.hints.push_back({.word = "epochs", .key = "scheduler.budget", .value = "SECONDS",
                       .note = "a run lasts its time budget in seconds, not a number of epochs"});
    return s;
}

} // namespace

const Schema& experiment_schema()
{
    static const Schema schema = make_schema();
    return schema;
}

} // namespace rlda::core::config

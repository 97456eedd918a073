// Experiment files out: our schema, every value written and commented, read back bit for bit.
#include "core/config/experiment_io.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <string_view>
#include <vector>

namespace rlda::core::config {
namespace {

// TOML basic string: escapes for quotes, backslashes and control characters.
std::string quote(std::string_view s)
{
    std::string out = "\"";
    for (const char ch : s) {
        switch (ch) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
                out += fmt::format("\\u{:04X}", static_cast<unsigned>(static_cast<unsigned char>(ch)));
            else
                out += ch;
        }
    }
    return out + "\"";
}

// fmt's shortest form parses back to the same double; ".0" keeps it a TOML float.
std::string real(double v)
{
    std::string s = fmt::format("{}", v);
    if (s.find_first_of(".en") == std::string::npos)
        s += ".0";
    return s;
}

std::string boolean(bool v)
{
    return v ? "true" : "false";
}

template <class T> std::string integers(const std::vector<T>& v)
{
    return fmt::format("[{}]", fmt::join(v, ", "));
}

class Writer {
public:
    std::string out;

    void header(std::string_view name, std::string_view comment)
    {
        out += fmt::format("\n# {}\n[{}]\n", comment, name);
    }
    void line(std::string_view key, const std::string& value, std::string_view comment = {})
    {
        std::string text = fmt::format("{} = {}", key, value);
        if (!comment.empty())
            text = fmt::format("{:<40}# {}", text + " ", comment);
        out += text + "\n";
    }
};

void job(Writer& w, const JobConfig& j)
{
    w.header("job", "What is trained and how.");
    w.line("model", quote(j.model), "zoo name (ConvNet2, ...) or a TOML model file");
    w.line("head", quote(model::to_string(j.head)), "zoo models: \"relu\" (the original's) or \"logits\"");
    w.line("batch_size", std::to_string(j.batch_size), "samples per training step");
    w.line("optimizer", quote(j.optimizer), "\"adam\" or \"sgd\"");
    w.line("lr", real(j.lr), "learning rate, reset to this after every adaptation");
    w.line("lr_decay", real(j.lr_decay), "multiplied into lr after every epoch, in (0, 1]");
    w.line("momentum", real(j.momentum), "sgd only");
    w.line("device", quote(j.device), "\"cpu\", \"cuda\" or \"cuda:N\"");
    w.line("seed", std::to_string(j.seed), "weights, data order, synthetic data");
}

void dataset(Writer& w, const DatasetConfig& d)
{
    w.header("dataset", "Where the samples come from.");
    w.line("kind", quote(d.kind), "\"synthetic\", \"cifar10\", \"fashion-mnist\", \"mnist\"");
    w.line("path", quote(d.path), "data folder; \"\" = the kind's default location");
    w.line("normalization", quote(d.normalization), "\"half\" (mean 0.5, std 0.5), \"dataset\", \"none\"");
    w.line("train_subset", std::to_string(d.train_subset), "training samples used; 0 = all");
    w.line("test_subset", std::to_string(d.test_subset), "test samples used; 0 = all");
    w.line("random_subset", boolean(d.random_subset), "false: the first N samples");
    w.line("shape", integers(d.shape), "synthetic: [channels, height, width]");
    w.line("classes", std::to_string(d.classes), "synthetic: number of classes");
    w.line("train_size", std::to_string(d.train_size), "synthetic: training samples");
    w.line("test_size", std::to_string(d.test_size), "synthetic: test samples");
    w.line("noise", real(d.noise), "synthetic: noise level (higher is harder)");
}

void scheduler(Writer& w, const SchedulerConfig& s)
{
    w.header("scheduler", "The time budget and when the allocation changes (seconds).");
    w.line("budget", real(s.budget), "seconds the job may run");
    w.line("start_time", real(s.start_time), "seconds already used when training starts");
    if (s.events.empty()) {
        w.line("events", "[]", "allocation changes: { time = s, change = \"up\" | \"down\" }");
    } else {
        w.line("events", "[", "allocation changes: { time = s, change = \"up\" | \"down\" }");
        for (const auto& e : s.events)
            w.out +=
                fmt::format("  {{ time = {}, change = {} }},\n", real(e.time), quote(to_string(e.change)));
        w.out += "]\n";
    }
    w.line("clock", quote(s.clock), "\"virtual\" (reproducible) or \"wall\" (real seconds)");
    w.line("step_cost", real(s.step_cost), "virtual clock: seconds per training step");
    w.line("eval_cost", real(s.eval_cost), "virtual clock: seconds per test evaluation");
}

void trainer(Writer& w, const TrainerConfig& t)
{
    w.header("trainer", "Adaptation after \"up\", distillation after \"down\".");
    w.line("max_decisions", std::to_string(t.max_decisions), "agent consultations after an \"up\"");
    w.line("distill_temperature", real(t.distill_temperature), "softmax temperature of the soft targets");
    w.line("distill_weight", real(t.distill_weight), "soft-target weight at the first epoch, in [0, 1]");
    w.line("distill_decay", real(t.distill_decay), "multiplied into the weight every epoch, in [0, 1]");
    w.line("check_preservation", boolean(t.check_preservation),
           "measure max |delta| of outputs at every deepening");
    w.line("warm_start_checkpoint", boolean(t.warm_start_checkpoint),
           "checkpoint at the first allocation event");
}

void agent(Writer& w, const AgentConfig& a)
{
    w.header("agent", "Who decides which block to deepen.");
    w.line("kind", quote(a.kind), "\"fixed\", \"random\", \"none\", \"policy\", \"simulation\"");
    w.line("sequence", integers(a.sequence), "fixed: actions in order; n blocks: n = Do Nothing");
    w.line("policy", quote(a.policy), "policy: the policy file");
    w.line("temperature", real(a.temperature), "policy: softmax temperature");
    w.line("greedy", boolean(a.greedy), "policy: argmax instead of sampling");
    w.line("seed", std::to_string(a.seed), "random agent and sampling");
}

void policy(Writer& w, const PolicyConfig& p)
{
    w.header("policy", "The policy network and its REINFORCE learner.");
    w.line("vocab", quote(p.vocab), "layer-string vocabulary");
    w.line("embedding_size", std::to_string(p.embedding_size), "fixed layer embeddings");
    w.line("hidden_size", std::to_string(p.hidden_size), "BiLSTM encoder, per direction");
    w.line("decider_lstm_size", std::to_string(p.decider_lstm_size));
    w.line("decider_linear_size", std::to_string(p.decider_linear_size));
    w.line("time_encoding_size", std::to_string(p.time_encoding_size), "sines of the budget fraction left");
    w.line("max_actions", std::to_string(p.max_actions), "decider outputs; 0 = from the model");
    w.line("action_set_size", std::to_string(p.action_set_size), "actions per decision; 0 = from the model");
    w.line("alpha", real(p.alpha), "Adam learning rate");
    w.line("learning_rate_decay", real(p.learning_rate_decay), "multiplied in every decay_freq episodes");
    w.line("decay_freq", std::to_string(p.decay_freq), "episodes");
}

std::string strings(const std::vector<std::string>& v)
{
    std::vector<std::string> quoted;
    for (const auto& s : v)
        quoted.push_back(quote(s));
    return fmt::format("[{}]", fmt::join(quoted, ", "));
}

void sweep(Writer& w, const SweepConfig& s)
{
    w.header("sweep", "How `rlda simulate` spreads the rows over processes or cluster jobs.");
    w.line("backend", quote(s.backend), "\"local\" (worker processes) or \"slurm\" (cluster jobs)");
    w.line("workers", std::to_string(s.workers), "local: worker processes; 0 = one per core");
    w.line("threads_per_task", std::to_string(s.threads_per_task),
           "LibTorch threads in each task; rows depend on it");
    w.line("max_retries", std::to_string(s.max_retries), "reruns of a part whose process failed");
    w.line("partition", quote(s.partition), "slurm: partition; \"\" = the default");
    w.line("time_limit", quote(s.time_limit), "slurm: time per task, [D-]HH:MM:SS");
    w.line("cpus_per_task", std::to_string(s.cpus_per_task), "slurm: CPUs per task");
    w.line("gres", quote(s.gres), "slurm: generic resources, e.g. \"gpu:1\"; \"\" = none");
    w.line("sbatch_args", strings(s.sbatch_args), "slurm: more sbatch options");
    w.line("poll_seconds", real(s.poll_seconds), "seconds between looks at the tasks");
}

} // namespace

std::string to_toml(const ExperimentConfig& c)
{
    Writer w;
    w.out = "# RLDA Workbench experiment: every setting written, defaults included.\n\n";
    w.line("name", quote(c.name), "names the run and its folder");
    job(w, c.job);
    dataset(w, c.dataset);
    scheduler(w, c.scheduler);
    trainer(w, c.trainer);
    agent(w, c.agent);
    policy(w, c.policy);
    w.header("simulation", "The simulation table a learning run learns from.");
    w.line("table", quote(c.simulation.table), "simulation table CSV; \"\" = none");
    w.header("runner", "Repetitions.");
    w.line("total_episodes", std::to_string(c.runner.total_episodes), "training runs, or learning episodes");
    w.line("save", boolean(c.runner.save), "simulation runs: write the table as it grows");
    sweep(w, c.sweep);
    return w.out;
}

bool same_settings(const ExperimentConfig& a, const ExperimentConfig& b)
{
    ExperimentConfig x = a;
    ExperimentConfig y = b;
    x.source.clear();
    y.source.clear();
    x.warnings.clear();
    y.warnings.clear();
    return x == y;
}

} // namespace rlda::core::config

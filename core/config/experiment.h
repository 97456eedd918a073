// Typed experiment configuration: one struct per TOML section, every member with its default.
#pragma once

#include "core/config/names.h"
#include "core/model/spec.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace rlda::core::config {

// [job]: what is trained and how.
struct JobConfig {
    std::string model = "ConvNet2"; // a zoo name or a TOML model file (relative to the config file)
    // Zoo models: the original's ReLU on the logits, or plain logits (a model file writes its own)
    model::OutputHead head = model::OutputHead::Relu;
    std::int64_t batch_size = 64;
    Optimizer optimizer = Optimizer::Adam;
    double lr = 0.01;               // reset to this after every adaptation
    double lr_decay = 0.9;          // multiplied in after every completed epoch
    double momentum = 0.9;          // sgd only
    std::string device = "cpu";     // "cpu", "cuda", "cuda:N"
    std::uint64_t seed = 42;
    bool operator==(const JobConfig&) const = default;
};

// [dataset]: where the samples come from.
struct DatasetConfig {
    DatasetKind kind = DatasetKind::Synthetic;
    std::string path;                // data folder; empty = the kind's default location
    Normalization normalization = Normalization::Half;
    std::int64_t train_subset = 0;   // 0 = all samples
    std::int64_t test_subset = 0;
    bool random_subset = false;      // false: the first N samples
    // Test also on the training samples train_subset leaves out: a larger held-out pool (the test
    // set's samples, then those), so that a table's accuracies carry less of the test set's noise.
    bool test_unused_train = false;
    // synthetic only
    std::vector<std::int64_t> shape = model::kCifar10Input;
    std::int64_t classes = model::kCifar10Classes;
    std::int64_t train_size = 512;
    std::int64_t test_size = 256;
    double noise = 1.0;
    bool operator==(const DatasetConfig&) const = default;
};

struct AllocationEventConfig {
    double time = 0.0; // seconds since the job started
    Change change = Change::Up;
    bool operator==(const AllocationEventConfig&) const = default;
};

// [scheduler]: the time budget and when the allocation changes.
struct SchedulerConfig {
    double budget = 400.0;     // seconds
    double start_time = 0.0;   // seconds already elapsed when training starts
    std::vector<AllocationEventConfig> events; // [[scheduler.events]] time = 70, change = "up"
    ClockKind clock = ClockKind::Virtual; // Virtual: reproducible; Wall: the original semantics
    double step_cost = 0.05;   // virtual clock: seconds charged per training step
    double eval_cost = 0.0;    // virtual clock: seconds charged per test evaluation
    bool operator==(const SchedulerConfig&) const = default;
};

// [trainer]: Algorithm 1's adaptation and distillation settings.
struct TrainerConfig {
    int max_decisions = 3;            // agent consultations after an "up"
    double distill_temperature = 2.0; // on "down"
    double distill_weight = 0.75;     // soft-target weight at the first epoch after "down"
    double distill_decay = 0.25;      // multiplied into the weight after every epoch
    bool check_preservation = true;   // measure max |Δ| of outputs at every deepening
    bool warm_start_checkpoint = true; // save a checkpoint at the first allocation event
    // What an action may do to its block (core/model/actions.h): "deepen", "widen" or both.
    std::vector<std::string> operations{"deepen"};
    double widen_factor = 2.0; // a widened layer's width = round(width x factor)
    double widen_noise = 0.1;  // how unevenly a widened unit's outgoing weights split among its copies
    bool operator==(const TrainerConfig&) const = default;
};

// [agent]: who decides which block to deepen.
struct AgentConfig {
    AgentKind kind = AgentKind::Fixed;
    std::vector<int> sequence;       // fixed: the actions in order (missing ones: Do Nothing)
    std::string policy;              // policy: the policy file
    double temperature = 1.0;        // policy: softmax temperature
    bool greedy = true;              // policy: argmax instead of sampling
    std::uint64_t seed = 0;          // random / sampling
    double threshold = 0.001;        // grow-while-improving: the least gain in test accuracy a growth needs
    bool operator==(const AgentConfig&) const = default;
};

// [policy]: the policy network and its REINFORCE learner (the original's [agent] keys).
struct PolicyConfig {
    PolicyEncoder encoder = PolicyEncoder::Original; // how the network reads an architecture
    std::string vocab = "models";           // layer-string vocabulary (original encoder): built from the model zoo
    std::int64_t embedding_size = 16;       // fixed layer embeddings
    std::int64_t hidden_size = 50;          // BiLSTM encoder, per direction
    std::int64_t decider_lstm_size = 16;
    std::int64_t decider_linear_size = 128;
    std::int64_t time_encoding_size = 8;    // sines of the fraction of the budget left
    std::int64_t max_actions = 0;           // decider outputs; 0 = from the model (blocks + 1)
    std::int64_t action_set_size = 0;       // actions per decision; 0 = from the model
    double alpha = 1e-4;                    // Adam learning rate
    double learning_rate_decay = 0.99;      // multiplied in every decay_freq episodes
    std::int64_t decay_freq = 500;
    bool operator==(const PolicyConfig&) const = default;
};

// [simulation]: the table a simulation-driven learning run learns from.
struct SimulationConfig {
    std::string table; // simulation table CSV; empty = none
    bool operator==(const SimulationConfig&) const = default;
};

// [runner]: how many times the run repeats (episodes) and whether it keeps its results.
struct RunnerConfig {
    std::int64_t total_episodes = 1; // training runs, or learning episodes against a table
    bool save = false;               // simulation runs: write the table as it grows
    bool operator==(const RunnerConfig&) const = default;
};

// [sweep]: how `rlda simulate` spreads a table's rows over processes or cluster jobs. The rows do
// not depend on it, except through threads_per_task, which every backend applies alike.
struct SweepConfig {
    SweepBackend backend = SweepBackend::Local;
    int workers = 0;                  // local: worker processes; 0 = std::thread::hardware_concurrency()
    int threads_per_task = 1;         // LibTorch intra-op threads in each task (and in-process builds)
    int max_retries = 2;              // reruns of a part whose process failed
    std::string partition;            // slurm: --partition; "" = the cluster's default
    std::string time_limit = "01:00:00"; // slurm: --time per task, [D-]HH:MM:SS
    int cpus_per_task = 1;            // slurm: --cpus-per-task
    std::string gres;                 // slurm: --gres, e.g. "gpu:1"; "" = none
    std::vector<std::string> sbatch_args; // slurm: more sbatch options, passed as they are
    double poll_seconds = 2.0;        // how often the state of the tasks is looked at
    // The seeds a table is built at, each a replicate (core/sim/build.h); empty = job.seed alone.
    std::vector<std::int64_t> seeds;
    // Replicates of one sequence trained as one fused model (core/sim/build.h); auto = on a GPU.
    FusedReplicates fused = FusedReplicates::Auto;
    // Racing (core/sim/race.h): after every sequence is built at the seeds, new seeds only for the
    // sequences still in the confidence set for the best, until it has one member, the budget is
    // spent or the seeds reach race_max_seeds.
    bool race = false;
    int race_max_seeds = 10;
    double race_budget_epochs = 0.0; // epochs of training in all the race's rounds; 0 = no budget
    bool operator==(const SweepConfig&) const = default;
};

// R replicates counted from a first seed: first, first + 1, ..., first + R - 1 (rlda simulate
// --replicates, the Sweeps page's Seeds), the sweep.seeds of a table built R times. Error
// "job.seed N: R consecutive seeds from it pass M, the largest seed; lower job.seed" when they would
// not fit (core/config/experiment_overrides.cpp).
std::vector<std::int64_t> consecutive_seeds(std::int64_t first, int count);

struct ExperimentConfig {
    std::string name = "experiment";
    JobConfig job;
    DatasetConfig dataset;
    SchedulerConfig scheduler;
    TrainerConfig trainer;
    AgentConfig agent;
    PolicyConfig policy;
    SimulationConfig simulation;
    RunnerConfig runner;
    SweepConfig sweep;
    std::string source; // the file it was read from, for messages and relative paths
    // "file:line:col: key: not used: why" for keys of the original schema that have no meaning
    // here; not settings (same_settings() ignores them and `source`).
    std::vector<std::string> warnings;
    bool operator==(const ExperimentConfig&) const = default;
};

} // namespace rlda::core::config

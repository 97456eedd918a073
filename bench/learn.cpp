// bench_learn: episodes/s of Algorithm 4 in PolicyLearner (fast and autograd paths of both
// encoders) and in bench/learn_reference.py (both encoders).
#include "core/sim/learn.h"
#include "bench/python_reference.h"
#include "core/model/zoo.h"
#include "core/policy/reinforce.h"
#include "core/table/table.h"

#include <ATen/Parallel.h>
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/optim/adam.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <sys/resource.h>
#include <unistd.h>

namespace {

using namespace rlda::core;

struct Options {
    std::string table = RLDA_PAPER_DIR "/tables/convnet2_early.csv"; // data/paper/README.md
    std::string model = "ConvNet2";
    std::int64_t episodes = 3000;
    std::int64_t reference_episodes = 300;
    std::int64_t structural_episodes = 2000;
    std::int64_t structural_reference_episodes = 300;
    std::int64_t python_episodes = 500;
    std::uint64_t seed = 42;
    int threads = 2;
    int repeat = 3;
    std::string python = "/usr/bin/python3"; // Debian's, where python3-torch lives
};

agent::PolicyLearner make_learner(const Options& o, const model::ModelSpec& base,
                                  config::PolicyEncoder encoder = config::PolicyEncoder::Original)
{
    config::PolicyConfig sizes;
    sizes.encoder = encoder;
    return agent::PolicyLearner::for_model(sizes, base, o.seed);
}

double cpp_episodes_per_s(const Options& o, const sim::SimulationTable& table, const model::ModelSpec& base,
                          config::PolicyEncoder encoder, bool reference, std::int64_t episodes)
{
    auto learner = make_learner(o, base, encoder);
    learner.set_reference_autograd(reference);
    const auto start = std::chrono::steady_clock::now();
    const auto done = sim::learn(learner, table, base, episodes);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return static_cast<double>(done) / seconds;
}

void all_prefixes(int length, int actions, std::vector<int>& prefix, std::vector<std::vector<int>>& out)
{
    out.push_back(prefix);
    if (static_cast<int>(prefix.size()) == length)
        return;
    for (int a = 0; a < actions; ++a) {
        prefix.push_back(a);
        all_prefixes(length, actions, prefix, out);
        prefix.pop_back();
    }
}

// The structural input of one architecture as JSON: its layer rows and blocks.
std::string structural_json(const torch::Tensor& input)
{
    const auto width = input.size(1) - 1;
    std::vector<std::string> rows;
    std::vector<std::int64_t> blocks;
    for (std::int64_t i = 0; i < input.size(0); ++i) {
        const float* r = input.data_ptr<float>() + i * input.size(1);
        rows.push_back(fmt::format("[{}]", fmt::join(r, r + width, ", ")));
        blocks.push_back(static_cast<std::int64_t>(r[width]));
    }
    return fmt::format("\"rows\": [{}], \"block\": [{}]", fmt::join(rows, ", "), fmt::join(blocks, ", "));
}

// What the Python side needs to run the same episodes without our model code: every prefix's
// input (leaf-layer ids in our vocabulary, or the structural rows) and time left, every
// sequence's accuracy, the sizes.
void write_problem(const std::string& path, const Options& o, const sim::SimulationTable& table,
                   const model::ModelSpec& base, config::PolicyEncoder encoder)
{
    auto learner = make_learner(o, base, encoder);
    sim::ArchitectureCache architectures(base, model::action_space(base), learner); // the paper's tables: deepen only
    std::vector<std::vector<int>> prefixes;
    std::vector<int> prefix;
    all_prefixes(table.decisions() - 1, table.num_actions(), prefix, prefixes);
    std::string entries;
    for (const auto& p : prefixes) {
        const auto& input = architectures.layers(p);
        std::string layers;
        if (encoder == config::PolicyEncoder::Structural) {
            layers = structural_json(input);
        } else {
            const std::vector<std::int64_t> v(input.data_ptr<std::int64_t>(),
                                              input.data_ptr<std::int64_t>() + input.numel());
            layers = fmt::format("\"ids\": [{}]", fmt::join(v, ", "));
        }
        entries += fmt::format("{}\n    {{\"prefix\": [{}], {}, \"time_left\": {}}}", entries.empty() ? "" : ",",
                               fmt::join(p, ", "), layers, table.time_left(p));
    }
    std::string rows;
    for (const auto& r : table.rows())
        rows += fmt::format("{}\n    {{\"actions\": [{}], \"accuracy\": {}}}", rows.empty() ? "" : ",",
                            fmt::join(r.actions, ", "), r.accuracy);
    const auto& s = learner.sizes();
    std::ofstream out(path);
    out << fmt::format(
        "{{\n  \"decisions\": {}, \"actions\": {}, \"budget\": {}, \"vocabulary\": {}, \"features\": {},\n"
        "  \"embedding_size\": {}, \"hidden_size\": {}, \"decider_lstm_size\": {}, \"decider_linear_size\": "
        "{},\n"
        "  \"time_encoding_size\": {}, \"alpha\": {}, \"learning_rate_decay\": {}, \"decay_freq\": {},\n"
        "  \"architectures\": [{}\n  ],\n  \"sequences\": [{}\n  ]\n}}\n",
        table.decisions(), table.num_actions(), table.rows().front().total_time, learner.vocabulary().size(),
        std::int64_t{agent::kLayerFeatures}, s.embedding_size, s.hidden_size, s.decider_lstm_size, s.decider_linear_size, s.time_encoding_size,
        s.alpha, s.learning_rate_decay, s.decay_freq, entries, rows);
    if (!out)
        throw std::runtime_error("cannot write " + path);
}

// One optimizer step over the policy's parameters, in microseconds: torch::optim::Adam against
// FastAdam, to show why the learner steps by hand.
std::pair<double, double> adam_step_us(const Options& o, const model::ModelSpec& base)
{
    const auto learner = make_learner(o, base);
    const auto& s = learner.sizes();
    const auto vocabulary = static_cast<std::int64_t>(learner.vocabulary().size());
    agent::PolicyNet a(s, vocabulary, learner.actions(), 1), b(s, vocabulary, learner.actions(), 1);
    for (auto& p : a->parameters())
        p.mutable_grad() = torch::randn_like(p) * 1e-3;
    torch::optim::Adam torch_adam(a->parameters(), torch::optim::AdamOptions(s.alpha));
    agent::FastAdam fast_adam(b->parameters(), s.alpha);
    const int steps = 2000;
    const auto time = [&](auto&& step) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < steps; ++i)
            step();
        return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
               steps;
    };
    const double torch_us = time([&] { torch_adam.step(); });
    const double fast_us = time([&] { fast_adam.step_and_zero_grad(); });
    return {torch_us, fast_us};
}

// CPU seconds spent by the whole machine and by this process with its finished children (the
// Python runs), to tell whether other work shared the cores during the measurements.
struct CpuTimes {
    double machine = 0.0, own = 0.0;
    std::chrono::steady_clock::time_point when = std::chrono::steady_clock::now();
};

CpuTimes cpu_times()
{
    CpuTimes t;
    std::ifstream in("/proc/stat");
    std::string cpu;
    long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    in >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
    t.machine = static_cast<double>(user + nice + system + irq + softirq + steal) /
                static_cast<double>(sysconf(_SC_CLK_TCK));
    for (const int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage u{};
        getrusage(who, &u);
        t.own += static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
                 static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
    }
    return t;
}

// Cores kept busy by other processes between two samples.
double others_cores(const CpuTimes& a, const CpuTimes& b)
{
    const double wall = std::chrono::duration<double>(b.when - a.when).count();
    return wall > 0 ? std::max(0.0, (b.machine - a.machine) - (b.own - a.own)) / wall : 0.0;
}

double python_episodes_per_s(const Options& o, const std::string& problem, config::PolicyEncoder encoder)
{
    const std::string cmd = fmt::format(
        "{} {}/bench/learn_reference.py --problem {} --episodes {} --threads {} --seed {} --encoder {}", o.python,
        RLDA_SOURCE_DIR, problem, o.python_episodes, o.threads, o.seed, config::to_string(encoder));
    return rlda::bench::run_python_reference(cmd, "episodes_per_s", "Debian's python3-torch");
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    CLI::App app{"Simulation-driven learning (Algorithm 4): PolicyLearner against Python/PyTorch"};
    app.add_option("--table", o.table, "Simulation table (CSV)")->capture_default_str();
    app.add_option("--model", o.model, "The table's starting model")->capture_default_str();
    app.add_option("--episodes", o.episodes, "Episodes of the fast path per round")->capture_default_str();
    app.add_option("--reference-episodes", o.reference_episodes, "Episodes of the autograd path per round")
        ->capture_default_str();
    app.add_option("--structural-episodes", o.structural_episodes,
                   "Episodes of the structural encoder's fast path per round")
        ->capture_default_str();
    app.add_option("--structural-reference-episodes", o.structural_reference_episodes,
                   "Episodes of the structural encoder's autograd path per round")
        ->capture_default_str();
    app.add_option("--python-episodes", o.python_episodes, "Episodes of the Python side per round")
        ->capture_default_str();
    app.add_option("--seed", o.seed)->capture_default_str();
    app.add_option("--threads", o.threads)->capture_default_str();
    app.add_option("--repeat", o.repeat, "Rounds; the best of each side counts")->capture_default_str();
    app.add_option("--python", o.python)->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    using config::PolicyEncoder;
    const auto temp = std::filesystem::temp_directory_path();
    const auto problem = (temp / fmt::format("rlda_bench_learn_{}.json", getpid())).string();
    const auto structural_problem = (temp / fmt::format("rlda_bench_learn_structural_{}.json", getpid())).string();
    const auto remove_problems = [&] {
        std::error_code ignored;
        std::filesystem::remove(problem, ignored);
        std::filesystem::remove(structural_problem, ignored);
    };
    try {
        at::set_num_threads(o.threads);
        const auto base = model::load_model(o.model);
        const auto table = sim::SimulationTable::load(o.table);
        write_problem(problem, o, table, base, PolicyEncoder::Original);
        write_problem(structural_problem, o, table, base, PolicyEncoder::Structural);

        const auto cpu_before = cpu_times();
        double fast = 0, reference = 0, python = 0, structural = 0, structural_reference = 0, python_structural = 0;
        for (int r = 0; r < o.repeat; ++r) { // interleaved, so drift in the machine hits all of them
            fast = std::max(fast, cpp_episodes_per_s(o, table, base, PolicyEncoder::Original, false, o.episodes));
            reference = std::max(
                reference, cpp_episodes_per_s(o, table, base, PolicyEncoder::Original, true, o.reference_episodes));
            structural = std::max(structural, cpp_episodes_per_s(o, table, base, PolicyEncoder::Structural, false,
                                                                  o.structural_episodes));
            structural_reference =
                std::max(structural_reference, cpp_episodes_per_s(o, table, base, PolicyEncoder::Structural, true,
                                                                  o.structural_reference_episodes));
            python = std::max(python, python_episodes_per_s(o, problem, PolicyEncoder::Original));
            python_structural =
                std::max(python_structural, python_episodes_per_s(o, structural_problem, PolicyEncoder::Structural));
        }
        remove_problems();
        const auto [torch_adam_us, fast_adam_us] = adam_step_us(o, base);
        const double others = others_cores(cpu_before, cpu_times());
        if (others > 0.25)
            fmt::print(
                "note: other processes kept {:.1f} cores busy during this run; the multi-threaded torch "
                "sides suffer most from that, so the ratios are less trustworthy\n",
                others);
        fmt::print("bench/learn: Algorithm 4 on {} ({}, {} decisions x {} actions), {} threads, best of {}\n",
                   std::filesystem::path(o.table).filename().string(), o.model, table.decisions(),
                   table.num_actions(), o.threads, o.repeat);
        fmt::print("  C++ PolicyLearner, fast kernels    {:8.1f} episodes/s ({} episodes)\n", fast,
                   o.episodes);
        fmt::print("  C++ PolicyLearner, torch autograd  {:8.1f} episodes/s ({} episodes)\n", reference,
                   o.reference_episodes);
        fmt::print("  Python/PyTorch, same algorithm     {:8.1f} episodes/s ({} episodes)\n", python,
                   o.python_episodes);
        fmt::print("  structural encoder: fast kernels   {:8.1f} episodes/s ({} episodes)\n", structural,
                   o.structural_episodes);
        fmt::print("  structural encoder: C++ autograd   {:8.1f} episodes/s ({} episodes)\n", structural_reference,
                   o.structural_reference_episodes);
        fmt::print("  structural encoder: Python/PyTorch {:8.1f} episodes/s ({} episodes)\n", python_structural,
                   o.python_episodes);
        fmt::print("  one Adam step: torch::optim::Adam {:.1f} us, FastAdam {:.1f} us\n", torch_adam_us,
                   fast_adam_us);
        fmt::print("ratio fast vs Python:     {:.1f}x (goal >= 10)\n", fast / python);
        fmt::print("ratio fast vs autograd:   {:.1f}x\n", fast / reference);
        fmt::print("ratio structural C++ vs Python: {:.1f}x (goal >= 10)\n", structural / python_structural);
        fmt::print("ratio structural fast vs autograd: {:.1f}x\n", structural / structural_reference);
        return 0;
    } catch (const std::exception& e) {
        remove_problems();
        fmt::print(stderr, "bench_learn: error: {}\n", e.what());
        return 1;
    }
}

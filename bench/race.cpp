// bench_race: racing (core/table/race.h) against uniform seeds, in epochs spent to name the best at
// a 95 % confidence level (bench/README.md, race).
//
// Simulated: for each shipped replicated table, a truth from its fitted seed-blocked model (the
// sequences' effects shrunk towards their mean by sigma_seq^2 / (sigma_seq^2 + sigma_e^2 / R), the
// seed offsets' and the noise's sd as fitted); each trial draws --most seeds of it. The race runs its
// rules (next_race_step) on those draws: every sequence at the first 3, then each new seed for the
// contenders alone. Uniform seeds build every sequence at n seeds, n = 3, 4, ...: they name the best
// at n when the confidence set at n seeds has one member. Both count epochs as a race does, from the
// shipped table's rows (round_epochs). "Correct": one member, the true best. The uniform design is
// costed at the smallest n whose P(correct) reaches the race's: the ratio is its epochs over the
// race's mean epochs, at equal (or better) P(correct); where no n up to --most reaches it, the
// ratio is at least --most seeds' epochs over the race's. Beside it, uniform seeds' P(correct) at
// the race's mean epochs (as many whole seeds). A table whose best neither names gets no ratio.
// "wrong": how often one member is left that is not the true best (the race; uniform seeds at
// --most): the error a 95 % confidence set allows at most 5 % of the time.
//
// Real (--race DIR --uniform DIR): a race's folder and a replicated table of the same settings at
// every seed the race could use, whose first seeds are the race's; prints the race's epochs and set,
// and the epochs uniform seeds need for a set as small (the first n seeds of the uniform table).
#include "core/table/race.h"
#include "core/table/open_table.h"
#include "core/table/reliability.h"
#include "core/table/sequences.h"
#include "core/table/simulated_table.h"
#include "core/table/variance_model.h"
#include "core/util/error.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace rlda::core;
namespace fs = std::filesystem;

struct Options {
    std::string tables = RLDA_SOURCE_DIR "/data/fashion-mnist/tables";
    int trials = 200;
    int first = 3;      // seeds of the first round
    int most = 20;      // seeds at most, race and uniform alike
    double epoch = 1.6; // virtual seconds an epoch (data/fashion-mnist/tables.toml: 64 steps of 0.025 s)
    std::uint64_t seed = 1;
    std::string race, uniform; // the real comparison's folders
};

std::vector<std::int64_t> every_code(std::int64_t n)
{
    std::vector<std::int64_t> codes(static_cast<std::size_t>(n));
    std::iota(codes.begin(), codes.end(), std::int64_t{0});
    return codes;
}

// The first `n` seeds of `draws`, each a whole seed's accuracies of every sequence: uniform seeds.
sim::ReplicateAccuracies first_seeds(const std::vector<std::vector<double>>& draws, std::size_t n)
{
    sim::ReplicateAccuracies r;
    for (std::size_t i = 0; i < n; ++i) {
        r.seeds.push_back(i);
        r.accuracy.push_back(draws[i]);
    }
    return r;
}

struct Simulated {
    std::string table;
    int sequences = 0;
    double p_race = 0.0, race_epochs = 0.0, race_seeds = 0.0; // mean over trials
    double wrong_race = 0.0,
           wrong_uniform = 0.0;    // P(one member, not the true best): the race; uniform at --most
    std::vector<double> p_uniform; // by n - first
    double uniform_epochs = -1.0;  // at equal P(correct); -1: none within --most
    int uniform_n = 0;
    double per_seed = 0.0; // epochs of one seed of every sequence
    double p_uniform_same =
        0.0; // P(correct) of uniform seeds at the race's mean epochs (as many whole seeds)
};

Simulated simulate(const sim::OpenedTable& t, const Options& o, std::mt19937_64& rng)
{
    const auto r = sim::accuracies_by_seed(t.table);
    const auto m = sim::fit_variance_model(r);
    sim::TableTruth truth;
    truth.decisions = t.table.decisions();
    truth.num_actions = t.table.num_actions();
    const double grand = std::accumulate(m.effect.begin(), m.effect.end(), 0.0) / m.sequences;
    const double s2 = m.sigma_sequences * m.sigma_sequences;
    const double shrink = s2 > 0.0 ? s2 / (s2 + m.sigma_e * m.sigma_e / m.seeds) : 0.0;
    for (const double e : m.effect)
        truth.effect.push_back(grand + shrink * (e - grand));
    truth.sigma_seeds = m.sigma_seeds;
    truth.sigma_e = m.sigma_e;
    const auto best = static_cast<std::int64_t>(truth.best());

    Simulated out;
    out.table = fs::path(t.table.source()).stem().string();
    out.sequences = truth.sequences();
    const auto all = every_code(out.sequences);
    const sim::RaceRules rules{o.most, 0.0, o.epoch};
    out.p_uniform.assign(static_cast<std::size_t>(o.most) - static_cast<std::size_t>(o.first) + 1, 0.0);
    for (int trial = 0; trial < o.trials; ++trial) {
        std::vector<std::vector<double>> draws;
        draws.reserve(static_cast<std::size_t>(o.most));
        for (int s = 0; s < o.most; ++s)
            draws.push_back(sim::draw_seed(truth, rng));
        // The race, on these draws: a later seed's accuracies of the contenders alone.
        auto raced = first_seeds(draws, static_cast<std::size_t>(o.first));
        double spent = sim::round_epochs(t.table, all, static_cast<std::size_t>(o.first), o.epoch);
        while (true) {
            const auto step = sim::next_race_step(raced, t.table, raced.accuracy.size(), rules, spent);
            if (step.end) {
                if (*step.end == sim::RaceEnd::Named)
                    (step.contenders.front() == best ? out.p_race : out.wrong_race) += 1.0;
                break;
            }
            std::vector<double> next(draws[raced.accuracy.size()].size(),
                                     std::numeric_limits<double>::quiet_NaN());
            for (const auto c : step.contenders)
                next[static_cast<std::size_t>(c)] = draws[raced.accuracy.size()][static_cast<std::size_t>(c)];
            raced.seeds.push_back(raced.accuracy.size());
            raced.accuracy.push_back(std::move(next));
            spent += step.epochs;
        }
        out.race_epochs += spent;
        out.race_seeds += static_cast<double>(raced.accuracy.size());
        // Uniform seeds: every sequence at the first n.
        for (int n = o.first; n <= o.most; ++n) {
            const auto set = sim::contenders(first_seeds(draws, static_cast<std::size_t>(n)));
            if (set.size() == 1 && set.front() == best)
                out.p_uniform[static_cast<std::size_t>(n - o.first)] += 1.0;
            else if (set.size() == 1 && n == o.most)
                out.wrong_uniform += 1.0;
        }
    }
    out.p_race /= o.trials;
    out.wrong_race /= o.trials;
    out.wrong_uniform /= o.trials;
    out.race_epochs /= o.trials;
    out.race_seeds /= o.trials;
    for (auto& p : out.p_uniform)
        p /= o.trials;
    out.per_seed = sim::round_epochs(t.table, all, 1, o.epoch);
    const int same = std::clamp(static_cast<int>(out.race_epochs / out.per_seed), o.first, o.most);
    out.p_uniform_same = out.p_uniform[static_cast<std::size_t>(same - o.first)];
    for (int n = o.first; n <= o.most && out.p_race > 0.0; ++n)
        if (out.p_uniform[static_cast<std::size_t>(n - o.first)] >= out.p_race) {
            out.uniform_n = n;
            out.uniform_epochs = sim::round_epochs(t.table, all, static_cast<std::size_t>(n), o.epoch);
            break;
        }
    return out;
}

// The real comparison: the epochs the race spent (race.csv) against those uniform seeds (the first
// n seeds of a table built at every seed) need for a confidence set as small as the race's final
// one.
int real(const Options& o)
{
    const auto rounds = sim::read_race_log(fs::path(o.race) / "race.csv");
    if (rounds.empty())
        throw Error(fmt::format("{}: no race.csv; race it first (rlda simulate --race)", o.race));
    const auto raced = sim::open_table(o.race);
    const auto race_set = sim::contenders(raced.table);
    const auto uniform = sim::open_table(o.uniform);
    const auto r = sim::accuracies_by_seed(uniform.table);
    const auto all = every_code(uniform.table.sequences());
    const auto names = [&](const std::vector<std::int64_t>& set) {
        std::vector<std::string> out;
        out.reserve(set.size());
        for (const auto code : set)
            out.push_back(fmt::format("[{}]", fmt::join(sim::sequence_of(code, uniform.table.decisions(),
                                                                         uniform.table.num_actions()),
                                                        " ")));
        return fmt::format("{}", fmt::join(out, " "));
    };
    const double race_epochs = rounds.back().total_epochs;
    fmt::print("real table: race {} ({} rounds, {} seeds), uniform {} ({} seeds)\n", o.race, rounds.size(),
               raced.table.seeds().size(), o.uniform, r.replicates());
    fmt::print("race: {:.1f} epochs, ended: {}; its set: {}\n", race_epochs,
               rounds.back().end ? sim::race_end_text(*rounds.back().end) : "not yet", names(race_set));
    for (int n = 2; n <= r.replicates(); ++n) {
        sim::ReplicateAccuracies first;
        first.seeds.assign(r.seeds.begin(), r.seeds.begin() + n);
        first.accuracy.assign(r.accuracy.begin(), r.accuracy.begin() + n);
        const auto set = sim::contenders(first);
        const double epochs = sim::round_epochs(uniform.table, all, static_cast<std::size_t>(n), o.epoch);
        if (set.size() <= race_set.size()) {
            fmt::print("uniform seeds: a set of {} at {} seeds, {:.1f} epochs: {}\n", set.size(), n, epochs,
                       names(set));
            fmt::print("ratio, uniform epochs / race epochs, for a set as small: {:.2f}\n",
                       epochs / race_epochs);
            return 0;
        }
        if (n == r.replicates()) {
            fmt::print("uniform seeds: still {} in the set at {} seeds, {:.1f} epochs: {}\n", set.size(), n,
                       epochs, names(set));
            fmt::print("ratio, uniform epochs / race epochs, for a set as small: > {:.2f} (uniform seeds did "
                       "not get "
                       "there within {} seeds)\n",
                       epochs / race_epochs, n);
        }
    }
    return 0;
}

int run(const Options& o)
{
    if (!o.race.empty() || !o.uniform.empty())
        return real(o);
    std::mt19937_64 rng(o.seed);
    fmt::print(
        "racing against uniform seeds: {} trials per table, first {} seeds, at most {}, {} s an epoch\n",
        o.trials, o.first, o.most, o.epoch);
    fmt::print("{:<24} {:>5} {:>8} {:>6} {:>9} {:>6} {:>14} {:>10} {:>11} {:>8} {:>13}\n", "table", "seqs",
               "P(race)", "wrong", "race ep", "seeds", "P(uniform, =ep)", "uniform n", "uniform ep", "ratio",
               "wrong at most");
    double race_sum = 0.0, uniform_sum = 0.0;
    int counted = 0;
    bool bounded = false; // a table whose ratio is only a lower bound counts at that bound
    for (const auto& e : fs::directory_iterator(o.tables)) {
        if (e.path().extension() != ".csv" || e.path().stem().string().find('.') != std::string::npos ||
            e.path().filename() == "index.csv")
            continue;
        const auto t = sim::open_table(e.path());
        if (!t.table.replicated())
            continue;
        const Simulated s = simulate(t, o, rng);
        std::string n = "-", epochs = "-", ratio = "-";
        if (s.p_race == 0.0) {
            // Neither names the best: nothing to compare at equal P(correct).
        } else if (s.uniform_epochs > 0.0) {
            n = std::to_string(s.uniform_n);
            epochs = fmt::format("{:.1f}", s.uniform_epochs);
            ratio = fmt::format("{:.2f}", s.uniform_epochs / s.race_epochs);
        } else {
            // Uniform seeds do not reach the race's P(correct) within --most: at least that many.
            const double at_most = s.per_seed * o.most;
            n = fmt::format("> {}", o.most);
            epochs = fmt::format("> {:.1f}", at_most);
            ratio = fmt::format("> {:.2f}", at_most / s.race_epochs);
        }
        fmt::print(
            "{:<24} {:>5} {:>8.2f} {:>6.2f} {:>9.1f} {:>6.1f} {:>14.2f} {:>10} {:>11} {:>8} {:>13.2f}\n",
            s.table, s.sequences, s.p_race, s.wrong_race, s.race_epochs, s.race_seeds, s.p_uniform_same, n,
            epochs, ratio, s.wrong_uniform);
        std::fflush(stdout);
        // The ratio counts the tables whose best the race names at least half the time.
        if (s.p_race >= 0.5) {
            race_sum += s.race_epochs;
            uniform_sum += s.uniform_epochs > 0.0 ? s.uniform_epochs : s.per_seed * o.most;
            bounded = bounded || s.uniform_epochs <= 0.0;
            ++counted;
        }
    }
    if (counted == 0)
        fmt::print("no table's best was named at least half the time within {} seeds\n", o.most);
    else
        fmt::print(
            "ratio, uniform epochs / race epochs at equal P(correct), over the {} table(s) the race names at "
            "least half the time: {}{:.2f} (goal: 2)\n",
            counted, bounded ? "> " : "", uniform_sum / race_sum);
    return 0;
}

int parse_and_run(int argc, char** argv)
{
    CLI::App app{"Racing against uniform seeds: epochs to name the best at 95 % confidence"};
    Options o;
    app.add_option("--tables", o.tables, "Folder of replicated tables whose fitted models are simulated");
    app.add_option("--trials", o.trials, "Simulated tables per shipped table")->check(CLI::Range(1, 1000000));
    app.add_option("--first", o.first, "Seeds of every sequence before the race")->check(CLI::Range(2, 100));
    app.add_option("--most", o.most, "Seeds at most")->check(CLI::Range(2, 1000));
    app.add_option("--epoch-seconds", o.epoch, "Virtual seconds of one epoch")->check(CLI::PositiveNumber);
    app.add_option("--seed", o.seed, "Seed of the simulation");
    app.add_option("--race", o.race, "A race's folder (rlda simulate --race): the real comparison");
    app.add_option("--uniform", o.uniform, "A replicated table of the same settings at every seed");
    CLI11_PARSE(app, argc, argv);
    if (o.most < o.first) {
        fmt::print(stderr, "bench_race: --most {} is fewer than --first {}\n", o.most, o.first);
        return 2;
    }
    if (o.race.empty() != o.uniform.empty()) {
        fmt::print(stderr, "bench_race: --race and --uniform go together\n");
        return 2;
    }
    return run(o);
}

} // namespace

int main(int argc, char** argv)
{
    try {
        return parse_and_run(argc, argv);
    } catch (const std::exception& e) { // a bad table or folder: one line, not a crash
        std::fputs("bench_race: ", stderr);
        std::fputs(e.what(), stderr);
        std::fputs("\n", stderr);
        return 1;
    }
}

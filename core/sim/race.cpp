// The race's driver: its first round a replicated build, then one seed at a time for the contenders.
#include "core/sim/race.h"

#include "core/table/merge.h"
#include "core/table/reliability.h"
#include "core/table/table_folder.h"
#include "core/train/setup.h"
#include "core/util/atomic_file.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <cmath>

namespace rlda::core::sim {

namespace fs = std::filesystem;

void check_race_settings(const config::ExperimentConfig& c)
{
    if (!c.sweep.race)
        throw Error("race: sweep.race is off");
    check_table_settings(c);
    const auto seeds = table_seeds(c);
    if (seeds.empty())
        throw Error("sweep.race: the first round needs at least 2 seeds in sweep.seeds (rlda simulate --race "
                    "gives job.seed and the next 2)");
    if (static_cast<int>(seeds.size()) > c.sweep.race_max_seeds)
        throw Error(fmt::format("sweep.race_max_seeds: {} is fewer than the {} seeds of sweep.seeds",
                                c.sweep.race_max_seeds, seeds.size()));
    if (!tree_buildable(c))
        throw Error(
            "sweep.race: a race counts its cost on the virtual clock, so it needs settings built as a tree "
            "(scheduler.clock = \"virtual\" and one \"up\" event)");
    if (fuses_replicates(c))
        throw Error(
            "sweep.race: a race trains its later seeds one at a time, so its first round cannot be fused; "
            "set sweep.fused = \"off\"");
}

double epoch_seconds(const config::ExperimentConfig& c)
{
    const auto data = train::load_dataset(c.dataset, c.job.seed);
    const std::int64_t n = data.train.size();
    const std::int64_t batch = c.job.batch_size;
    const double steps = std::ceil(static_cast<double>(n) / static_cast<double>(batch)); // the last is short
    return steps * c.scheduler.step_cost + c.scheduler.eval_cost;
}

RaceResult race_table(const config::ExperimentConfig& c, const fs::path& out, bool force,
                      const RaceProgressFn& progress, const std::stop_token& stop,
                      train::TrainObserver* observer)
{
    check_race_settings(c);
    const auto first = table_seeds(c);
    const auto seeds = race_seeds(first, c.sweep.race_max_seeds);
    const double epoch = epoch_seconds(c);
    if (!(epoch > 0.0))
        throw Error(
            "sweep.race: an epoch costs no virtual time (scheduler.step_cost = 0), so a race cannot count "
            "its cost");

    RaceResult result;
    RaceProgress at;
    at.contenders = table_shape(c).sequences;
    result.table = build_table(
        c, out, force,
        [&](const BuildProgress& p) {
            at.build = p;
            if (progress)
                progress(at);
        },
        stop, observer);
    if (stop.stop_requested() || !result.table.complete())
        return result;

    // The first round's cost: every sequence at each starting seed, each seed's warm start included.
    std::vector<std::int64_t> every(static_cast<std::size_t>(result.table.sequences()));
    for (std::size_t i = 0; i < every.size(); ++i)
        every[i] = static_cast<std::int64_t>(i);
    const RaceRules rules{c.sweep.race_max_seeds, c.sweep.race_budget_epochs, epoch};
    RaceRound round{
        first,       result.table.sequences(), round_epochs(result.table, every, first.size(), epoch), 0.0, 0,
        std::nullopt};
    round.total_epochs = round.epochs;
    std::size_t used = first.size();
    while (true) {
        result.table = collect_seeds(
            out, c, {seeds.begin(), seeds.begin() + static_cast<std::ptrdiff_t>(used)}, first.size());
        const RaceStep step =
            next_race_step(accuracies_by_seed(result.table), result.table, used, rules, round.total_epochs);
        result.contenders = step.contenders;
        round.contenders = static_cast<std::int64_t>(step.contenders.size());
        round.end = step.end;
        result.rounds.push_back(round);
        write_text_atomically(out / "race.csv", race_log_text(result.rounds));
        if (step.end) {
            result.end = *step.end;
            break;
        }
        const std::uint64_t seed = seeds[used];
        at.round = static_cast<int>(result.rounds.size()) + 1;
        at.seed = seed;
        at.contenders = static_cast<std::int64_t>(step.contenders.size());
        build_sequences(
            config_for_seed(c, seed), seed_folder(out, seed), step.contenders,
            [&](const BuildProgress& p) {
                at.build = p;
                if (progress)
                    progress(at);
            },
            stop, observer);
        if (stop.stop_requested())
            return result; // the folder holds the rounds before this one; its seed goes on when resumed
        ++used;
        round = {{seed},      static_cast<std::int64_t>(step.contenders.size()),
                 step.epochs, round.total_epochs + step.epochs,
                 0,           std::nullopt};
    }
    return result;
}

} // namespace rlda::core::sim

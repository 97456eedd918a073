#include "core/io/comparison.h"

#include "core/config/schema.h"
#include "core/util/distributions.h"
#include "core/util/error.h"
#include "core/util/output_folder.h"
#include "core/util/statistics.h"

#include <fmt/format.h>

#include <cmath>
#include <numeric>

namespace rlda::core::run {

std::string comparison_line(const Comparison& c)
{
    return fmt::format("adaptation: {:.4f} final test accuracy; no adaptation: {:.4f}; difference: {:+.4f}",
                       c.adapted.final_test_acc, c.baseline.final_test_acc, c.difference());
}

std::filesystem::path baseline_folder(const std::filesystem::path& out)
{
    // "runs/x/" names the folder x too: the sibling is runs/x-none, not runs/x/-none.
    std::filesystem::path dir = out;
    while (dir.has_parent_path() && !dir.has_filename())
        dir = dir.parent_path();
    dir += "-none";
    return dir;
}

PairedDifference paired_difference(const std::vector<double>& differences)
{
    PairedDifference d;
    d.n = static_cast<int>(differences.size());
    if (d.n == 0)
        return d;
    d.mean = std::accumulate(differences.begin(), differences.end(), 0.0) / d.n;
    d.low = d.high = d.mean;
    if (d.n < 2)
        return d;
    d.sd = std::sqrt(variance_of(differences, 1));
    const double half = t_quantile(0.975, d.n - 1) * d.sd / std::sqrt(static_cast<double>(d.n));
    d.low = d.mean - half;
    d.high = d.mean + half;
    return d;
}

PairedDifference paired_difference(const SeedComparisons& c)
{
    std::vector<double> differences;
    differences.reserve(c.runs.size());
    for (const auto& run : c.runs)
        differences.push_back(run.difference());
    return paired_difference(differences);
}

std::filesystem::path seed_folder(const std::filesystem::path& out, std::uint64_t seed)
{
    return out / fmt::format("seed-{}", seed);
}

std::string paired_difference_line(const PairedDifference& d)
{
    if (d.n == 0)
        return "difference: none (no seed finished both runs)";
    if (!d.has_interval())
        return fmt::format("difference: {:+.4f} (one seed: no interval; give two or more seeds for one)",
                           d.mean);
    const char* says = d.shown() > 0   ? "adaptation raised the final test accuracy"
                       : d.shown() < 0 ? "adaptation lowered the final test accuracy"
                                       : "no difference shown at 95 % (the interval holds 0)";
    return fmt::format(
        "difference: {:+.4f} (95 % interval {:+.4f} to {:+.4f}, paired t over {} seeds, sd {:.4f}): {}",
        d.mean, d.low, d.high, d.n, d.sd, says);
}

std::vector<std::string> seed_comparison_lines(const SeedComparisons& c)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < c.runs.size(); ++i)
        out.push_back(fmt::format("seed {}: adaptation {:.4f}, no adaptation {:.4f}, difference {:+.4f}",
                                  c.seeds[i], c.runs[i].adapted.final_test_acc,
                                  c.runs[i].baseline.final_test_acc, c.runs[i].difference()));
    if (c.cancelled)
        out.push_back(fmt::format("stopped after {} of {} seeds", c.runs.size(), c.seeds.size()));
    out.push_back(paired_difference_line(paired_difference(c)));
    return out;
}

void check_seeds(const std::vector<std::uint64_t>& seeds)
{
    if (seeds.empty())
        throw Error("no seed given to compare at");
    for (std::size_t i = 0; i < seeds.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (seeds[i] == seeds[j])
                throw Error(fmt::format("seed {} is given twice; each seed is compared once", seeds[i]));
}

void check_seed_comparisons(const config::ExperimentConfig& c, const std::filesystem::path& out,
                            const std::vector<std::uint64_t>& seeds, bool force)
{
    check_seeds(seeds);
    const auto read = config::input_paths(c);
    const InputPaths inputs(read.begin(), read.end());
    for (const auto seed : seeds) { // refused before the first run rather than after minutes of training
        check_output_folder(seed_folder(out, seed), force, inputs);
        check_output_folder(baseline_folder(seed_folder(out, seed)), force, inputs);
    }
}

} // namespace rlda::core::run

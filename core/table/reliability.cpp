// The reliability of a replicated table: split halves, Spearman-Brown and a bootstrap over seeds.
#include "core/table/reliability.h"

#include "core/table/variance_model.h"
#include "core/util/error.h"
#include "core/util/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <tuple>
#include <utility>

namespace rlda::core::sim {
namespace {

// Splits of replicates 0..n-1 into a first half of n/2 (rounded down) and the rest: every split
// once (a half and its complement are one split) when there are at most `limit`, else `limit`
// drawn at random with `rng`.
std::vector<std::vector<bool>> splits_of(int n, int limit, std::mt19937_64& rng)
{
    const int half = n / 2;
    double count = 1.0; // C(n, half), halved for even n
    for (int i = 0; i < half; ++i)
        count = count * (n - i) / (i + 1);
    if (n % 2 == 0)
        count /= 2.0;
    std::vector<std::vector<bool>> out;
    if (count <= limit) {
        std::vector<bool> mask(static_cast<std::size_t>(n), false);
        std::fill(mask.begin(), mask.begin() + half, true);
        do { // for even n, only the arrangements with replicate 0 in the first half
            if (n % 2 == 1 || mask[0])
                out.push_back(mask);
        } while (std::prev_permutation(mask.begin(), mask.end()));
        return out;
    }
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    for (int i = 0; i < limit; ++i) {
        std::shuffle(order.begin(), order.end(), rng);
        std::vector<bool> mask(static_cast<std::size_t>(n), false);
        for (int k = 0; k < half; ++k)
            mask[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = true;
        out.push_back(mask);
    }
    return out;
}

// The mean over the replicates `take` (indices, repeats allowed) of each sequence, summed as
// accuracy_key's whole billionths so that equal decimals give equal means.
std::vector<double> mean_over(const ReplicateAccuracies& r, const std::vector<int>& take)
{
    std::vector<std::int64_t> sum(r.sequences(), 0);
    for (const int i : take)
        for (std::size_t s = 0; s < sum.size(); ++s)
            sum[s] += accuracy_key(r.accuracy[static_cast<std::size_t>(i)][s]);
    std::vector<double> m(sum.size());
    for (std::size_t s = 0; s < m.size(); ++s)
        m[s] = static_cast<double>(sum[s]) / (1e9 * static_cast<double>(take.size()));
    return m;
}

} // namespace

std::vector<double> ReplicateAccuracies::mean() const
{
    std::vector<double> out(sequences());
    std::vector<double> one(accuracy.size());
    for (std::size_t s = 0; s < out.size(); ++s) {
        for (std::size_t i = 0; i < accuracy.size(); ++i)
            one[i] = accuracy[i][s];
        out[s] = decimal_mean(one); // leaves NaN out
    }
    return out;
}

std::vector<double> ReplicateAccuracies::sd() const
{
    std::vector<double> out(sequences(), 0.0);
    std::vector<double> one;
    for (std::size_t s = 0; s < out.size(); ++s) {
        one.clear();
        for (const auto& seed : accuracy)
            if (!std::isnan(seed[s]))
                one.push_back(seed[s]);
        out[s] = std::sqrt(variance_of(one, 1));
    }
    return out;
}

std::vector<std::size_t> ReplicateAccuracies::replicates_held_by_all() const
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < accuracy.size(); ++i)
        if (std::ranges::none_of(accuracy[i], [](double a) { return std::isnan(a); }))
            out.push_back(i);
    return out;
}

const ReplicateAccuracies& ReplicateAccuracies::held_by_all(ReplicateAccuracies& storage) const
{
    const auto keep = replicates_held_by_all();
    if (keep.size() == accuracy.size())
        return *this;
    storage = {};
    for (const std::size_t i : keep) {
        storage.seeds.push_back(seeds.at(i));
        storage.accuracy.push_back(accuracy[i]);
    }
    return storage;
}

void check_replicates(const ReplicateAccuracies& r)
{
    if (r.accuracy.empty())
        throw Error("replicates: no replicate given");
    for (const auto& a : r.accuracy)
        if (a.size() != r.accuracy.front().size())
            throw Error(fmt::format("replicates: one replicate has {} sequences, another {}", a.size(),
                                    r.accuracy.front().size()));
    if (r.sequences() < 2)
        throw Error("replicates: a ranking needs at least 2 sequences");
}

ReplicateAccuracies accuracies_by_seed(const SimulationTable& t, std::uint64_t seed)
{
    if (!t.complete())
        throw Error(fmt::format("{}: incomplete ({} of {} rows), so its seeds cannot be compared", t.source(),
                                t.rows().size(), t.sequences()));
    ReplicateAccuracies r;
    r.seeds = t.replicated() ? t.seeds() : std::vector<std::uint64_t>{seed};
    r.accuracy.assign(r.seeds.size(), std::vector<double>(t.rows().size()));
    for (std::size_t s = 0; s < t.rows().size(); ++s) {
        const TableRow& row = t.rows()[s];
        for (std::size_t i = 0; i < r.seeds.size(); ++i)
            r.accuracy[i][s] = t.replicated() ? row.replicates[i] : row.accuracy;
    }
    return r;
}

ReplicateAccuracies accuracies_of(const std::vector<const SimulationTable*>& tables,
                                  const std::vector<std::uint64_t>& seeds)
{
    if (tables.empty() || tables.size() != seeds.size())
        throw Error("replicates: one seed is needed for each table");
    ReplicateAccuracies r;
    r.seeds = seeds;
    const SimulationTable& first = *tables.front();
    for (const auto* t : tables) {
        if (t->decisions() != first.decisions() || t->num_actions() != first.num_actions())
            throw Error(fmt::format("replicates: {} has {} decisions over {} actions, {} has {} over {}", t->source(),
                                    t->decisions(), t->num_actions(), first.source(), first.decisions(),
                                    first.num_actions()));
        if (!t->complete())
            throw Error(fmt::format("replicates: {} is incomplete ({} of {} rows)", t->source(), t->rows().size(),
                                    t->sequences()));
        r.accuracy.emplace_back();
        for (const auto& row : first.rows())
            r.accuracy.back().push_back(t->accuracy(row.actions));
    }
    return r;
}

std::string reliability_text(const Reliability& r)
{
    if (!r.known())
        return "reliability: unknown for a table of one seed; build it at several seeds to measure it "
               "(rlda simulate CONFIG --replicates 3)";
    const auto seeds = [](const std::optional<int>& n) {
        return n ? fmt::format("{}", *n) : std::string("unbounded");
    };
    const std::string needed =
        r.needed.point
            ? fmt::format("{} needs {} seed{} (95 % interval {} to {})", kReliableRho, *r.needed.point,
                          *r.needed.point == 1 ? "" : "s", seeds(r.needed.low), seeds(r.needed.high))
        : r.needed.low
            ? fmt::format("no number of seeds is shown to reach {} (95 % interval: {} to "
                          "unbounded)",
                          kReliableRho, *r.needed.low)
            : fmt::format("no number of seeds reaches {}, even at the 95 % interval's end", kReliableRho);
    const std::string halves =
        r.splits == 0
            ? fmt::format("split halves: undefined, a half ranks all the sequences equal in every split of "
                          "the {} seeds",
                          r.replicates)
            : fmt::format("split halves: rho {:.2f} over {} split{}", r.split_half, r.splits,
                          r.splits == 1 ? "" : "s");
    const std::string table_seeds =
        r.fewest_seeds == r.most_seeds
            ? fmt::format("the table's {} seeds", r.replicates)
            : fmt::format("the table's seeds ({} to {} a sequence, {:.1f} on average)", r.fewest_seeds,
                          r.most_seeds, r.mean_seeds);
    return fmt::format(
        "reliability: one seed {:.2f} (95 % interval {:.2f} to {:.2f}), {} {:.2f} ({:.2f} to {:.2f}); "
        "{}; {}",
        r.one_seed, r.one_seed_low, r.one_seed_high, table_seeds, r.all_seeds, r.all_seeds_low,
        r.all_seeds_high, needed, halves);
}

double stepped_up(double r1, double n) { return n * r1 / (1.0 + (n - 1.0) * r1); }

std::optional<int> seeds_for(double r1, double target)
{
    if (!(r1 > 0.0))
        return std::nullopt;
    if (r1 >= target)
        return 1;
    // n r1 / (1 + (n - 1) r1) >= t  <=>  n >= t (1 - r1) / (r1 (1 - t)).
    const double n = target * (1.0 - r1) / (r1 * (1.0 - target));
    if (n > 1e9)
        return std::nullopt;
    int seeds = static_cast<int>(std::ceil(n - 1e-9));
    while (stepped_up(r1, seeds) < target) // rounding at the boundary
        ++seeds;
    return seeds;
}

Reliability rank_reliability(const ReplicateAccuracies& r, std::uint64_t seed)
{
    check_replicates(r);
    if (r.replicates() < 2) {
        Reliability unknown;
        unknown.replicates = r.replicates();
        return unknown;
    }
    return rank_reliability(r, fit_variance_model(r), seed);
}

Reliability rank_reliability(const ReplicateAccuracies& r, const VarianceModel& model, std::uint64_t seed)
{
    check_replicates(r);
    Reliability out;
    out.replicates = r.replicates();
    if (out.replicates < 2)
        return out;
    const auto reliability = ranking_reliability;
    out.fewest_seeds = *std::min_element(model.counts.begin(), model.counts.end());
    out.most_seeds = *std::max_element(model.counts.begin(), model.counts.end());
    out.mean_seeds = static_cast<double>(model.observations) / model.sequences;
    const double seeds = out.mean_seeds; // R when every sequence holds every seed
    out.one_seed = reliability(model.theta, 1.0);
    out.one_seed_low = reliability(model.theta_low, 1.0);
    out.one_seed_high = reliability(model.theta_high, 1.0);
    out.all_seeds = reliability(model.theta, seeds);
    out.all_seeds_low = reliability(model.theta_low, seeds);
    out.all_seeds_high = reliability(model.theta_high, seeds);
    out.needed = seeds_needed(model);
    out.separates = model.separates();
    ReplicateAccuracies storage;
    const ReplicateAccuracies& whole = r.held_by_all(storage); // the halves split whole seeds
    const int halves_of = whole.replicates();
    if (halves_of < 2)
        return out;
    std::mt19937_64 rng(seed);
    const auto splits = splits_of(halves_of, kMaxSplits, rng);
    double sum = 0.0;
    const auto tied = [](const std::vector<double>& means) {
        return std::all_of(means.begin(), means.end(), [&](double m) { return m == means.front(); });
    };
    for (const auto& split : splits) {
        std::vector<int> a, b;
        for (int i = 0; i < halves_of; ++i)
            (split[static_cast<std::size_t>(i)] ? a : b).push_back(i);
        const auto ma = mean_over(whole, a), mb = mean_over(whole, b);
        if (tied(ma) || tied(mb)) {
            ++out.undefined_splits;
            continue;
        }
        sum += spearman(ma, mb);
        ++out.splits;
    }
    if (out.splits == 0)
        return out; // nothing to rank: every sequence alike in a half of every split
    out.split_half = sum / static_cast<double>(out.splits);
    const double m = halves_of / 2.0; // seeds in a half
    const double rho = out.split_half;
    out.single_seed = rho / (m - (m - 1.0) * rho);
    // Spearman-Brown holds for a positive r1; halves that disagree by chance mean no reliability.
    out.table = out.single_seed > 0.0 ? stepped_up(out.single_seed, halves_of) : 0.0;
    out.seeds_needed = seeds_for(out.single_seed);
    return out;
}

namespace {

// The resamples of the bootstrap over seeds, one rule for bootstrap_ranks and bootstrap_candidate so
// that both see the same ones: `resamples` (fewer for a huge table, kMaxBootstrapRanks) draws of R
// replicates with replacement from std::mt19937_64(seed); visit(b, take) for each. Returns the count.
template <class Visit> int for_each_resample(const ReplicateAccuracies& r, int resamples, std::uint64_t seed, Visit visit)
{
    check_replicates(r);
    if (resamples < 1)
        throw Error(fmt::format("replicates: {} resamples; at least 1", resamples));
    const std::size_t n = r.sequences();
    const int reps = r.replicates();
    std::vector<int> take(static_cast<std::size_t>(reps), 0);
    // Few seeds: every one of the R^R equally likely resamples once, so that P(best) is exact.
    std::size_t all = 1;
    for (int i = 0; i < reps && all <= kExactResamples; ++i)
        all *= static_cast<std::size_t>(reps);
    if (all <= kExactResamples && all * n <= kMaxBootstrapRanks) {
        for (std::size_t b = 0; b < all; ++b) {
            visit(static_cast<int>(b), take);
            for (std::size_t i = 0; i < take.size() && ++take[i] == reps; ++i) // the next, as an odometer
                take[i] = 0;
        }
        return static_cast<int>(all);
    }
    // The ranks of every resample are kept for the percentiles: a huge table takes fewer resamples.
    resamples = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(resamples),
                                                       std::max<std::size_t>(50, kMaxBootstrapRanks / n)));
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> pick(0, reps - 1);
    for (int b = 0; b < resamples; ++b) {
        for (int& t : take)
            t = pick(rng);
        visit(b, take);
    }
    return resamples;
}

// The 2.5th and 97.5th percentiles of one sequence's ranks over the resamples.
std::pair<int, int> rank_percentiles(const std::vector<int>& ranks)
{
    return {quantile(ranks, 0.025), quantile(ranks, 0.975)};
}

} // namespace

Bootstrap bootstrap_ranks(const ReplicateAccuracies& all, int resamples, std::uint64_t seed)
{
    check_replicates(all);
    ReplicateAccuracies storage;
    const ReplicateAccuracies& r = all.held_by_all(storage); // resamples of whole seeds
    const std::size_t n = r.sequences();
    Bootstrap out;
    out.best_share.assign(n, 0.0);
    out.mean_rank = competition_ranks(all.mean());
    std::vector<std::vector<int>> ranks(n);
    out.resamples = for_each_resample(r, resamples, seed, [&](int, const std::vector<int>& take) {
        const auto means = mean_over(r, take);
        const auto rank = competition_ranks(means);
        const auto best = static_cast<double>(std::count(rank.begin(), rank.end(), 1));
        for (std::size_t s = 0; s < n; ++s) {
            ranks[s].push_back(rank[s]);
            if (rank[s] == 1)
                out.best_share[s] += 1.0 / best; // ties share the resample
        }
    });
    out.rank_low.resize(n);
    out.rank_high.resize(n);
    for (std::size_t s = 0; s < n; ++s) {
        out.best_share[s] /= out.resamples;
        std::tie(out.rank_low[s], out.rank_high[s]) = rank_percentiles(ranks[s]);
        if (out.best_share[s] >= kBestShare)
            out.indistinguishable.push_back(static_cast<std::int64_t>(s));
    }
    std::stable_sort(out.indistinguishable.begin(), out.indistinguishable.end(),
                     [&](std::int64_t a, std::int64_t b) { return out.best_share[a] > out.best_share[b]; });
    return out;
}

CandidateRanks bootstrap_candidate(const ReplicateAccuracies& all, const std::vector<double>& all_candidate,
                                   int resamples, std::uint64_t seed)
{
    check_replicates(all);
    if (all_candidate.size() != static_cast<std::size_t>(all.replicates()))
        throw Error(fmt::format("replicates: a candidate of {} accuracies for {} replicates",
                                all_candidate.size(), all.replicates()));
    // Resamples of whole seeds: those every sequence holds, and the candidate's at them.
    ReplicateAccuracies storage;
    const ReplicateAccuracies& r = all.held_by_all(storage);
    std::vector<double> candidate;
    for (const std::size_t i : all.replicates_held_by_all())
        candidate.push_back(all_candidate[i]);
    // The candidate as one more sequence, so that its means are summed exactly as a row's are and
    // a candidate equal to a row ties it exactly.
    ReplicateAccuracies with = r;
    for (std::size_t i = 0; i < candidate.size(); ++i)
        with.accuracy[i].push_back(candidate[i]);
    const std::size_t n = r.sequences();
    // Its rank among the sequences (not counting itself), and its share of the best: a row's share
    // when it ties rows at the top, all of it when it is above every row.
    const auto place = [n](const std::vector<double>& means) {
        const double own = means[n];
        const std::span<const double> rows(means.data(), n);
        const double top = *std::max_element(rows.begin(), rows.end());
        const auto tied_at_top = std::count(rows.begin(), rows.end(), top);
        const double share = own > top ? 1.0 : own == top ? 1.0 / static_cast<double>(tied_at_top) : 0.0;
        return std::pair<int, double>{competition_rank(rows, own), share};
    };
    CandidateRanks out;
    out.rank = place(with.mean()).first;
    std::vector<int> ranks;
    const int count = for_each_resample(r, resamples, seed, [&](int, const std::vector<int>& take) {
        const auto [rank, share] = place(mean_over(with, take));
        ranks.push_back(rank);
        out.best_share += share;
    });
    out.best_share /= count;
    std::tie(out.low, out.high) = rank_percentiles(ranks);
    return out;
}

TableTrust table_trust(const SimulationTable& t, std::uint64_t seed)
{
    TableTrust out;
    if (!t.replicated() || !t.complete() || t.rows().size() < 2)
        return out;
    const auto r = accuracies_by_seed(t);
    const VarianceModel model = fit_variance_model(r);
    out.reliability = rank_reliability(r, model, seed);
    out.model_lines = variance_lines(model);
    const BestSet set = best_set(r, model);
    out.best_set = set.members;
    out.best_set_all = set.all;
    const RankIntervals intervals = rank_intervals(r, model);
    out.rank_low = intervals.low;
    out.rank_high = intervals.high;
    if (!r.replicates_held_by_all().empty())
        out.bootstrap = bootstrap_ranks(r, kResamples, seed);
    out.sd = r.sd();
    return out;
}

} // namespace rlda::core::sim

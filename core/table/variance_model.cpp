// The seed-blocked model of a replicated table, its global test, the confidence set for the best
// and the rank intervals (core/table/variance_model.h).
#include "core/table/variance_model.h"

#include "core/util/distributions.h"
#include "core/util/error.h"
#include "core/util/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

namespace rlda::core::sim {
namespace {

bool present(double y)
{
    return !std::isnan(y);
}

// The mean over the seeds both hold of a[r] - b[r], and how many seeds that is: summed as
// accuracy_key's whole billionths, exact, so that equal decimals differ by exactly 0.
struct Difference {
    double mean = 0.0;
    int seeds = 0;
};
Difference difference(const ReplicateAccuracies& r, std::size_t a, std::size_t b)
{
    std::int64_t sum = 0;
    int seeds = 0;
    for (const auto& seed : r.accuracy)
        if (present(seed[a]) && present(seed[b])) {
            sum += accuracy_key(seed[a]) - accuracy_key(seed[b]);
            ++seeds;
        }
    return {seeds > 0 ? static_cast<double>(sum) / (1e9 * seeds) : 0.0, seeds};
}

// Holm's critical values for m two-sided t tests on df degrees of freedom at family level `level`:
// step i (0-based, largest statistic first) rejects above the 1 - alpha / (2 (m - i)) quantile.
// Computed as needed and kept for the last (m, df, level): a table asks for the same ones k times.
double holm_critical(std::size_t m, double df, double level, std::size_t step)
{
    struct Memo {
        std::size_t m = 0;
        double df = 0.0, level = 0.0;
        std::vector<double> critical; // NaN: not computed yet
    };
    thread_local Memo memo;
    if (memo.m != m || memo.df != df || memo.level != level)
        memo = {m, df, level, std::vector<double>(m, std::numeric_limits<double>::quiet_NaN())};
    double& c = memo.critical[step];
    if (std::isnan(c))
        c = t_quantile(1.0 - (1.0 - level) / (2.0 * static_cast<double>(m - step)), df);
    return c;
}

// Holm's step-down over two-sided t tests of `t` (statistics on df degrees of freedom) at family
// level `level`: which are rejected. A NaN statistic (no common seed, or 0 / 0) is never rejected.
std::vector<bool> holm(const std::vector<double>& t, double df, double level)
{
    const std::size_t m = t.size();
    std::vector<std::size_t> order(m);
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto size = [&](std::size_t i) { return std::isnan(t[i]) ? -1.0 : std::abs(t[i]); };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return size(a) > size(b); });
    std::vector<bool> rejected(m, false);
    for (std::size_t step = 0; step < m; ++step) {
        const double stat = size(order[step]);
        if (stat < 0.0 || !(stat > holm_critical(m, df, level, step)))
            break;
        rejected[order[step]] = true;
    }
    return rejected;
}

// The t statistic of a difference: NaN without a common seed or when both it and sigma_e are 0.
double t_of(const Difference& d, double sigma_e)
{
    if (d.seeds == 0)
        return std::numeric_limits<double>::quiet_NaN();
    const double se = sigma_e * std::sqrt(2.0 / d.seeds);
    if (se == 0.0)
        return d.mean == 0.0 ? std::numeric_limits<double>::quiet_NaN()
                             : std::copysign(std::numeric_limits<double>::infinity(), d.mean);
    return d.mean / se;
}

} // namespace

double ranking_reliability(double theta, double n)
{
    return std::isinf(theta) ? 1.0 : n * theta / (1.0 + n * theta);
}

double VarianceModel::reliability(double n) const
{
    return ranking_reliability(theta, n);
}

SeedsNeeded seeds_needed(const VarianceModel& m, double target)
{
    // n theta / (1 + n theta) >= target  <=>  n >= target / (1 - target) / theta.
    const auto seeds = [&](double theta) -> std::optional<int> {
        if (!(theta > 0.0))
            return std::nullopt;
        if (std::isinf(theta))
            return 1;
        const double n = target / (1.0 - target) / theta;
        if (n > 1e9)
            return std::nullopt;
        return std::max(1, static_cast<int>(std::ceil(n - 1e-9)));
    };
    return {seeds(m.theta), seeds(m.theta_high), seeds(m.theta_low)};
}

namespace {

// The seed offsets b of the least-squares fit of y = a[s] + b[i] with cells missing: eliminating a
// (a[s] = the mean over s's seeds of y - b) leaves C b = q, C[i][i] = n_i - sum over s at i of
// 1 / c_s, C[i][j] = -(sum over s at both of 1 / c_s), q[i] = sum over s at i of (y - mean of s).
// C's rows sum to 0: b[0] = 0 fixes it, and Gaussian elimination with partial pivoting solves the
// rest. False when the rest is singular (seeds that share no sequence).
bool seed_offsets_exactly(const ReplicateAccuracies& r, const std::vector<int>& counts,
                          const std::vector<int>& per_seed, std::vector<double>& b)
{
    const std::size_t R = r.accuracy.size(), k = r.sequences();
    std::vector<std::vector<double>> c(R, std::vector<double>(R + 1, 0.0)); // [C | q]
    std::vector<std::size_t> at;
    for (std::size_t s = 0; s < k; ++s) {
        at.clear();
        double mean = 0.0;
        for (std::size_t i = 0; i < R; ++i)
            if (present(r.accuracy[i][s])) {
                at.push_back(i);
                mean += r.accuracy[i][s];
            }
        mean /= counts[s];
        const double w = 1.0 / counts[s];
        for (const std::size_t i : at) {
            c[i][R] += r.accuracy[i][s] - mean;
            for (const std::size_t j : at)
                c[i][j] -= w;
        }
    }
    for (std::size_t i = 0; i < R; ++i)
        c[i][i] += per_seed[i];
    // Unknowns b[1..R-1], equations 1..R-1 (b[0] = 0).
    const std::size_t n = R - 1;
    for (std::size_t col = 1; col <= n; ++col) {
        std::size_t pivot = col;
        for (std::size_t row = col + 1; row <= n; ++row)
            if (std::abs(c[row][col]) > std::abs(c[pivot][col]))
                pivot = row;
        if (std::abs(c[pivot][col]) < 1e-12)
            return false;
        std::swap(c[col], c[pivot]);
        for (std::size_t row = 1; row <= n; ++row) {
            if (row == col || c[row][col] == 0.0)
                continue;
            const double f = c[row][col] / c[col][col];
            for (std::size_t j = col; j <= R; ++j)
                c[row][j] -= f * c[col][j];
        }
    }
    b.assign(R, 0.0);
    for (std::size_t i = 1; i <= n; ++i)
        b[i] = c[i][R] / c[i][i];
    return true;
}

} // namespace

VarianceModel fit_variance_model(const ReplicateAccuracies& r)
{
    check_replicates(r);
    const std::size_t k = r.sequences();
    const auto R = static_cast<std::size_t>(r.replicates());
    if (R < 2)
        throw Error("replicates: the seed-blocked model needs at least 2 seeds");
    VarianceModel m;
    m.sequences = static_cast<int>(k);
    m.seeds = static_cast<int>(R);
    m.counts.assign(k, 0);
    std::vector<int> per_seed(R, 0);
    for (std::size_t i = 0; i < R; ++i)
        for (std::size_t s = 0; s < k; ++s)
            if (present(r.accuracy[i][s])) {
                ++m.counts[s];
                ++per_seed[i];
                ++m.observations;
            }
    for (std::size_t s = 0; s < k; ++s)
        if (m.counts[s] == 0)
            throw Error(fmt::format("replicates: sequence {} has no accuracy at any seed", s));
    m.balanced = m.observations == static_cast<std::int64_t>(k * R);

    // Least squares of y = a[s] + b[r]: exactly through the seeds' normal equations when unbalanced,
    // else by alternating means (one pass when balanced, or should those equations be singular).
    std::vector<double> a(k, 0.0), b(R, 0.0);
    const bool solved = !m.balanced && seed_offsets_exactly(r, m.counts, per_seed, b);
    if (solved)
        for (std::size_t s = 0; s < k; ++s) {
            double sum = 0.0;
            for (std::size_t i = 0; i < R; ++i)
                if (present(r.accuracy[i][s]))
                    sum += r.accuracy[i][s] - b[i];
            a[s] = sum / m.counts[s];
        }
    for (int pass = 0; !solved && pass < 10'000; ++pass) {
        double moved = 0.0;
        for (std::size_t s = 0; s < k; ++s) {
            double sum = 0.0;
            for (std::size_t i = 0; i < R; ++i)
                if (present(r.accuracy[i][s]))
                    sum += r.accuracy[i][s] - b[i];
            const double next = sum / m.counts[s];
            moved = std::max(moved, std::abs(next - a[s]));
            a[s] = next;
        }
        for (std::size_t i = 0; i < R; ++i) {
            double sum = 0.0;
            for (std::size_t s = 0; s < k; ++s)
                if (present(r.accuracy[i][s]))
                    sum += r.accuracy[i][s] - a[s];
            b[i] = per_seed[i] > 0 ? sum / per_seed[i] : 0.0;
        }
        if (pass > 0 && moved < 1e-14)
            break;
    }
    // Effects at an average seed; a balanced table's are its decimal means exactly.
    const double offset = std::accumulate(b.begin(), b.end(), 0.0) / static_cast<double>(R);
    m.effect.resize(k);
    const std::vector<double> means = r.mean();
    for (std::size_t s = 0; s < k; ++s)
        m.effect[s] = m.balanced ? means[s] : a[s] + offset;

    // Sums of squares: the full model, seeds alone, sequences alone.
    std::vector<double> seed_mean(R, 0.0), sequence_mean(k, 0.0);
    for (std::size_t i = 0; i < R; ++i)
        for (std::size_t s = 0; s < k; ++s)
            if (present(r.accuracy[i][s])) {
                seed_mean[i] += r.accuracy[i][s] / per_seed[i];
                sequence_mean[s] += r.accuracy[i][s] / m.counts[s];
            }
    double sse = 0.0, sse_seeds = 0.0, sse_sequences = 0.0;
    for (std::size_t i = 0; i < R; ++i)
        for (std::size_t s = 0; s < k; ++s)
            if (present(r.accuracy[i][s])) {
                const double y = r.accuracy[i][s];
                sse += (y - a[s] - b[i]) * (y - a[s] - b[i]);
                sse_seeds += (y - seed_mean[i]) * (y - seed_mean[i]);
                sse_sequences += (y - sequence_mean[s]) * (y - sequence_mean[s]);
            }
    const auto n = static_cast<double>(m.observations);
    m.df_error = n - static_cast<double>(k) - static_cast<double>(R) + 1.0;
    m.df_sequences = static_cast<double>(k) - 1.0;
    if (m.df_error < 1.0) {
        m.df_error = 0.0;
        return m; // nothing left to estimate the noise from: no test, no components
    }
    // Rounding may leave a sum of squares a hair below zero for identical replicates.
    const double ms_e = std::max(0.0, sse) / m.df_error;
    const double ms_sequences = std::max(0.0, sse_seeds - sse) / m.df_sequences;
    const double ms_seeds = std::max(0.0, sse_sequences - sse) / (static_cast<double>(R) - 1.0);
    // The mean counts of the method of moments (R and k when balanced).
    double square_counts = 0.0, square_per_seed = 0.0;
    for (const int c : m.counts)
        square_counts += static_cast<double>(c) * c;
    for (const int c : per_seed)
        square_per_seed += static_cast<double>(c) * c;
    const double n_sequences = (n - square_counts / n) / m.df_sequences;
    const double n_seeds = (n - square_per_seed / n) / (static_cast<double>(R) - 1.0);
    m.sigma_e = std::sqrt(ms_e);
    m.sigma_sequences = std::sqrt(std::max(0.0, (ms_sequences - ms_e) / n_sequences));
    m.sigma_seeds = std::sqrt(std::max(0.0, (ms_seeds - ms_e) / n_seeds));

    // A scale below a billionth of an accuracy is rounding: replicates that agree exactly.
    if (ms_e < 1e-24) {
        m.sigma_e = 0.0;
        const bool differ = ms_sequences > 1e-24;
        m.f = differ ? std::numeric_limits<double>::infinity() : 0.0;
        m.p_value = differ ? 0.0 : 1.0;
        m.theta = m.theta_low = m.theta_high = differ ? std::numeric_limits<double>::infinity() : 0.0;
        return m;
    }
    m.f = ms_sequences / ms_e;
    m.p_value = 1.0 - f_cdf(m.f, m.df_sequences, m.df_error);
    m.theta = m.sigma_sequences * m.sigma_sequences / ms_e;
    // F / (1 + n0 theta) ~ F(k - 1, df_e): theta's 95 % interval.
    const auto theta_at = [&](double p) {
        return std::max(0.0, (m.f / f_quantile(p, m.df_sequences, m.df_error) - 1.0) / n_sequences);
    };
    m.theta_low = theta_at(0.975);
    m.theta_high = theta_at(0.025);
    return m;
}

BestSet best_set(const ReplicateAccuracies& r, const VarianceModel& m, double level)
{
    BestSet out;
    out.level = level;
    const std::size_t k = r.sequences();
    std::vector<std::int64_t> order(k);
    std::iota(order.begin(), order.end(), std::int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        return accuracy_key(m.effect[static_cast<std::size_t>(a)]) >
               accuracy_key(m.effect[static_cast<std::size_t>(b)]);
    });
    if (!m.separates(level)) {
        out.all = true;
        out.members = order;
        return out;
    }
    out.margin = m.sigma_e > 0.0 ? dunnett_one_sided(static_cast<int>(k) - 1, m.df_error, level) : 0.0;
    for (const std::int64_t s : order) {
        bool beaten = false;
        for (std::size_t j = 0; j < k && !beaten; ++j) {
            if (j == static_cast<std::size_t>(s))
                continue;
            const Difference d = difference(r, j, static_cast<std::size_t>(s));
            if (d.seeds == 0)
                continue;
            const double allowed = out.margin * m.sigma_e * std::sqrt(2.0 / d.seeds);
            beaten = accuracy_key(d.mean) > accuracy_key(allowed);
        }
        if (!beaten)
            out.members.push_back(s);
    }
    return out;
}

std::pair<int, int> rank_interval(const ReplicateAccuracies& r, const VarianceModel& m, std::size_t s,
                                  double level)
{
    const std::size_t k = r.sequences();
    int low = 1, high = static_cast<int>(k);
    if (m.df_error <= 0.0)
        return {low, high};
    std::vector<double> t;
    t.reserve(k - 1);
    for (std::size_t j = 0; j < k; ++j)
        if (j != s)
            t.push_back(t_of(difference(r, j, s), m.sigma_e)); // > 0: j above s
    const std::vector<bool> rejected = holm(t, m.df_error, level);
    for (std::size_t i = 0; i < t.size(); ++i)
        if (rejected[i]) {
            if (t[i] > 0.0)
                ++low; // significantly above s
            else
                --high; // significantly below
        }
    return {low, high};
}

RankIntervals rank_intervals(const ReplicateAccuracies& r, const VarianceModel& m, double level)
{
    RankIntervals out;
    out.level = level;
    const std::size_t k = r.sequences();
    out.low.resize(k);
    out.high.resize(k);
    for (std::size_t s = 0; s < k; ++s)
        std::tie(out.low[s], out.high[s]) = rank_interval(r, m, s, level);
    return out;
}

std::pair<int, int> candidate_rank_interval(const ReplicateAccuracies& r, const VarianceModel& m,
                                            const std::vector<double>& candidate, double level)
{
    if (candidate.size() != static_cast<std::size_t>(r.replicates()))
        throw Error(fmt::format("replicates: a candidate of {} accuracies for {} replicates",
                                candidate.size(), r.replicates()));
    const std::size_t k = r.sequences();
    int low = 1, high = static_cast<int>(k) + 1;
    if (m.df_error <= 0.0)
        return {low, high};
    ReplicateAccuracies with = r;
    for (std::size_t i = 0; i < candidate.size(); ++i)
        with.accuracy[i].push_back(candidate[i]);
    std::vector<double> t;
    for (std::size_t j = 0; j < k; ++j)
        t.push_back(t_of(difference(with, j, k), m.sigma_e));
    const std::vector<bool> rejected = holm(t, m.df_error, level);
    for (std::size_t j = 0; j < k; ++j)
        if (rejected[j]) {
            if (t[j] > 0.0)
                ++low;
            else
                --high;
        }
    return {low, high};
}

bool candidate_among_best(const ReplicateAccuracies& r, const VarianceModel& m,
                          const std::vector<double>& candidate, double level)
{
    if (candidate.size() != static_cast<std::size_t>(r.replicates()))
        throw Error(fmt::format("replicates: a candidate of {} accuracies for {} replicates",
                                candidate.size(), r.replicates()));
    if (!m.separates(level))
        return true;
    const std::size_t k = r.sequences();
    ReplicateAccuracies with = r;
    for (std::size_t i = 0; i < candidate.size(); ++i)
        with.accuracy[i].push_back(candidate[i]);
    const double margin = m.sigma_e > 0.0 ? dunnett_one_sided(static_cast<int>(k), m.df_error, level) : 0.0;
    for (std::size_t j = 0; j < k; ++j) {
        const Difference d = difference(with, j, k);
        if (d.seeds > 0 && accuracy_key(d.mean) > accuracy_key(margin * m.sigma_e * std::sqrt(2.0 / d.seeds)))
            return false;
    }
    return true;
}

std::vector<std::string> variance_lines(const VarianceModel& m)
{
    std::vector<std::string> lines;
    if (m.df_error <= 0.0) {
        lines.push_back(
            fmt::format("do the {} sequences differ? untestable: {} accuracies at {} seeds leave no degree "
                        "of freedom for the noise",
                        m.sequences, m.observations, m.seeds));
        return lines;
    }
    const std::string test =
        std::isinf(m.f)
            ? std::string("the seeds agree exactly")
            : fmt::format("F({:g}, {:g}) = {:.2f}, p {}", m.df_sequences, m.df_error, m.f,
                          m.p_value < 0.0001 ? std::string("< 0.0001") : fmt::format("= {:.4f}", m.p_value));
    lines.push_back(
        m.separates()
            ? fmt::format("do the {} sequences differ? yes: {}", m.sequences, test)
            : fmt::format("do the {} sequences differ? not shown: {}; at these seeds the table cannot "
                          "tell its sequences apart",
                          m.sequences, test));
    lines.push_back(
        fmt::format("sd of accuracy: sequence x seed noise {:.4f} (df {:g}), between sequences {:.4f}, "
                    "per-seed offset {:.4f} (cancels in every comparison at equal seeds)",
                    m.sigma_e, m.df_error, m.sigma_sequences, m.sigma_seeds));
    return lines;
}

} // namespace rlda::core::sim

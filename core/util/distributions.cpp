// Student's t, Fisher's F (through the regularized incomplete beta, by its continued fraction) and
// Dunnett's one-sided constant (a quadrature over the normal and the studentizing chi).
#include "core/util/distributions.h"

#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

namespace rlda::core {
namespace {

// The continued fraction of I_x(a, b) (modified Lentz), which converges fast for x < (a + 1) / (a + b + 2).
double beta_fraction(double x, double a, double b)
{
    constexpr double tiny = 1e-300;
    const auto guard = [](double v) { return std::abs(v) < tiny ? tiny : v; };
    double c = 1.0;
    double d = 1.0 / guard(1.0 - (a + b) * x / (a + 1.0));
    double h = d;
    for (int m = 1; m <= 1000; ++m) {
        const double even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        d = 1.0 / guard(1.0 + even * d);
        c = guard(1.0 + even / c);
        h *= d * c;
        const double odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 / guard(1.0 + odd * d);
        c = guard(1.0 + odd / c);
        const double step = d * c;
        h *= step;
        if (std::abs(step - 1.0) < 1e-15)
            break;
    }
    return h;
}

// The x with cdf(x) = p, for a continuous, increasing cdf on [0, inf) (`positive`) or the whole
// line: bisection after bracketing, to a relative `tolerance`.
double invert(const std::function<double(double)>& cdf, double p, bool positive, double tolerance = 1e-12)
{
    if (!(p > 0.0 && p < 1.0))
        throw Error(fmt::format("a quantile's probability must lie strictly between 0 and 1, not {}", p));
    double lo = positive ? 0.0 : -1.0, hi = 1.0;
    while (cdf(hi) < p)
        hi *= 2.0;
    while (!positive && cdf(lo) > p)
        lo *= 2.0;
    for (int i = 0; i < 200 && hi - lo > tolerance * (1.0 + std::abs(hi)); ++i) {
        const double mid = 0.5 * (lo + hi);
        (cdf(mid) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

double normal_cdf(double z)
{
    return 0.5 * std::erfc(-z / std::numbers::sqrt2);
}

// Composite Simpson's rule of f over [a, b] with `n` (even) intervals.
template <class F> double simpson(F f, double a, double b, int n)
{
    const double h = (b - a) / n;
    double sum = f(a) + f(b);
    for (int i = 1; i < n; ++i)
        sum += (i % 2 == 1 ? 4.0 : 2.0) * f(a + i * h);
    return sum * h / 3.0;
}

// P(max_j Z_j - Z_0 <= c) for m + 1 independent standard normals: the integral over z of
// phi(z) Phi(z + c)^m.
double many_to_one(int m, double c)
{
    const auto f = [&](double z) {
        return std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi) * std::pow(normal_cdf(z + c), m);
    };
    return simpson(f, -9.0, 9.0 + std::max(0.0, -c), 240);
}

} // namespace

double incomplete_beta(double x, double a, double b)
{
    if (!(a > 0.0 && b > 0.0) || !(x >= 0.0 && x <= 1.0))
        throw Error(fmt::format("incomplete beta: x = {} must lie in [0, 1] and a = {}, b = {} be positive",
                                x, a, b));
    if (x == 0.0 || x == 1.0)
        return x;
    const double front =
        std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * beta_fraction(x, a, b) / a;
    return 1.0 - front * beta_fraction(1.0 - x, b, a) / b;
}

double t_cdf(double t, double df)
{
    if (!(df > 0.0))
        throw Error(fmt::format("Student's t needs positive degrees of freedom, not {}", df));
    if (std::isinf(t))
        return t > 0.0 ? 1.0 : 0.0;
    const double tail = 0.5 * incomplete_beta(df / (df + t * t), 0.5 * df, 0.5);
    return t >= 0.0 ? 1.0 - tail : tail;
}

double t_quantile(double p, double df)
{
    return invert([df](double t) { return t_cdf(t, df); }, p, false);
}

double f_cdf(double f, double df1, double df2)
{
    if (!(df1 > 0.0 && df2 > 0.0))
        throw Error(fmt::format("Fisher's F needs positive degrees of freedom, not ({}, {})", df1, df2));
    if (f <= 0.0)
        return 0.0;
    if (std::isinf(f))
        return 1.0;
    return incomplete_beta(df1 * f / (df1 * f + df2), 0.5 * df1, 0.5 * df2);
}

double f_quantile(double p, double df1, double df2)
{
    return invert([=](double f) { return f_cdf(f, df1, df2); }, p, true);
}

double dunnett_one_sided(int comparisons, double df, double level)
{
    if (comparisons < 1 || !(df >= 1.0) || !(level > 0.0 && level < 1.0))
        throw Error(
            fmt::format("Dunnett's constant needs at least 1 comparison ({}), at least 1 degree of freedom "
                        "({}) and a level between 0 and 1 ({})",
                        comparisons, df, level));
    // Recent constants: a calibration simulation asks for the same one a thousand times, and a race's
    // simulation for one per round (its df grows with each seed), trial after trial.
    struct Memo {
        int m;
        double df, level, d;
    };
    thread_local std::array<Memo, 256> memo{};
    thread_local std::size_t next = 0;
    for (const Memo& k : memo)
        if (k.m == comparisons && k.df == df && k.level == level)
            return k.d;

    std::function<double(double)> coverage;
    if (df > 1e6) {
        coverage = [=](double d) { return many_to_one(comparisons, std::numbers::sqrt2 * d); };
    } else {
        // S = sqrt(chi2_df / df): its log density, and the range outside which it is below e^-40 of its peak.
        const double norm = std::log(2.0) + 0.5 * df * std::log(0.5 * df) - std::lgamma(0.5 * df);
        const auto log_density = [=](double s) { return norm + (df - 1.0) * std::log(s) - 0.5 * df * s * s; };
        const double mode = std::sqrt(std::max(df - 1.0, 0.5) / df);
        const double floor = log_density(mode) - 40.0;
        double lo = 0.0, hi = mode;
        for (int i = 0; i < 100; ++i) { // lo: where the density climbs past the floor
            const double mid = 0.5 * (lo + hi);
            (log_density(mid) < floor ? lo : hi) = mid;
        }
        const double s_lo = std::max(lo, 1e-9);
        double top = mode + 1.0;
        while (log_density(top) > floor)
            top *= 2.0;
        lo = mode;
        hi = top;
        for (int i = 0; i < 100; ++i) {
            const double mid = 0.5 * (lo + hi);
            (log_density(mid) > floor ? lo : hi) = mid;
        }
        const double s_hi = hi;
        coverage = [=](double d) {
            const auto f = [&](double s) {
                return std::exp(log_density(s)) * many_to_one(comparisons, std::numbers::sqrt2 * d * s);
            };
            return simpson(f, s_lo, s_hi, 160);
        };
    }
    const double d = invert(coverage, level, true, 1e-7);
    memo[next] = {comparisons, df, level, d};
    next = (next + 1) % memo.size();
    return d;
}

} // namespace rlda::core

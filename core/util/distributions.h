// The sampling distributions the tables' statistics test against: Student's t, Fisher's F, and the
// one-sided many-to-one constant of Dunnett (Gupta's subset selection, Hsu's MCB). Pure functions,
// double precision; accurate to about 1e-10 (the incomplete beta) and 1e-4 (Dunnett's constant,
// a two-dimensional quadrature), far finer than the statistics need.
#pragma once

namespace rlda::core {

// The regularized incomplete beta function I_x(a, b), a, b > 0, x in [0, 1].
double incomplete_beta(double x, double a, double b);

// P(T <= t) for Student's t with `df` > 0 degrees of freedom.
double t_cdf(double t, double df);
// The t with t_cdf(t, df) = p, p in (0, 1).
double t_quantile(double p, double df);

// P(F <= f) for Fisher's F with (df1, df2) degrees of freedom.
double f_cdf(double f, double df1, double df2);
// The f with f_cdf(f, df1, df2) = p, p in (0, 1).
double f_quantile(double p, double df1, double df2);

// Dunnett's one-sided constant: the d with P(max_j (Z_j - Z_0) / (sqrt(2) S) <= d) = level, for
// Z_0..Z_m independent standard normals and S^2 an independent chi-square over `df` (>= 1) degrees
// of freedom divided by them: m = `comparisons` (>= 1) comparisons with one, correlation 1/2.
// One comparison gives t_quantile(level, df). `df` of infinity (or above 1e6) takes S = 1.
double dunnett_one_sided(int comparisons, double df, double level = 0.95);

} // namespace rlda::core

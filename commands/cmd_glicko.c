/*
 * cmd_glicko.c: one Glicko-2 rating period for one player, step by step
 * as Glickman's "Example of the Glicko-2 system" numbers them, with the
 * Illinois algorithm for the new volatility (its step 5.1-5.4), and
 * the pairwise results a multi-player game gives (cmd_glicko_pair).
 */
#include "cmd_glicko.h"

#include <math.h>

/* The factor between the Glicko scale and the Glicko-2 scale. */
#define SCALE 173.7178
/* The convergence tolerance of the volatility iteration. */
#define EPSILON 0.000001
#define PI 3.14159265358979323846

static double g_of(double phi) {
  return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI));
}

static double e_of(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* Step 5's function f(x), whose root gives the new volatility. */
static double f_of(double x, double delta, double phi, double v, double a,
                   double tau) {
  double ex = exp(x);
  double d = phi * phi + v + ex;
  return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) -
         (x - a) / (tau * tau);
}

cmd_glicko cmd_glicko_update(cmd_glicko me, const cmd_glicko_result *res, int n,
                             double tau) {
  double mu = (me.rating - 1500.0) / SCALE;
  double phi = me.rd / SCALE;
  double sigma = me.volatility;
  cmd_glicko out = me;

  if (n <= 0 || !res) {
    /* Step 6 alone: a period without games widens the deviation. */
    out.rd = sqrt(phi * phi + sigma * sigma) * SCALE;
    return out;
  }
  /* Steps 3 and 4: the estimated variance v and improvement delta. */
  double inv_v = 0.0, sum = 0.0;
  for (int j = 0; j < n; j++) {
    double mu_j = (res[j].rating - 1500.0) / SCALE;
    double phi_j = res[j].rd / SCALE;
    double g = g_of(phi_j), e = e_of(mu, mu_j, phi_j);
    inv_v += g * g * e * (1.0 - e);
    sum += g * (res[j].score - e);
  }
  double v = 1.0 / inv_v;
  double delta = v * sum;

  /* Step 5: the new volatility (Illinois algorithm). */
  double a = log(sigma * sigma);
  double A = a, B;
  if (delta * delta > phi * phi + v) {
    B = log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f_of(a - k * tau, delta, phi, v, a, tau) < 0.0 && k < 1000)
      k++;
    B = a - k * tau;
  }
  double fa = f_of(A, delta, phi, v, a, tau);
  double fb = f_of(B, delta, phi, v, a, tau);
  for (int it = 0; fabs(B - A) > EPSILON && it < 1000; it++) {
    double C = A + (A - B) * fa / (fb - fa);
    double fc = f_of(C, delta, phi, v, a, tau);
    if (fc * fb <= 0.0) {
      A = B;
      fa = fb;
    } else {
      fa /= 2.0;
    }
    B = C;
    fb = fc;
  }
  double sigma2 = exp(A / 2.0);

  /* Steps 6-8: the new deviation and rating, back on the Glicko scale. */
  double phi_star = sqrt(phi * phi + sigma2 * sigma2);
  double phi2 = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  double mu2 = mu + phi2 * phi2 * sum;
  out.rating = mu2 * SCALE + 1500.0;
  out.rd = phi2 * SCALE;
  out.volatility = sigma2;
  return out;
}

double cmd_glicko_pair(const eng_result *res, int i, int j) {
  bool wi = res->winners >> i & 1, wj = res->winners >> j & 1;
  if (wi && wj)
    return -1;
  if (wi != wj)
    return wi ? 1.0 : 0.0;
  if (!res->winners || res->score[i] == res->score[j])
    return 0.5;
  return res->score[i] > res->score[j] ? 1.0 : 0.0;
}

/**
 * The constants of balancerPowFloat.ts's ln and exp as double-doubles, computed once at load: LogExpMath's a_k and
 * x_k that the proven range reaches, exp's products of the a_k as the contract truncates them, and the reciprocals
 * that stand for its divisions by constants.
 */
import { dd, div, R, reciprocal, SPLITTER } from './balancerDoubleDouble.ts';

const E20 = 1e20;
/** A double-double constant (hi, lo) with hi's Veltkamp halves, as mul splits it: the products written out on locals. */
const split = ([h, l]: readonly [number, number]): number[] => {
  const t = SPLITTER * h;
  const hh = t - (t - h);
  return [h, l, hh, h - hh];
};
/** ln's reductions this range reaches: a_k (e^(x_k / 1e20), 20 decimals), 1e20 / a_k, x_k (k = 6 .. 11). */
export const LN_STEPS = (
  [
    [738905609893065022723n, 200000000000000000000],
    [271828182845904523536n, 100000000000000000000],
    [164872127070012814685n, 50000000000000000000],
    [128402541668774148407n, 25000000000000000000],
    [113314845306682631683n, 12500000000000000000],
    [106449445891785942956n, 6250000000000000000],
  ] as const
).map(([a, x]) => {
  const [ah, al] = dd(a);
  div(E20, 0, ah, al);
  return { ah, al, rh: R[0], rl: R[1], x };
});
/** exp's reductions x_4 .. x_9 (20 decimals) this range reaches, and their a_k. */
export const EXP_X = [8e20, 4e20, 2e20, 1e20, 5e19, 2.5e19];
const EXP_A = [
  298095798704172827474000n,
  5459815003314423907810n,
  738905609893065022723n,
  271828182845904523536n,
  164872127070012814685n,
  128402541668774148407n,
];
/**
 * exp's product of the a_k taken, for each subset (bit 5 - i for x_(4+i)), as the contract truncates it step by step
 * (the first factor as it is), split as above, 4 doubles each; zeros for none (the contract's product stays 1e20 and the result is seriesSum / 100).
 */
export const EXP_PRODUCTS = new Float64Array(
  Array.from({ length: 64 }, (_, mask) => {
    let product: bigint | undefined;
    for (let i = 0; i < 6; i++) {
      if ((mask >> (5 - i)) & 1) product = product === undefined ? EXP_A[i] : (product * EXP_A[i]) / 10n ** 20n;
    }
    return product === undefined ? [0, 0, 0, 0] : split(dd(product));
  }).flat(),
);
export const TAYLOR_DIVISORS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
/** 1 / n for those divisors as double-doubles (within 2^-106 relative). */
export const TAYLOR_INVERSES = TAYLOR_DIVISORS.map((n) => {
  div(1, 0, n, 0);
  return [R[0], R[1]] as const;
});
/** ln's series divisors 3 .. 11 and their reciprocals (the divisions by constants, as products by them). */
export const LN_ODD = [3, 5, 7, 9, 11];
/** 1 / 1e20 split likewise (hi, lo, hi's halves). */
export const SPLIT_INV_E20 = new Float64Array(split(reciprocal(E20)));
/** ln's series divisors' reciprocals, split likewise, 4 doubles each. */
export const SPLIT_LN_ODD = new Float64Array(LN_ODD.flatMap((n) => split(reciprocal(n))));
/** 1 / n for exp's Taylor divisors, split likewise, 4 doubles each. */
export const TAYLOR_F = new Float64Array(TAYLOR_INVERSES.flatMap(split));
/** 1 / 100 and 1 / 1e22 (exp's last divisions) split likewise. */
export const SPLIT_INV_100 = new Float64Array(split(reciprocal(100)));
export const SPLIT_INV_E22 = new Float64Array(split(reciprocal(10n ** 22n)));

/**
 * Reference values of the overwintered Drought Code, copied from the cffdrs R package
 * (github.com/cffdrs/cffdrs_r, commit 18116cf5ea59f03bba4123fd72fcdd302eac2910):
 *  - tests/testthat/test_OverwinterDroughtCode.r with its pinned results
 *    tests/data/OverwinterDroughtCode_test_wDC_1.csv, _2.csv and _3.csv (the worked
 *    examples of the function's documentation);
 *  - a sample of the rows of tests/data/OverwinterDroughtCode.csv, the grid the
 *    package checks the function against (rows with a = 0, whose answer is Inf, are
 *    left out: this service refuses a = 0).
 * Values as R printed them (15 significant digits).
 *
 * And the one case of xclim's `test_overwintering_drought_code` (github.com/Ouranosinc/xclim,
 * xclim/testing/tests/test_fwi.py, commit 045b37ce4e665b3e7d0a9b68549b94331aaaa68e) that
 * is not cffdrs's already and uses the standard floor of 15 (its other case lowers the
 * floor to 10, which this service does not offer); xclim pins 6 significant digits and
 * checks with a relative tolerance of 1e-6.
 */
export interface OverwinterCase {
  dcf: number;
  rw: number;
  a?: number;
  b?: number;
  dcs: number;
  source: string;
  /** Relative tolerance of the pinned value: 1e-13 for R's 15 digits, 1e-6 for xclim's. */
  rtol: number;
}

export const CFFDRS_OVERWINTER_CASES: readonly OverwinterCase[] = [
  { dcf: 300, rw: 110, dcs: 109.465692142687, rtol: 1e-13, source: 'OverwinterDroughtCode_test_wDC_1 (defaults a = b = 0.75)' },
  { dcf: 300, rw: 110, a: 1.0, b: 0.9, dcs: 16.3531515740466, rtol: 1e-13, source: 'OverwinterDroughtCode_test_wDC_2' },
  { dcf: 400, rw: 99, a: 0.75, b: 0.75, dcs: 177.521805422642, rtol: 1e-13, source: 'OverwinterDroughtCode_test_wDC_3, row 1' },
  { dcf: 300, rw: 110, a: 1.0, b: 0.9, dcs: 16.3531515740466, rtol: 1e-13, source: 'OverwinterDroughtCode_test_wDC_3, row 2' },
  { dcf: 250, rw: 200, a: 0.75, b: 0.75, dcs: 15, rtol: 1e-13, source: 'OverwinterDroughtCode_test_wDC_3, row 3 (floored at 15)' },
  { dcf: 2.7, rw: 0, a: 0.15, b: 0, dcs: 761.547993954352, rtol: 1e-13, source: 'OverwinterDroughtCode.csv' },
  { dcf: 999, rw: 0, a: 0.15, b: 0, dcs: 1757.84799395435, rtol: 1e-13, source: 'OverwinterDroughtCode.csv' },
  { dcf: 5.4, rw: 0, a: 0.3, b: 0, dcs: 486.989121730374, rtol: 1e-13, source: 'OverwinterDroughtCode.csv' },
  { dcf: 696.6, rw: 0, a: 0.45, b: 0.9, dcs: 1016.00307848711, rtol: 1e-13, source: 'OverwinterDroughtCode.csv' },
  { dcf: 18.9, rw: 0, a: 0.6, b: 0.9, dcs: 223.230249506396, rtol: 1e-13, source: 'OverwinterDroughtCode.csv' },
  { dcf: 21.6, rw: 0, a: 0.75, b: 0.9, dcs: 136.672828980712, rtol: 1e-13, source: 'OverwinterDroughtCode.csv' },
  { dcf: 17.7, rw: 243, a: 0.75, b: 0.9, dcs: 15, rtol: 1e-13, source: 'OverwinterDroughtCode.csv' },
  { dcf: 0, rw: 0, a: 0.9, b: 0.9, dcs: 42.1442062631305, rtol: 1e-13, source: 'OverwinterDroughtCode.csv' },
  { dcf: 996.3, rw: 0, a: 0.9, b: 0.9, dcs: 1038.44420626313, rtol: 1e-13, source: 'OverwinterDroughtCode.csv' },
  { dcf: 100, rw: 50, a: 0.75, b: 0.75, dcs: 105.176, rtol: 1e-6, source: 'xclim test_overwintering_drought_code' },
];

/**
 * Reference head-fire rates of spread (m/min) from the cffdrs R package's test data
 * (cffdrs/cffdrs_r, tests/data/RateOfSpread.csv at commit 18116cf5ea59f03bba4123fd72fcdd302eac2910,
 * GPL-2): the output of its ROScalc for the fuel type, ISI, BUI and degree of curing
 * (CC, %, grass only) of each row. Wang X. et al. (2017), cffdrs: an R package for the
 * Canadian Forest Fire Danger Rating System, Ecological Processes 6(1):5. Rows copied
 * as printed (15 significant digits) for the fuel types fire-behaviour.ts uses.
 */
import type { FbpFuelType } from '../fire-behaviour';

export const CFFDRS_ROS: readonly { type: FbpFuelType; isi: number; bui: number; cc: number; ros: number }[] = [
  { type: 'C-7', isi: 241.2, bui: 874.8, cc: 0, ros: 48.0747121966149 },
  { type: 'C-7', isi: 19.8, bui: 437.4, cc: 0, ros: 9.80066895597805 },
  { type: 'C-7', isi: 36, bui: 437.4, cc: 27, ros: 21.1830585603711 },
  { type: 'C-7', isi: 90, bui: 0, cc: 27, ros: 39.4034059028362 },
  { type: 'C-7', isi: 79.2, bui: 218.7, cc: 27, ros: 38.8245599114085 },
  { type: 'S-1', isi: 90, bui: 874.8, cc: 0, ros: 98.1568873762261 },
  { type: 'S-1', isi: 6.3, bui: 437.4, cc: 27, ros: 10.6390355816747 },
  { type: 'S-1', isi: 49.5, bui: 218.7, cc: 27, ros: 73.0143532695197 },
  { type: 'S-1', isi: 141.3, bui: 0, cc: 0, ros: 73.5362891935818 },
  { type: 'S-2', isi: 13.5, bui: 437.4, cc: 0, ros: 12.343976022424 },
  { type: 'S-2', isi: 40.5, bui: 218.7, cc: 0, ros: 34.3067848273302 },
  { type: 'S-2', isi: 83.7, bui: 0, cc: 27, ros: 38.2763706898035 },
  { type: 'S-3', isi: 4.5, bui: 437.4, cc: 27, ros: 2.02337735083252 },
  { type: 'S-3', isi: 15.3, bui: 218.7, cc: 0, ros: 28.4632907399773 },
  { type: 'S-3', isi: 74.7, bui: 0, cc: 27, ros: 54.6409866058335 },
  { type: 'O-1b', isi: 297, bui: 874.8, cc: 27, ros: 5.23895546126404 },
  { type: 'O-1b', isi: 5.4, bui: 874.8, cc: 27, ros: 0.263379208048887 },
  { type: 'O-1b', isi: 143.1, bui: 874.8, cc: 54, ros: 32.0705075127765 },
  { type: 'O-1b', isi: 24.3, bui: 0, cc: 54, ros: 12.5793551105447 },
  { type: 'O-1b', isi: 5.4, bui: 874.8, cc: 81, ros: 7.79194535216139 },
  { type: 'O-1b', isi: 40.5, bui: 0, cc: 81, ros: 96.7071347770001 },
  { type: 'O-1b', isi: 59.4, bui: 437.4, cc: 81, ros: 123.509057177188 },
];

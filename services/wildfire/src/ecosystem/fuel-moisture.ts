/**
 * Sharples' fuel moisture index (Sharples, McRae, Weber & Gill 2009, "A simple
 * index for assessing fuel moisture content", Environmental Modelling & Software
 * 24: 637–646):
 *
 *   FMI = 10 − 0.25 · (T − RH)
 *
 * with T the air temperature (°C) and RH the relative humidity (%). It tracks the
 * moisture of fine dead fuel: the lower, the drier (hot dry afternoons fall below
 * 5; mild humid days sit around 20–30). It is dimensionless and unbounded, so it is
 * reported as computed, to 3 decimals (inputs come to 0.1 °C and 1 %).
 */
export function sharplesFmi(temp: number, rh: number): number {
  return Math.round((10 - 0.25 * (temp - rh)) * 1000) / 1000;
}

/**
 * The statistics the suite reports: medians of repeated runs, spread, percentiles and ratios.
 * Everything here is pure so that it can be tested without running a benchmark.
 */

/** The median of a non-empty list (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The q-quantile (0 ≤ q ≤ 1) of the first `count` values, by linear interpolation between closest ranks.
 * Sorts `values` in place when `sorted` is false (latency samples are large; copying them is wasteful).
 */
export function quantile(
  values: Float64Array | number[],
  q: number,
  count = values.length,
  sorted = false,
): number {
  if (count === 0) return Number.NaN;
  if (q < 0 || q > 1) throw new RangeError(`quantile out of range: ${q}`);
  const view = values instanceof Float64Array ? values.subarray(0, count) : values.slice(0, count);
  if (!sorted) view.sort((a, b) => a - b);
  const position = (count - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = view[lower]!;
  return low + (view[upper]! - low) * (position - lower);
}

export interface Summary {
  median: number;
  min: number;
  max: number;
  /** Half the distance between min and max, relative to the median: a rough noise indicator. */
  spread: number;
}

export function summarize(samples: readonly number[]): Summary {
  const m = median(samples);
  const min = Math.min(...samples);
  const max = Math.max(...samples);
  return { median: m, min, max, spread: m === 0 ? 0 : (max - min) / 2 / Math.abs(m) };
}

/**
 * How many times better `value` is than `reference`: value / reference when higher is better, reference /
 * value when lower is better. Undefined when either side is missing or zero.
 */
export function ratio(
  value: number | undefined,
  reference: number | undefined,
  better: 'higher' | 'lower',
): number | undefined {
  if (
    value === undefined ||
    reference === undefined ||
    !Number.isFinite(value) ||
    !Number.isFinite(reference)
  ) {
    return undefined;
  }
  if (value === 0 || reference === 0) return undefined;
  return better === 'higher' ? value / reference : reference / value;
}

/** The order implementations run in for a given run: rotated by one each run, so none always goes first. */
export function rotation<T>(items: readonly T[], run: number): T[] {
  if (items.length === 0) return [];
  const shift = ((run % items.length) + items.length) % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

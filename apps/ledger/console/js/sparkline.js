// Telemetry over time as small inline SVG charts, from the samples the
// ledger keeps (GET …/telemetry/history: one per device per step). Each
// chart says its latest value, its range, and the times its axis spans.
const SVG = 'http://www.w3.org/2000/svg';

/** A sparkline in a table row, and the larger chart of the device page. */
export const SIZES = {
  small: { width: 170, plot: 22, axis: 11, label: 36 },
  large: { width: 520, plot: 90, axis: 14, label: 52 },
};

function svgElement(tag, attributes = {}, text) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** A value as a person reads it: at most one decimal, no trailing zero. */
export const shortValue = (value) => String(Math.round(value * 10) / 10);

/** A time on the axis: to the second when the line spans less than ten minutes, else to the minute. */
const clockOf = (spanMs) => (iso) => new Date(iso).toLocaleTimeString([], spanMs < 600_000 ? { hour: '2-digit', minute: '2-digit', second: '2-digit' } : { hour: '2-digit', minute: '2-digit' });

/**
 * Each metric's series across a device's samples (`[{at, telemetry}]`,
 * oldest first): metric → `[{at, value}]`, numeric values only.
 */
export function seriesOf(samples) {
  const series = new Map();
  for (const sample of samples) {
    for (const [metric, value] of Object.entries(sample.telemetry ?? {})) {
      if (typeof value !== 'number') continue;
      series.set(metric, [...(series.get(metric) ?? []), { at: sample.at, value }]);
    }
  }
  return series;
}

/**
 * A line over `points` (`[{at, value}]`, oldest first), x by time, y over
 * the points' own range; the latest value at the right, the first and last
 * sample's times below (`.time-axis`), and on the large chart the range.
 */
export function sparkline(metric, points, size = SIZES.small) {
  const { width, plot, axis, label } = size;
  const height = plot + axis;
  const svg = svgElement('svg', { class: `sparkline sparkline-${size === SIZES.large ? 'large' : 'small'}`, width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' });
  svg.dataset.metric = metric;
  const latest = points.at(-1);
  const [first, last] = [points[0], latest];
  const values = points.map((point) => point.value);
  const clock = clockOf(Date.parse(last.at) - Date.parse(first.at));
  const low = Math.min(...values);
  const high = Math.max(...values);
  svg.setAttribute('aria-label', `${metric}: ${shortValue(latest.value)}, ${clock(first.at)} to ${clock(last.at)}`);
  svg.append(svgElement('title', {}, `${metric}: ${shortValue(latest.value)} (${points.length} samples, ${shortValue(low)}–${shortValue(high)}, ${new Date(first.at).toLocaleString()} to ${new Date(last.at).toLocaleString()})`));

  const lineWidth = width - label;
  const start = Date.parse(first.at);
  const span = Date.parse(last.at) - start || 1;
  const range = high - low || 1;
  const x = (point) => (points.length > 1 ? ((Date.parse(point.at) - start) / span) * lineWidth : lineWidth / 2);
  const y = (point) => plot - 2 - ((point.value - low) / range) * (plot - 4);
  const line = points.length > 1 ? points.map((point) => `${x(point).toFixed(1)},${y(point).toFixed(1)}`).join(' ') : `0,${plot / 2} ${lineWidth},${plot / 2}`;
  svg.append(svgElement('line', { class: 'baseline', x1: 0, y1: plot - 0.5, x2: lineWidth, y2: plot - 0.5 }));
  svg.append(svgElement('polyline', { points: line }));
  svg.append(svgElement('text', { class: 'latest', x: lineWidth + 4, y: size === SIZES.large ? plot / 2 : plot - 6 }, shortValue(latest.value)));
  if (size === SIZES.large) {
    svg.append(svgElement('text', { class: 'range', x: lineWidth + 4, y: 10 }, `max ${shortValue(high)}`));
    svg.append(svgElement('text', { class: 'range', x: lineWidth + 4, y: plot - 2 }, `min ${shortValue(low)}`));
  }
  const times = svgElement('g', { class: 'time-axis' });
  times.append(svgElement('text', { x: 0, y: height - 1, 'text-anchor': 'start' }, clock(first.at)));
  times.append(svgElement('text', { x: lineWidth, y: height - 1, 'text-anchor': 'end' }, clock(last.at)));
  svg.append(times);
  return svg;
}

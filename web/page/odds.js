// odds.js — the Odds pane: muster prob --json as tables, in each of its
// shapes (one call, a call beside variants, a grid of calls), with the
// fractions exactly as muster gives them, and its bar chart.
import { h, shownValue } from './dom.js';

// ---- exact fractions, for "at least" and "at most" ----

function gcd(a, b) {
  while (b) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

/** "num/den", "1", "0" or "-3/4" as [num, den] (BigInt). */
export function parseFraction(text) {
  const m = /^(-?\d+)(?:\/(\d+))?$/.exec(String(text));
  if (!m) return null;
  return [BigInt(m[1]), BigInt(m[2] ?? 1)];
}

function add([a, b], [c, d]) {
  const num = a * d + c * b, den = b * d;
  const g = gcd(num, den) || 1n;
  return [num / g, den / g];
}

/** A fraction to `digits` decimals, rounded half up, as the command prints it. */
export function fixed([num, den], digits = 5) {
  const neg = num < 0n;
  const scale = 10n ** BigInt(digits);
  const n = neg ? -num : num;
  const r = (n * scale * 2n + den) / (den * 2n);
  const whole = r / scale, part = (r % scale).toString().padStart(digits, '0');
  return `${neg && r !== 0n ? '-' : ''}${whole}.${part}`;
}

const dec = (x, digits = 5) => (typeof x === 'number' ? x.toFixed(digits) : '');
const signed = (x, digits = 5) => (typeof x === 'number' ? (x >= 0 ? '+' : '') + x.toFixed(digits) : '');
const signedFraction = (p) => (p === undefined || p === null ? '' : /^-/.test(p) || p === '0' ? p : `+${p}`);

// ---- one call ----

// a table longer than this is cut (the values past it are said, not drawn):
// a million rows would hold the page for seconds
const MAX_ROWS = 1000;
const MAX_COLUMNS = 120;

// the running sums of the outcomes that have a value: at most up to a row,
// at least from it; exact while that is quick, in floating point past it
function cumulative(outcomes, exactOdds) {
  const valued = outcomes.filter((o) => !o.not_given);
  const exact = exactOdds && valued.length <= MAX_ROWS;
  const zero = exact ? [0n, 1n] : 0;
  const plus = exact ? add : (a, b) => a + b;
  const of = (o) => (exact ? parseFraction(o.p) : o.probability);
  const most = [], least = [];
  let run = zero;
  for (const o of valued) { run = plus(run, of(o)); most.push(run); }
  run = zero;
  for (let i = valued.length - 1; i >= 0; i--) { run = plus(run, of(valued[i])); least[i] = run; }
  const show = (x) => (exact ? fixed(x) : x.toFixed(5));
  return new Map(valued.map((o, i) => [o, { least: show(least[i]), most: show(most[i]) }]));
}

// the bars show the probability (scaled to the likeliest), or, as AnyDice
// can, the chance of at least or at most each value (scaled to 1)
const BAR_MODES = [['p', 'probability'], ['least', 'at least'], ['most', 'at most']];
let barMode = 'p';

function bar(share, max, sums) {
  const pct = (x) => `${Math.max(0, Math.min(100, x * 100)).toFixed(1)}%`;
  const style = [`--p:${pct(max > 0 ? share / max : 0)}`];
  if (sums) style.push(`--least:${pct(+sums.least)}`, `--most:${pct(+sums.most)}`);
  return h('span', { class: 'bar', style: style.join(';') });
}

function barSwitch(table) {
  const buttons = BAR_MODES.map(([mode, label]) => h('button', {
    type: 'button', class: 'small', 'aria-pressed': String(mode === barMode),
    onclick: () => {
      barMode = mode;
      table.dataset.bars = mode;
      buttons.forEach((b, i) => b.setAttribute('aria-pressed', String(BAR_MODES[i][0] === mode)));
    },
  }, label));
  return h('div', { class: 'bar-switch', role: 'group', 'aria-label': 'What the bars show' }, h('span', {}, 'Bars:'), buttons);
}

// records have no order: no "at least" or "at most" for them, as the
// command line prints them
const isRecord = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function singleTable(odds) {
  const exact = odds.exact;
  const ordered = !odds.outcomes.some((o) => isRecord(o.value));
  const sums = ordered ? cumulative(odds.outcomes, exact) : new Map();
  const max = odds.outcomes.reduce((m, o) => Math.max(m, o.probability), 0);
  const head = ['value', exact ? 'p' : 'share', 'probability', exact ? null : '95% interval',
    ordered ? 'at least' : null, ordered ? 'at most' : null, '']
    .filter((x) => x !== null);
  const rows = odds.outcomes.slice(0, MAX_ROWS).map((o) => {
    const s = sums.get(o);
    return h('tr', { class: o.not_given ? 'not-given' : null },
      h('td', { class: 'value' }, shownValue(o.value, o.not_given)),
      h('td', { class: 'p' }, exact ? o.p : dec(o.p)),
      h('td', { class: 'num' }, dec(o.probability)),
      exact ? null : h('td', { class: 'num' }, `[${dec(o.low)}, ${dec(o.high)}]`),
      ordered ? h('td', { class: 'num' }, s ? s.least : '') : null,
      ordered ? h('td', { class: 'num' }, s ? s.most : '') : null,
      h('td', { class: 'bar-cell', 'aria-hidden': 'true' }, bar(o.probability, max, s)));
  });
  const table = h('table', { class: 'odds single', 'data-bars': ordered ? barMode : 'p' },
    h('thead', {}, h('tr', {}, head.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, rows));
  return [ordered ? barSwitch(table) : null, table, cutNote(odds.outcomes.length, MAX_ROWS, 'values')];
}

function cutNote(count, shown, what) {
  return count > shown
    ? h('p', { class: 'summary' }, `(${count - shown} more ${what} past these ${shown}; the Output pane gives them as muster prints them)`)
    : null;
}

function mul([a, b], [c, d]) {
  const num = a * c, den = b * d;
  const g = gcd(num, den) || 1n;
  return [num / g, den / g];
}

// the mean as a fraction, as the command line gives it: the sum of value
// times p over the outcomes with a value, divided by their share
function exactMean(odds) {
  const valued = odds.outcomes.filter((o) => !o.not_given);
  if (!odds.exact || valued.length > MAX_ROWS) return null;
  let total = [0n, 1n], share = [0n, 1n];
  for (const o of valued) {
    const v = typeof o.value === 'number' ? parseFraction(String(o.value)) : parseFraction(o.value);
    const p = parseFraction(o.p);
    if (!v || !p) return null;
    total = add(total, mul(v, p));
    share = add(share, p);
  }
  if (share[0] === 0n) return null;
  const [num, den] = mul(total, [share[1], share[0]]);
  return den === 1n ? String(num) : `${num}/${den}`;
}

function summaryLines(odds) {
  const lines = [];
  if (odds.dropped) lines.push(`cut off: an open-ended roll was cut short with probability ${odds.dropped}; that is in no row above`);
  if (typeof odds.mean === 'number') {
    const of = odds.outcomes.some((o) => o.not_given) ? ' (of the outcomes with a value)' : '';
    const fraction = Number.isInteger(odds.mean) ? null : exactMean(odds);
    lines.push(`mean ${odds.mean.toFixed(4)}${fraction ? ` (${fraction})` : ''}, standard deviation ${odds.sd.toFixed(4)}${of}`);
  }
  return lines.map((l) => h('p', { class: 'summary' }, l));
}

function how(odds) {
  return odds.exact ? 'exact' : `simulated: ${odds.trials} trials, seed ${odds.seed} (95% intervals)`;
}

// ---- beside variants (--vs) ----

// the columns of a comparison: one or several variants
function sides(odds) {
  const many = Array.isArray(odds.variants);
  const names = many ? odds.variants : [odds.variant];
  const pick = (o, key, i) => (many ? (o[`${key}s`] ?? [])[i] : o[key]);
  const pickP = (o, key, i) => (many ? (o[`${key}s_p`] ?? [])[i] : o[`${key}_p`]);
  return { many, names, pick, pickP };
}

function cell(number, fraction, sign = false, digits = 5) {
  return h('td', { class: 'num pair' },
    h('span', { class: 'n' }, sign ? signed(number, digits) : dec(number, digits)),
    fraction !== undefined && fraction !== null ? h('span', { class: 'p' }, sign ? signedFraction(fraction) : fraction) : null);
}

function vsTable(odds) {
  const { many, names, pick, pickP } = sides(odds);
  const label = (i) => (many ? ` ${i + 1}` : '');
  const head = ['value', 'rules', ...names.flatMap((_, i) => [`variant${label(i)}`, `change${label(i)}`])];
  const rows = odds.outcomes.slice(0, MAX_ROWS).map((o) => h('tr', { class: o.not_given ? 'not-given' : null },
    h('td', { class: 'value' }, shownValue(o.value, o.not_given)),
    cell(o.base, o.base_p),
    names.flatMap((_, i) => [cell(pick(o, 'variant', i), pickP(o, 'variant', i)),
      cell(pick(o, 'change', i), pickP(o, 'change', i), true)])));
  if (typeof odds.base_mean === 'number') {
    const means = many ? odds.variant_means : [odds.variant_mean];
    const changes = many ? odds.mean_changes : [odds.mean_change];
    const meansP = many ? odds.variant_means_p ?? [] : [odds.variant_mean_p];
    const changesP = many ? odds.mean_changes_p ?? [] : [odds.mean_change_p];
    // means to four places, as the command line prints them
    rows.push(h('tr', { class: 'mean' }, h('td', { class: 'value' }, 'mean'), cell(odds.base_mean, odds.base_mean_p, false, 4),
      names.flatMap((_, i) => [cell(means[i], meansP[i], false, 4), cell(changes[i], changesP[i], true, 4)])));
  }
  const caption = h('p', { class: 'sides' }, `rules: ${odds.base}`,
    names.map((n, i) => [h('br'), `variant${label(i)}: ${n}`]));
  return [caption, h('table', { class: 'odds vs' },
    h('thead', {}, h('tr', {}, head.map((t) => h('th', { scope: 'col' }, t)))), h('tbody', {}, rows)),
  cutNote(odds.outcomes.length, MAX_ROWS, 'values')];
}

// ---- a grid (name=a,b,c) ----

function gridTable(odds) {
  const values = (odds.rows[0]?.outcomes ?? []).slice(0, MAX_COLUMNS);
  const numeric = odds.rows.some((r) => typeof r.mean === 'number');
  const mixed = odds.rows.some((r) => !r.exact) && odds.rows.some((r) => r.exact);
  const head = [...odds.varying, mixed ? 'counted' : null,
    ...values.map((o) => shownValue(o.value, o.not_given)), odds.rows.some((r) => r.dropped) ? 'cut off' : null,
    numeric ? 'mean' : null].filter((x) => x !== null);
  const rows = odds.rows.map((r) => h('tr', {},
    odds.varying.map((name) => h('th', { scope: 'row', class: 'arg' }, shownValue(r.args[name]))),
    mixed ? h('td', {}, r.exact ? 'exact' : 'simulated') : null,
    r.outcomes.slice(0, MAX_COLUMNS).map((o) => {
      const td = cell(o.probability, r.exact ? o.p : null);
      td.style.setProperty('--heat', String(Math.min(1, o.probability)));
      td.classList.add('heat');
      return td;
    }),
    odds.rows.some((x) => x.dropped) ? h('td', { class: 'num' }, r.dropped ?? '') : null,
    numeric ? h('td', { class: 'num' }, typeof r.mean === 'number' ? r.mean.toFixed(4) : '') : null));
  return [h('table', { class: 'odds grid' },
    h('thead', {}, h('tr', {}, head.map((t) => h('th', { scope: 'col' }, t)))), h('tbody', {}, rows)),
  cutNote(odds.rows[0]?.outcomes.length ?? 0, MAX_COLUMNS, 'columns of values')];
}

function gridHow(odds) {
  const simulated = odds.rows.filter((r) => !r.exact);
  if (!simulated.length) return 'exact';
  const r = simulated[0];
  return simulated.length === odds.rows.length
    ? `simulated: ${r.trials} trials each, seed ${r.seed}`
    : `exact, but ${simulated.length} of the ${odds.rows.length} rows simulated (${r.trials} trials each, seed ${r.seed})`;
}

/** The shape of prob --json: 'grid', 'vs' or 'single'. */
export function shapeOf(odds) {
  if (Array.isArray(odds.rows)) return 'grid';
  if ('base' in odds) return 'vs';
  return 'single';
}

/** The pane's content for one prob answer: {odds, svg, title}. */
export function renderOdds({ odds, svg, title }) {
  const shape = shapeOf(odds);
  // a call of fifteen arguments is long: two lines of it, and all of it on a click
  const heading = h('h3', { class: 'call clamp', title: 'the call: click to see all of it', onclick: () => heading.classList.toggle('clamp') }, title);
  if (shape === 'grid') {
    const fixed = Object.entries(odds.fixed ?? {}).map(([k, v]) => `${k}: ${shownValue(v)}`).join(', ');
    return [heading, h('p', { class: 'how' }, `one row per ${odds.varying.join(' and ')}: ${gridHow(odds)}`,
      fixed ? `; the same in every row: ${fixed}` : '', odds.field ? `; field ${odds.field}` : ''), gridTable(odds)];
  }
  const chart = svg ? h('figure', { class: 'chart' }) : null;
  if (chart) chart.innerHTML = svg;   // muster's SVG: no script, nothing outside it, names escaped
  if (shape === 'vs') return [heading, h('p', { class: 'how' }, odds.exact ? 'exact' : 'simulated on the same dice'), vsTable(odds), chart];
  return [heading, h('p', { class: 'how' }, how(odds)), singleTable(odds), summaryLines(odds), chart];
}

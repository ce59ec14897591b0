// node.mjs DISTDIR — the JavaScript package (DISTDIR/muster) against the
// native muster on the golden cases: every tests/golden/NAME.cmd of a
// command the package runs (prob, run, check, test, sheet, turn, dis, diff)
// is asked of both, and the exit status, the output and the error stream
// must be the same, byte for byte; so must a chart written with --svg.
// Cases the package cannot take (standard input, --pdf, --no-specialize,
// usage errors of the command line's own) are counted as skipped.
// Prints "ok NAME" / "FAIL NAME: ..." and last "N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from './request.mjs';

const dist = path.resolve(process.argv[2] ?? 'web/dist');
const top = path.resolve(process.env.top_srcdir ?? '.');
const muster = process.env.MUSTER ?? path.join(top, 'muster');
const golden = path.join(top, 'tests/golden');
const only = process.argv.slice(3);

const { createMuster } = await import(pathToFileURL(path.join(dist, 'muster/muster.mjs')).href);

// every script a golden case may read (and every file of tests/golden), at its path in the source tree
function scripts(dir, all, found = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) scripts(p, all, found);
    else if (all || e.name.endsWith('.muster')) found.push(p);
  }
  return found;
}

async function instance() {
  const m = await createMuster();
  for (const d of ['tests/golden', 'tests/bad', 'rules', 'examples', 'docs'])
    for (const f of scripts(path.join(top, d), d === 'tests/golden')) m.writeFile(path.relative(top, f), fs.readFileSync(f));
  m.chdir('tests/golden');
  return m;
}

function words(line) {
  const r = spawnSync('bash', ['-c', 'eval "a=($1)"; printf "%s\\0" "${a[@]}"', '_', line], { encoding: 'utf8' });
  return r.stdout.split('\0').slice(0, -1);
}

function native(argv, svg) {
  if (svg) fs.rmSync(path.join(golden, svg), { force: true });
  const r = spawnSync(muster, argv, { cwd: golden, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, NO_COLOR: '1' } });
  const chart = svg && fs.existsSync(path.join(golden, svg)) ? fs.readFileSync(path.join(golden, svg), 'utf8') : null;
  if (svg) fs.rmSync(path.join(golden, svg), { force: true });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, chart };
}

// the first line where two texts differ, for the message
function differ(a, b) {
  const x = a.split('\n'), y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if (x[i] !== y[i]) return `line ${i + 1}: native ${JSON.stringify(x[i])}, wasm ${JSON.stringify(y[i])}`;
  return '';
}

let m = await instance();
let passed = 0, failed = 0, skipped = 0;
const cases = fs.readdirSync(golden).filter((f) => f.endsWith('.cmd')).map((f) => f.slice(0, -4)).sort();
for (const name of cases) {
  if (only.length && !only.includes(name)) continue;
  if (fs.existsSync(path.join(golden, `${name}.stdin`))) { skipped++; continue; }
  const argv = words(fs.readFileSync(path.join(golden, `${name}.cmd`), 'utf8').trim());
  const req = request(argv);
  if (typeof req === 'string') { skipped++; continue; }
  const want = native(argv, req.svg);
  if (want.status === 2) { skipped++; continue; }   // the command line's own usage errors
  if (req.svg && req.svg.startsWith('/dev/')) { skipped++; continue; }   // a device of the machine's
  const svg = req.svg && req.svg !== '-' ? req.svg : null;
  const got = m.command(req);
  const chart = svg ? (() => { try { return m.core.FS.readFile(svg, { encoding: 'utf8' }); } catch { return null; } })() : null;
  const why = got.status !== want.status ? `exit ${got.status}, native ${want.status}`
    : got.stdout !== want.stdout ? `stdout ${differ(want.stdout, got.stdout)}`
    : got.stderr !== want.stderr ? `stderr ${differ(want.stderr, got.stderr)}`
    : svg && chart !== want.chart ? `chart ${differ(want.chart ?? '', chart ?? '')}` : '';
  if (why) { failed++; console.log(`FAIL ${name}: ${why}`); }
  else { passed++; console.log(`ok ${name}`); }
  if (m.memoryBytes() > 768 * 2 ** 20) m = await instance();
}
// the values API (procs, call, distribution) against the command's answers
function valueCheck(name, fn) {
  let why;
  try { why = fn(); } catch (e) { why = `threw ${e.stack ?? e}`; }
  if (why) { failed++; console.log(`FAIL values: ${name}: ${why}`); }
  else { passed++; console.log(`ok values: ${name}`); }
}
m.chdir('.');
const volley = 'examples/volley.muster';
valueCheck('procs lists what the command lists', () => {
  const listed = spawnSync(muster, ['run', volley], { cwd: top, encoding: 'utf8' }).stderr;
  const got = m.procs(volley);
  if (got.status !== 0) return `status ${got.status}`;
  const missing = got.procs.filter((p) => !listed.includes(`${p.name}(`)).map((p) => p.name);
  if (missing.length || got.procs.length < 3) return `not in the command's list: ${missing.join(', ')}`;
  const cover = got.procs.find((p) => p.name === 'hits').params.find((q) => q.name === 'cover');
  if (JSON.stringify(cover.values) !== '["none","light","heavy","works"]' || cover.default !== 'none') return `cover is ${JSON.stringify(cover)}`;
  return '';
});
valueCheck('distribution gives the command\'s fractions, outcome for outcome', () => {
  const want = JSON.parse(spawnSync(muster, ['prob', volley, 'hits', 'card=6', '--json'], { cwd: top, encoding: 'utf8' }).stdout);
  const got = m.distribution(volley, 'hits', { card: 6 });
  if (got.status !== 0 || !got.distribution.exact) return `status ${got.status}, ${JSON.stringify(got).slice(0, 200)}`;
  const a = want.outcomes.map((o) => `${o.value}=${o.p}`).join(' ');
  const b = got.distribution.outcomes.map((o) => `${o.value.value}=${o.fraction}`).join(' ');
  return a === b ? '' : `the command: ${a}; the package: ${b}`;
});
valueCheck('call with the dice thrown gives the command\'s result', () => {
  const want = JSON.parse(spawnSync(muster, ['run', volley, 'hits', 'card=6', 'cover=light', '--dice', '6,4,4,2,1', '--json'], { cwd: top, encoding: 'utf8' }).stdout);
  const got = m.call(volley, 'hits', { card: 6, cover: 'light' }, { dice: '6,4,4,2,1' });
  return got.status === 0 && got.value.value === want.result && got.value.kind === 'int' ? '' : JSON.stringify(got).slice(0, 200);
});
valueCheck('run with the referee\'s text: the text and the result are of the same dice', () => {
  for (let i = 0; i < 20; i++) {
    const r = m.run(volley, 'hits', { card: 6 }, { explain: true });
    if (r.status !== 0 || !r.text.trim().endsWith(`result: ${r.result}`)) return `result ${r.result}, text ${JSON.stringify(r.text)}`;
  }
  return '';
});
valueCheck('a wrong argument is an error object with the command\'s message', () => {
  const want = spawnSync(muster, ['run', volley, 'hits', 'card=6', 'cover=rear'], { cwd: top, encoding: 'utf8' });
  const got = m.call(volley, 'hits', { card: 6, cover: 'rear' });
  if (!got.error) return `no error: ${JSON.stringify(got).slice(0, 200)}`;
  return want.stderr.includes(got.error.message) && got.error.status === want.status ? ''
    : `the package: ${got.error.status} ${got.error.message}; the command: ${want.status} ${want.stderr.trim()}`;
});
valueCheck('a script that does not compile: the error\'s place and text', () => {
  m.writeFile('broken.muster', 'proc x() -> int {\n  return y\n}\n');
  const got = m.procs('broken.muster');
  const e = got.error;
  return e && e.file === 'broken.muster' && e.line === 2 && e.column === 10 && e.diagnostics.length === 1 ? '' : JSON.stringify(got).slice(0, 300);
});

valueCheck('the page\'s gallery opens every shipped ruleset, house rule and example', () => {
  const gallery = JSON.parse(fs.readFileSync(path.join(top, 'web/page/gallery.json'), 'utf8'));
  const listed = new Set(gallery.flatMap((e) => e.files));
  const shipped = ['rules', 'rules/variants', 'examples'].flatMap((d) =>
    fs.readdirSync(path.join(top, d)).filter((f) => f.endsWith('.muster')).map((f) => `${d}/${f}`));
  const missing = shipped.filter((f) => !listed.has(f));
  const absent = [...listed].filter((f) => !fs.existsSync(path.join(top, f)));
  return missing.length || absent.length ? `not in web/page/gallery.json: ${missing.join(', ')}; not in the tree: ${absent.join(', ')}` : '';
});

console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);

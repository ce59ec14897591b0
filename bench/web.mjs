// web.mjs MUSTER DISTDIR — muster in the browser against the command
// (`make bench-web`; docs/performance.md "In the browser").
// For every case of bench/cases.txt: the exact odds (`prob --exact`) and a
// simulation (`--trials N --seed 1`, one thread) asked of the native muster
// and of the WebAssembly build under Node (V8, Chromium's engine), each the
// best of BENCH_REPEAT runs; the answers must be the same, and the ratio
// wasm/native is printed.  Then the page's size as served (gzipped).
// BENCH_CASES=a,b limits the cases; BENCH_SIM_TRIALS sets N (default 3000000).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';

const [muster, distArg] = process.argv.slice(2);
const dist = path.resolve(distArg ?? 'web/dist');
const top = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const repeat = +(process.env.BENCH_REPEAT ?? 5);
const trials = process.env.BENCH_SIM_TRIALS ?? '3000000';
const only = (process.env.BENCH_CASES ?? '').split(',').filter(Boolean);
const { createMuster } = await import(pathToFileURL(path.join(dist, 'muster/muster.mjs')).href);

const cases = fs.readFileSync(path.join(top, 'bench/cases.txt'), 'utf8').split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => l.split('|').map((x) => x.trim()))
  .map(([name, file, proc, args]) => ({ name, file, proc, args: args.split(/\s+/) }))
  .filter((c) => !only.length || only.includes(c.name));
if (!fs.existsSync(path.join(dist, 'muster/muster.mjs'))) { console.error(`bench: no ${dist}/muster (make web)`); process.exit(1); }

// the request for `prob FILE PROC ARGS... EXTRA...`
function request(c, extra) {
  const req = { cmd: 'prob', file: c.file, proc: c.proc, args: [], json: true };
  const words = [...c.args, ...extra];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '--field') req.field = words[++i];
    else if (w === '--exact') req.exact = true;
    else if (w === '--trials') req.trials = words[++i];
    else if (w === '--seed') req.seed = words[++i];
    else if (w === '--threads') i++;
    else req.args.push(w);
  }
  return req;
}

function best(fn) {
  let t = Infinity, out;
  for (let i = 0; i < repeat; i++) {
    const t0 = process.hrtime.bigint();
    out = fn();
    t = Math.min(t, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return [t, out];
}

const m = await createMuster();
for (const dir of ['rules', 'examples', 'bench'])
  for (const f of fs.readdirSync(path.join(top, dir), { recursive: true }))
    if (String(f).endsWith('.muster')) m.writeFile(`${dir}/${f}`, fs.readFileSync(path.join(top, dir, String(f))));

// warm up: V8 first runs the wasm on its baseline compiler and moves hot code
// to its optimizing one as it goes (the page's first question pays that once)
for (const c of cases) for (let i = 0; i < 3; i++) m.command(request(c, ['--exact']));
// the native command's own start, taken off its times (the wasm's instance is made once)
const [start] = best(() => spawnSync(muster, ['--version'], { encoding: 'utf8' }));
const rows = [];
for (const c of cases) {
  for (const [kind, extra] of [['exact', ['--exact']], ['simulated', ['--trials', trials, '--seed', '1', '--threads', '1']]]) {
    const argv = ['prob', c.file, c.proc, ...c.args, ...extra, '--json'];
    const [tn, native] = best(() => spawnSync(muster, argv, { cwd: top, encoding: 'utf8', maxBuffer: 1 << 28 }));
    if (native.status !== 0) { rows.push(`${c.name.padEnd(18)} ${kind.padEnd(9)}  (native: ${native.stderr.trim().split('\n')[0]})`); continue; }
    // the command's own start (a process, the script compiled) is in tn; the wasm's compile is in tw too
    const [tw, web] = best(() => m.command(request(c, extra)));
    const same = web.status === 0 && web.stdout === native.stdout;
    const tns = Math.max(tn - start, 1e-4);
    rows.push(`${c.name.padEnd(18)} ${kind.padEnd(9)} ${(tns * 1000).toFixed(1).padStart(8)} ms ${(tw * 1000).toFixed(1).padStart(8)} ms ${(tw / tns).toFixed(2).padStart(6)}x  ${same ? 'same' : 'DIFFERENT'}`);
    if (m.memoryBytes() > 512 * 2 ** 20) console.error('(memory grew past 512 MiB)');
  }
}
console.log(`case               kind         native        wasm   ratio  answer   (best of ${repeat}; the command less its start, ${(start * 1000).toFixed(1)} ms; simulation ${trials} trials, 1 thread)`);
for (const r of rows) console.log(r);

// the exact engine at scale (bench.py's cases): less the time of a one-die
// question, so that the native process's start is not counted as the engine's
const scale = ['sum(roll 60d6)', 'sum(highest(3, roll 60d6))', 'sum(roll 500d6)',
  'count(roll 40d10 >= 7) - count(roll 40d10 >= 7)', 'count(roll [20 d6, 20 d8, 10 d10] >= 5)'];
const [n0] = best(() => spawnSync(muster, ['prob', '-e', 'sum(roll 1d6)', '--json'], { encoding: 'utf8' }));
const [w0] = best(() => m.command({ cmd: 'prob', expr: 'sum(roll 1d6)', json: true }));
console.log(`\nexact odds at scale (prob -e, less a one-die question: native ${(n0 * 1000).toFixed(1)} ms, wasm ${(w0 * 1000).toFixed(1)} ms)`);
for (const e of scale) {
  const [tn, native] = best(() => spawnSync(muster, ['prob', '-e', e, '--exact', '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const [tw, web] = best(() => m.command({ cmd: 'prob', expr: e, exact: true, json: true }));
  const en = Math.max(tn - n0, 1e-4), ew = Math.max(tw - w0, 1e-4);
  console.log(`  ${e.padEnd(48)} ${(en * 1000).toFixed(1).padStart(8)} ms ${(ew * 1000).toFixed(1).padStart(8)} ms ${(ew / en).toFixed(2).padStart(6)}x  ${web.stdout === native.stdout ? 'same' : 'DIFFERENT'}`);
}

let raw = 0, gz = 0;
const page = fs.readdirSync(dist, { recursive: true }).map(String)
  .filter((f) => !f.startsWith('.obj') && !f.startsWith('screenshots') && fs.statSync(path.join(dist, f)).isFile());
const served = page.filter((f) => !f.startsWith('muster/'));   // the page bundles the package
for (const f of served) {
  const b = fs.readFileSync(path.join(dist, f));
  raw += b.length;
  gz += zlib.gzipSync(b, { level: 9 }).length;
}
console.log(`page as served (${served.join(', ')}): ${(raw / 1024).toFixed(0)} KiB, gzipped ${(gz / 1024).toFixed(0)} KiB`);

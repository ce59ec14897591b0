// worker.js — where every muster call of the page runs, so that a long
// count never freezes the page.  The page sends jobs one at a time:
//
//   {id, files: {path: text}, removed: [path], job}
//
// files and removed change the folder first (the worker keeps its own copy,
// so that a fresh instance gets the same files); job is one of
//   {type: 'command', req, chart: true}   req as web/bind.h's keys; chart: also prob's SVG
//   {type: 'procs', file}                 what the file offers: procedures, parameters, choices
//   {type: 'lint', file}                  muster check of the file, with its diagnostics
//   {type: 'sync'}                        nothing more
// and the answer is {id, result, renewed} (renewed: why the instance was
// made afresh after this job, if it was), with {id, progress: [share, words]}
// while a long count works.
import { createMuster, parseDiagnostics } from 'muster-rules';

// past this, an instance's memory (which never shrinks) is given back by
// starting a fresh one
const RENEW_BYTES = 768 * 1024 * 1024;
const MUSTER_NOMEM = 3;
const CHART = '/tmp/muster-chart.svg';

const files = new Map();
let muster = null;
let compiled = null;          // the WebAssembly.Module, kept to start the next instance quickly
let currentId = null;
let lastProgress = 0;

// The core decodes its wasm and calls WebAssembly.instantiate(bytes, imports);
// keep the module that gives, for createMuster({wasmModule}) later.
const instantiate = WebAssembly.instantiate.bind(WebAssembly);
WebAssembly.instantiate = async (source, imports) => {
  const result = await instantiate(source, imports);
  if (result && result.module instanceof WebAssembly.Module) compiled = result.module;
  return result;
};

function onProgress(share, words) {
  const now = Date.now();
  if (now - lastProgress < 80 && share < 1) return;
  lastProgress = now;
  self.postMessage({ id: currentId, progress: [share, words] });
}

async function fresh() {
  muster = null;
  const m = await createMuster({ onProgress, wasmModule: compiled ?? undefined });
  for (const [path, text] of files) {
    try { m.writeFile(path, text); } catch { files.delete(path); /* a path the folder cannot hold */ }
  }
  muster = m;
}

function applyFiles(changed, removed) {
  for (const path of removed ?? []) {
    files.delete(path);
    muster.removeFile(path);
  }
  for (const [path, text] of Object.entries(changed ?? {})) {
    files.set(path, text);
    muster.writeFile(path, text);
  }
}

function readChart() {
  try {
    const svg = muster.readFile(CHART);
    muster.removeFile(CHART);
    return svg;
  } catch {
    return null;
  }
}

function runCommand(job) {
  const req = { ...job.req };
  if (job.chart) req.svg = CHART;
  const result = muster.command(req);
  if (job.chart) result.svg = readChart();
  result.diagnostics = parseDiagnostics(result.stderr);
  return result;
}

function runJob(job) {
  switch (job.type) {
    case 'command': return runCommand(job);
    case 'procs': return muster.procs(job.file);
    case 'lint': return muster.check([job.file]);
    case 'sync': return { status: 0 };
    default: return { status: 2, stdout: '', stderr: `muster: the page asked for an unknown job '${job.type}'\n` };
  }
}

// Why a fresh instance is wanted after this result, or null.
function renewal(result) {
  if (result && result.status === MUSTER_NOMEM) return 'memory';
  if (muster.memoryBytes() > RENEW_BYTES) return 'size';
  return null;
}

async function handle(msg) {
  currentId = msg.id;
  if (!muster) await fresh();
  let result, renewed = null;
  try {
    applyFiles(msg.files, msg.removed);
    result = runJob(msg.job);
    renewed = renewal(result);
  } catch (e) {
    // a trap (or an abort) leaves the instance unusable
    result = { status: -1, stdout: '', stderr: `muster stopped: ${e && e.message ? e.message : e}\n`, diagnostics: [] };
    renewed = 'trap';
  }
  self.postMessage({ id: msg.id, result, renewed });
  if (renewed) await fresh();
}

// one job at a time, in the order sent
let queue = Promise.resolve();
self.onmessage = (e) => {
  queue = queue.then(() => handle(e.data)).catch((err) => {
    self.postMessage({ id: e.data.id, result: { status: -1, stdout: '', stderr: `muster could not start: ${err}\n` }, renewed: 'trap' });
  });
};

// start at once: the first question should not wait for the compile
queue = queue.then(fresh).then(() => self.postMessage({ ready: true }), (err) => self.postMessage({ failed: String(err) }));

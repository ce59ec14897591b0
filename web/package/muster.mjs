// muster.mjs — muster in JavaScript: the library compiled to WebAssembly
// (muster-core.cjs), with files in a virtual folder and the `muster`
// command's answers as text and JSON.  The same module serves Node and the
// browser's page (bundled into its worker).  See docs/web.md.
import createMusterCore from './muster-core.cjs';

const WORK = '/work';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// file:line:col: severity: message, as every diagnostic is printed
const DIAGNOSTIC = /^(.+?):(\d+):(\d+): (error|warning|note): (.*)$/;

/** The diagnostics in text the library printed, as objects
 *  {file, line, column, severity, message, lines: [the source line, the caret...]}. */
export function parseDiagnostics(text) {
  const found = [];
  for (const line of String(text).split('\n')) {
    const m = DIAGNOSTIC.exec(line);
    if (m) {
      found.push({ file: m[1], line: +m[2], column: +m[3], severity: m[4], message: m[5], lines: [] });
    } else if (found.length && line.trim() !== '') {
      found[found.length - 1].lines.push(line);
    }
  }
  return found;
}

// "name=value" strings from {name: value} (an array of values: the odds for each, as in name=a,b,c)
function argList(args) {
  if (!args) return [];
  if (Array.isArray(args)) return args.map(String);
  return Object.entries(args).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : v}`);
}

function chooseList(choose) {
  if (!choose) return [];
  if (Array.isArray(choose)) return choose.map(String);
  return Object.entries(choose).map(([k, v]) => `${k}=${v}`);
}

/** A muster: one instance of the library with a folder of files of its own. */
export class Muster {
  constructor(core, progress) {
    this.core = core;
    this.progress = progress;
    core.FS.mkdir(WORK);
    core.FS.chdir(WORK);
  }

  /** The bytes the instance's memory holds now (it grows, and never shrinks:
   *  a caller keeping an instance for long makes a new one past a size it chooses). */
  memoryBytes() {
    return this.core.HEAPU8.length;
  }

  /** Put a file in the folder (its parent folders are made): path relative to it. */
  writeFile(path, text) {
    const FS = this.core.FS;
    const parts = path.split('/').filter(Boolean);
    let at = path.startsWith('/') ? '' : WORK;   // an absolute path is the module's own, as given
    for (const p of parts.slice(0, -1)) {
      at += '/' + p;
      if (!FS.analyzePath(at).exists) FS.mkdir(at);
    }
    FS.writeFile(`${at}/${parts[parts.length - 1]}`, text);
  }

  /** Take a file out of the folder (nothing when it is not there). */
  removeFile(path) {
    const at = path.startsWith('/') ? path : `${WORK}/${path}`;
    if (this.core.FS.analyzePath(at).exists) this.core.FS.unlink(at);
  }

  /** Every file at once, {path: text}: those there before and not given are removed. */
  setFiles(files) {
    for (const old of this.listFiles()) if (!(old in files)) this.core.FS.unlink(`${WORK}/${old}`);
    for (const [path, text] of Object.entries(files)) this.writeFile(path, text);
  }

  listFiles(dir = '') {
    const FS = this.core.FS;
    const found = [];
    for (const name of FS.readdir(`${WORK}/${dir}`)) {
      if (name === '.' || name === '..') continue;
      const rel = dir ? `${dir}/${name}` : name;
      if (FS.isDir(FS.stat(`${WORK}/${rel}`).mode)) found.push(...this.listFiles(rel));
      else found.push(rel);
    }
    return found;
  }

  readFile(path) {
    return this.core.FS.readFile(path.startsWith('/') ? path : `${WORK}/${path}`, { encoding: 'utf8' });
  }

  /** Work from a folder of the instance's folder (paths in commands are then relative to it). */
  chdir(dir) {
    this.core.FS.chdir(`${WORK}/${dir}`);
  }

  /** The scripts `muster test` takes for these operands: a folder gives every
   *  .muster file below it, in name order (as the command walks it); a folder
   *  with none, a warning. */
  scriptsOf(paths) {
    const FS = this.core.FS;
    const files = [], warnings = [];
    const walk = (dir) => {
      const base = dir.replace(/\/+$/, '') || '/';
      const names = FS.readdir(dir).filter((n) => !n.startsWith('.'))
        .map((n) => (base.endsWith('/') ? base : base + '/') + n).sort();
      for (const p of names) {
        const st = FS.stat(p);
        if (FS.isDir(st.mode)) walk(p);
        else if (p.length > 7 && p.endsWith('.muster')) files.push(p);
      }
    };
    for (const p of paths) {
      const info = FS.analyzePath(p);
      if (info.exists && FS.isDir(FS.stat(p).mode)) {
        const before = files.length;
        walk(p);
        if (files.length === before) warnings.push(`muster: warning: no .muster files in ${p}\n`);
      } else files.push(p);
    }
    return { files, warnings };
  }

  /** One request of web/bind.h's keys: {cmd, file | files, expr, proc, args, choose, vs, ...};
   *  returns {status, stdout, stderr}, as the `muster` command would exit and print. */
  command(req) {
    const pairs = [['cmd', req.cmd]];
    let files = req.files ?? (req.file !== undefined ? [req.file] : []);
    let warnings = [];
    if (req.cmd === 'test' && files.length) {
      ({ files, warnings } = this.scriptsOf(files));
      // folders with no scripts: nothing to run, as the command says
      if (!files.length) return { status: 0, stdout: '0 passed, 0 failed\n', stderr: warnings.join('') };
    }
    for (const f of files) pairs.push(['file', f]);
    for (const key of ['expr', 'proc', 'dice', 'seed', 'trials', 'budget', 'field', 'svg', 'paper', 'max_steps', 'max_depth'])
      if (req[key] !== undefined && req[key] !== null && req[key] !== '') pairs.push([key, String(req[key])]);
    for (const key of ['exact', 'json', 'csv', 'explain', 'html', 'review', 'no_specialize'])
      if (req[key]) pairs.push([key, '1']);
    for (const a of argList(req.args)) pairs.push(['arg', a]);
    for (const c of chooseList(req.choose)) pairs.push(['choose', c]);
    for (const v of req.vs ?? []) pairs.push(['vs', v]);
    for (const o of req.only ?? []) pairs.push(['only', o]);
    const bytes = encoder.encode(pairs.map(([k, v]) => `${k}\0${v}\0`).join(''));
    const core = this.core;
    const at = core._malloc(bytes.length + 1);
    core.HEAPU8.set(bytes, at);
    let status;
    try {
      status = core._mw_command(at, bytes.length);
    } finally {
      core._free(at);
    }
    const read = (k) => {
      const p = core._mw_output(k);
      return decoder.decode(core.HEAPU8.subarray(p, p + core._mw_output_len(k)));
    };
    return { status, stdout: read(1), stderr: warnings.join('') + read(2) };
  }

  /** Compile each file and run its examples: {ok, status, diagnostics, stdout, stderr}. */
  check(files) {
    const r = this.command({ cmd: 'check', files: [].concat(files) });
    return { ...r, ok: r.status === 0, diagnostics: parseDiagnostics(r.stderr) };
  }

  /** The examples: {passed, failed, results: [{pass, text}], status, stdout, stderr}. */
  test(files) {
    const r = this.command({ cmd: 'test', files: [].concat(files) });
    const results = [];
    let passed = 0, failed = 0;
    for (const line of r.stdout.split('\n')) {
      const total = /^(\d+) passed, (\d+) failed$/.exec(line);
      if (total) { passed = +total[1]; failed = +total[2]; }
      else if (/^(PASS|FAIL) /.test(line)) results.push({ pass: line.startsWith('PASS'), text: line.slice(5) });
    }
    return { ...r, passed, failed, results, diagnostics: parseDiagnostics(r.stderr) };
  }

  /** One run: {status, result, log, text, stderr} (result and log as `muster run --json` gives them). */
  run(file, proc, args, opts = {}) {
    const req = { cmd: 'run', file, proc, args, ...opts };
    // with the referee's text too, both runs must roll the same dice: one seed for the two
    if (opts.explain && !opts.dice && (opts.seed === undefined || opts.seed === null))
      req.seed = String(Math.floor(Math.random() * 2 ** 53));
    const json = this.command({ ...req, json: true });
    const out = { status: json.status, stderr: json.stderr, diagnostics: parseDiagnostics(json.stderr) };
    if (json.status === 0) Object.assign(out, JSON.parse(json.stdout));
    if (opts.explain && json.status === 0) out.text = this.command({ ...req, json: false }).stdout;
    return out;
  }

  /** The odds, as `muster prob --json` prints them (a grid, --vs: their shapes), with status and stderr. */
  prob(file, proc, args, opts = {}) {
    const r = this.command({ cmd: 'prob', file, proc, args, ...opts, json: true });
    const out = { status: r.status, stderr: r.stderr, diagnostics: parseDiagnostics(r.stderr) };
    if (r.status === 0) out.odds = JSON.parse(r.stdout);
    return out;
  }

  /** The quick reference sheet: Markdown, or with {html: true} one HTML page. */
  sheet(file, opts = {}) {
    const r = this.command({ cmd: 'sheet', file, ...opts });
    return { ...r, text: r.stdout, diagnostics: parseDiagnostics(r.stderr) };
  }

  // the values API: one JSON object each
  values(req) {
    const r = this.command(req);
    const parsed = r.stdout ? JSON.parse(r.stdout) : { error: { status: r.status, message: r.stderr.trim() } };
    if (parsed.error && parsed.error.text) parsed.error.diagnostics = parseDiagnostics(parsed.error.text);
    return { status: r.status, ...parsed };
  }

  /** What a script offers: {procs: [{name, what, returns, params}], choices: [...]} or {error}. */
  procs(file) {
    return this.values({ cmd: 'procs', file });
  }

  /** One run's value: {value: {kind, type, shown, ...}} or {error}. */
  call(file, proc, args, opts = {}) {
    return this.values({ cmd: 'call', file, proc, args, ...opts });
  }

  /** The odds as data: {distribution: {exact, runs, outcomes: [{value, fraction, probability}], ...}} or {error}. */
  distribution(file, proc, args, opts = {}) {
    return this.values({ cmd: 'dist', file, proc, args, ...opts });
  }

  version() {
    return this.command({ cmd: 'version' }).stdout.trim();
  }
}

/** The most memory an instance's work may take before it stops with muster's
 *  out-of-memory error (MUSTER_MAX_HEAP), unless told otherwise: 1 GiB, half
 *  of what WebAssembly's 32-bit memory can grow to. */
export const DEFAULT_MAX_HEAP = 1 << 30;

/** A new instance: await createMuster({onProgress(share, words) {...}, maxHeap: bytes}).
 *  wasmModule: a WebAssembly.Module compiled before, to start faster. */
export async function createMuster(options = {}) {
  const progress = options.onProgress ?? null;
  const maxHeap = options.maxHeap ?? DEFAULT_MAX_HEAP;
  const settings = {
    print: () => {},
    printErr: () => {},
    onProgress: (share, words) => { if (progress) progress(share, words); },
    preRun: [(mod) => { mod.ENV.MUSTER_MAX_HEAP = String(maxHeap); }],
  };
  if (options.wasmModule) {
    settings.instantiateWasm = (imports, done) => {
      WebAssembly.instantiate(options.wasmModule, imports).then((instance) => done(instance, options.wasmModule));
      return {};
    };
  }
  const core = await createMusterCore(settings);
  return new Muster(core, progress);
}

export default createMuster;

// app.js — muster's page: the editor, the command panel and the answers,
// with every muster call in a worker (client.js).  It opens with the
// gallery's first entry, with the work a link holds (link.js), or with the
// work of last time, which it keeps in the browser's storage as it changes.
import gallery from 'muster:gallery';
import { h, fill, $, download } from './dom.js';
import { MusterClient } from './client.js';
import { Editor, toLintDiagnostic } from './editor.js';
import { Panel } from './panel.js';
import { Panes } from './panes.js';
import { encodeLink, decodeLink, DamagedLink, MAX_LINK, PREFIX, zipFiles, shapeProblem } from './link.js';
import { askText, confirmBox } from './dialog.js';

const PANE_OF = { run: 'output', prob: 'odds', check: 'check', test: 'test', sheet: 'sheet', diff: 'output' };
const VARIANT = /^[ \t]*variant[ \t]+"[^"\n]*"[ \t]+of[ \t]+"/m;
const SHOW_PROGRESS_AFTER = 250;   // ms: a quick answer needs no progress bar

let client, editor, panel, panes;
const procsCache = new Map();       // path -> {text, answer}
let lastProb = null;                // {req, odds}: the Output pane's text is asked for when it is shown
let previousWork = null;            // what the gallery replaced, to give it back
let ownHash = '';                   // the fragment this page set itself

// ---- the status line ----

function say(text, kind = 'info', ...actions) {
  const box = $('#status');
  if (!text) { box.hidden = true; fill(box); return; }
  fill(box, h('span', { class: 'text' }, text), actions,
    h('button', { type: 'button', class: 'small close', 'aria-label': 'Close the message', onclick: () => say('') }, '×'));
  box.className = kind;
  box.hidden = false;
}

function action(label, run) {
  return h('button', { type: 'button', class: 'small', onclick: run }, label);
}

// ---- the workspace ----

function galleryWork(entry) {
  const files = Object.fromEntries(entry.files.map((p) => [p, gallery.texts[p]]));
  return { files, open: entry.open, command: entry.command };
}

function variantsOf(files) {
  return Object.entries(files).filter(([, text]) => VARIANT.test(text.slice(0, 20000))).map(([p]) => p);
}

function filesChanged() {
  const files = editor.files();
  panel.setFiles(editor.paths(), variantsOf(files));
}

function loadWork(work, { run = true, title = null } = {}) {
  procsCache.clear();
  lastProb = null;
  editor.setFiles(work.files, work.open);
  panel.setFiles(editor.paths(), variantsOf(work.files));
  panel.setRequest(work.command);
  const select = $('#gallery');
  const at = gallery.entries.findIndex((e) => e.title === title);
  select.value = at >= 0 ? String(at) : 'own';
  askProcs(panel.state.file);
  if (run) runCommand(panel.request());
  keepSoon();
}

function currentWork() {
  return { files: editor.files(), open: editor.openPath, command: panel.request() };
}

// ---- the work kept by the tab, so that a reload loses nothing ----
// (the tab's own storage: another tab, or a link opened in one, has its own)

const KEPT = 'muster.work.v1';
let keepTimer = null;

function storage() {
  try { return window.sessionStorage; } catch { return null; }   // refused by the browser's settings
}

function keepSoon() {
  clearTimeout(keepTimer);
  keepTimer = setTimeout(keepWork, 400);
}

function keepWork() {
  const store = storage();
  if (!store) return;
  try {
    store.setItem(KEPT, JSON.stringify({ ...currentWork(), fromHash: location.hash }));
  } catch {
    // over the browser's storage (a few MB): say so when the page is opened again
    try { store.setItem(KEPT, JSON.stringify({ tooBig: true })); } catch { /* nothing to be done */ }
  }
}

// the work kept last time: {work} or {note} (why there is none to give back), or null
function keptWork() {
  const text = storage()?.getItem(KEPT);
  if (!text) return null;
  try {
    const kept = JSON.parse(text);
    if (kept && kept.tooBig) return { note: 'The work before the reload was too big for the browser to keep; Download files keeps such work.' };
    return shapeProblem(kept) ? null : { work: kept, fromHash: kept.fromHash ?? '' };
  } catch {
    return null;
  }
}

// ---- procs: what the panel offers for a file ----

async function askProcs(path) {
  if (!path || !editor.has(path)) return;
  const text = editor.text(path);
  const known = procsCache.get(path);
  if (known && known.text === text) return;
  try {
    const { result, superseded } = await client.request({ type: 'procs', file: path }, `procs:${path}`);
    if (superseded || !result) return;
    // while a file does not compile, the panel keeps what it offered before
    const answer = Array.isArray(result.procs) ? result : known?.answer ?? result;
    procsCache.set(path, { text, answer });
    if (!known || JSON.stringify(known.answer) !== JSON.stringify(answer)) panel.procsChanged(path);
  } catch { /* cancelled: asked again with the next change */ }
}

// ---- checking as you type ----

async function lint(path, view) {
  let answer;
  try {
    answer = await client.request({ type: 'lint', file: path }, 'lint');
  } catch {
    return [];
  }
  if (answer.superseded || !answer.result) return [];
  const result = answer.result;
  const diagnostics = result.diagnostics ?? [];
  keepSoon();
  if (path === editor.openPath) panes.check(result, `As you type: ${path}`);
  if (result.status === 0 && path === panel.state.file) askProcs(path);
  filesChanged();
  const doc = view.state.doc;
  return diagnostics.filter((d) => d.file === path).map((d) => toLintDiagnostic(doc, d));
}

// ---- running a command ----

// muster draws one call (or one call beside variants), not a grid
function wantsChart(req) {
  return req.cmd === 'prob' && !Object.values(req.args ?? {}).some((v) => String(v).includes(','));
}

function workerRequest(req) {
  return req.cmd === 'prob' ? { ...req, json: true } : req;
}

// the call as muster heads its odds: from the chart's title, else from the procedure's parameters
function oddsTitle(req, svg) {
  const t = svg && /<title>([^<]*)<\/title>/.exec(svg);
  if (t) return t[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  const proc = procsCache.get(req.file)?.answer?.procs?.find((p) => p.name === req.proc);
  const args = req.args ?? {};
  // as muster heads a grid: '*' for each argument listed
  const shownArg = (name, fallback) => {
    if (args[name] === undefined) return fallback ?? '?';
    return String(args[name]).includes(',') ? '*' : args[name];
  };
  const shown = proc
    ? proc.params.map((p) => `${p.name}: ${shownArg(p.name, p.default)}`)
    : Object.keys(args).map((k) => `${k}: ${shownArg(k)}`);
  return `${req.proc}(${shown.join(', ')})${req.field ? `.${req.field}` : ''}`;
}

function showAnswer(req, result) {
  const line = panel.commandLine(req);
  const pane = PANE_OF[req.cmd];
  const failed = result.status !== 0;
  if (req.cmd === 'prob') {
    lastProb = failed ? null : { req, odds: JSON.parse(result.stdout), text: null };
    if (failed) panes.problem('odds', result, `${line}: no odds`);
    else panes.odds({ odds: lastProb.odds, svg: result.svg, title: oddsTitle(req, result.svg), notes: result.stderr });
    if (failed) panes.output({ ...result, commandLine: line });
    else if (panes.current === 'output') showProbText();
    else panes.waiting('output', 'The text of these odds is worked out when you open this pane.');
    return;
  }
  panes.output({ ...result, commandLine: line });
  if (req.cmd === 'check') panes.check(result, line);
  if (req.cmd === 'test') panes.test(result);
  if (req.cmd === 'sheet') {
    if (failed) panes.problem('sheet', result, `${line}: no sheet`);
    else panes.sheet(result.stdout, req.file);
  }
  if (failed && (req.cmd === 'run' || req.cmd === 'diff')) panes.check(result, line);
  if (pane !== 'output' && failed && req.cmd !== 'sheet' && !result.diagnostics.length) panes.show('output');
}

// prob's text, as the command line prints it, with the same dice as the odds shown
async function showProbText() {
  const shown = lastProb;
  if (!shown) return;
  if (shown.text) { panes.output(shown.text); return; }
  const req = { ...shown.req };
  const seed = shown.odds.seed ?? shown.odds.rows?.find((r) => r.seed !== undefined)?.seed;
  if (!req.seed && seed !== undefined && seed !== null) req.seed = String(seed);
  panes.waiting('output');
  try {
    const { result, superseded } = await client.request({ type: 'command', req }, 'output');
    if (superseded || lastProb !== shown) return;
    shown.text = { ...result, commandLine: panel.commandLine(req) };
    if (panes.current === 'output') panes.output(shown.text);
  } catch (e) {
    if (lastProb === shown) panes.waiting('output', e.cancelled ? 'Cancelled.' : String(e.message ?? e));
  }
}

function renewedNote(renewed, result) {
  if (renewed === 'memory' || result.status === 3) {
    say(`muster ran out of memory: ${(result.stderr.trim().split('\n')[0] || 'out of memory').replace(/^muster: error: /, '')}. It has been started afresh, with your files.`, 'warn');
  } else if (renewed === 'trap') {
    say(`muster stopped with an internal error (${result.stderr.trim()}); it has been started afresh, with your files.`, 'error');
  }
}

async function runCommand(req = panel.request()) {
  keepSoon();
  lastProb = null;      // the text of an earlier prob, still on its way, is not this command's
  const pane = PANE_OF[req.cmd];
  panes.show(pane);
  panes.waiting(pane, 'Working…');
  if ($('#status').className !== 'error') say('');
  try {
    const answer = await client.request({ type: 'command', req: workerRequest(req), chart: wantsChart(req) }, 'command');
    if (answer.superseded) return;
    showAnswer(req, answer.result);
    renewedNote(answer.renewed, answer.result);
  } catch (e) {
    if (e.cancelled) {
      panes.waiting(pane, 'Cancelled.');
      say('Cancelled. muster was stopped and started afresh; ask again when you like.', 'info');
    } else {
      panes.waiting(pane, String(e.message ?? e));
      say(`muster could not answer: ${e.message ?? e}`, 'error');
    }
  }
}

// ---- progress and Cancel ----

let progressTimer = null;

function busy(job) {
  clearTimeout(progressTimer);
  const box = $('#progress-box');
  if (!job) {
    box.hidden = true;
    $('#cancel').disabled = true;
    return;
  }
  progressTimer = setTimeout(() => {
    $('#progress').removeAttribute('value');
    $('#progress-words').textContent = job.type === 'lint' ? 'checking…' : 'working…';
    box.hidden = false;
    $('#cancel').disabled = false;
  }, SHOW_PROGRESS_AFTER);
}

// muster's words follow the share, as its terminal line has them: "31% covered, 81920 runs, 2 s"
function progress(share, words) {
  const part = Math.max(0, Math.min(1, share));
  $('#progress').value = part;
  $('#progress-words').textContent = `${(part * 100).toFixed(part < 0.1 ? 1 : 0)}% ${words}`;
}

function cancel() {
  if (client.cancel()) say('Cancelled. muster was stopped and started afresh; ask again when you like.', 'info');
}

// ---- links ----

async function share() {
  const work = currentWork();
  const hash = await encodeLink(work, gallery.texts);
  const url = location.href.split('#')[0] + hash;
  if (url.length > MAX_LINK) {
    $('#share-box').hidden = true;
    say(`A link to this work would be ${url.length.toLocaleString('en')} characters long, more than the 16,000 a link can safely carry. Download the files instead.`,
      'warn', action('Download the files (.zip)', downloadFiles));
    return;
  }
  ownHash = hash;
  history.replaceState(null, '', hash);
  keepSoon();
  $('#share-link').value = url;
  $('#share-box').hidden = false;
  $('#share-link').select();
  const copied = await copyText(url);
  say(copied ? 'The link is copied: it holds your files and this question.' : 'Copy the link below: it holds your files and this question.');
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    try { return document.execCommand('copy'); } catch { return false; }
  }
}

function downloadFiles() {
  download('muster-files.zip', zipFiles(editor.files()), 'application/zip');
}

async function openHash(hash) {
  try {
    const work = await decodeLink(hash, gallery.texts);
    ownHash = hash;
    loadWork(work);
    say('Opened from the link.');
    return true;
  } catch (e) {
    const why = e instanceof DamagedLink ? e.message : `it could not be read (${e.message ?? e})`;
    if (!editor.paths().length) loadWork(galleryWork(gallery.entries[0]), { title: gallery.entries[0].title });
    say(`This link is damaged: ${why}. The page opened ${gallery.entries[0].title} instead.`, 'error');
    return false;
  }
}

// ---- the gallery and the files ----

function fillGallery() {
  const groups = new Map();
  gallery.entries.forEach((e, i) => {
    if (!groups.has(e.group)) groups.set(e.group, []);
    groups.get(e.group).push(h('option', { value: String(i) }, e.title));
  });
  fill($('#gallery'), [...groups].map(([label, opts]) => h('optgroup', { label }, opts)),
    h('option', { value: 'own', disabled: true }, 'your own files'));
  $('#gallery').addEventListener('change', () => {
    const entry = gallery.entries[+$('#gallery').value];
    if (!entry) return;
    previousWork = currentWork();
    ownHash = '';
    history.replaceState(null, '', location.pathname + location.search);
    loadWork(galleryWork(entry), { title: entry.title });
    say(`Opened ${entry.title}.`, 'info', action('Back to the files before', () => {
      if (previousWork) loadWork(previousWork, { run: false });
      previousWork = null;
      say('');
    }));
  });
}

function pathProblem(path, except = null) {
  if (!path) return 'Give the file a name.';
  if (path.startsWith('/') || path.split('/').some((s) => s === '' || s === '.' || s === '..')) return 'Give a path inside the workspace, such as rules/my-rules.muster.';
  if (path !== except && editor.has(path)) return `There is already a file ${path}.`;
  // a file and a folder cannot have one name
  const clash = editor.paths().find((p) => p !== except && (p.startsWith(`${path}/`) || path.startsWith(`${p}/`)));
  if (clash) return `${clash} is in the way: a file and a folder cannot share a name.`;
  return null;
}

async function newFile() {
  const dir = editor.openPath?.includes('/') ? editor.openPath.replace(/[^/]*$/, '') : '';
  const path = await askText({ title: 'A new file', label: 'Its path in the workspace', value: `${dir}house-rule.muster`, okText: 'Create', check: (p) => pathProblem(p) });
  if (!path) return;
  editor.add(path, `# ${path.replace(/^.*\//, '')}\n\nproc roll_it() -> int {\n  return sum(roll 2d6)\n}\n`);
  filesChanged();
  panel.set({ file: path });   // a new file is what the next question is about
}

async function renameFile() {
  const from = editor.openPath;
  const to = await askText({ title: `Rename ${from}`, label: 'Its new path', value: from, okText: 'Rename', check: (p) => pathProblem(p, from) });
  if (!to || to === from) return;
  editor.rename(from, to);
  if (panel.state.file === from) panel.state.file = to;
  procsCache.delete(from);
  filesChanged();
  askProcs(panel.state.file);
}

async function deleteFile() {
  const path = editor.openPath;
  if (editor.paths().length === 1) { say('The workspace keeps at least one file.', 'warn'); return; }
  if (!(await confirmBox({ title: `Delete ${path}?`, text: 'Its text is gone with it (Download files keeps a copy).', okText: 'Delete' }))) return;
  editor.remove(path);
  procsCache.delete(path);
  filesChanged();
  askProcs(panel.state.file);
}

// ---- start ----

function build() {
  panes = new Panes($('#panes'), { onJump: (file, line, column) => { if (!editor.jumpTo(file, line, column)) say(`${file} is not a file of the workspace.`, 'warn'); } });
  panes.onShow = (name) => { if (name === 'output' && lastProb && !lastProb.text) showProbText(); else if (name === 'output' && lastProb?.text) panes.output(lastProb.text); };
  editor = new Editor({ parent: $('#editor'), tabs: $('#file-tabs'), lint, onRun: () => runCommand() });
  client = new MusterClient({ files: () => editor.files(), onProgress: progress, onBusy: busy });
  panel = new Panel($('#panel'), {
    onRun: () => runCommand(),
    procsOf: (path) => procsCache.get(path)?.answer ?? null,
    onChange: (changes) => { if (changes.file) askProcs(changes.file); },
  });
  fillGallery();
  $('#cancel').addEventListener('click', cancel);
  $('#share').addEventListener('click', () => share().catch((e) => say(`No link: ${e.message ?? e}`, 'error')));
  $('#download').addEventListener('click', downloadFiles);
  $('#share-copy').addEventListener('click', () => { $('#share-link').select(); copyText($('#share-link').value).then((ok) => say(ok ? 'Copied.' : 'Select the link and copy it.')); });
  $('#share-close').addEventListener('click', () => { $('#share-box').hidden = true; });
  $('#file-new').addEventListener('click', newFile);
  $('#file-rename').addEventListener('click', renameFile);
  $('#file-delete').addEventListener('click', deleteFile);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.defaultPrevented) { e.preventDefault(); runCommand(); }
  });
  window.addEventListener('hashchange', () => { if (location.hash !== ownHash && location.hash.startsWith('#m')) openHash(location.hash); });
}

async function start() {
  build();
  const hash = location.hash === '#' ? '' : location.hash;
  const kept = keptWork();
  // a reload: the work as it was, edits and all, unless the address now holds another link
  if (kept?.work && kept.fromHash === hash) {
    ownHash = hash;
    loadWork(kept.work);
    say('Your work is back as it was before the reload.');
  } else if (hash) await openHash(hash);
  else {
    loadWork(galleryWork(gallery.entries[0]), { title: gallery.entries[0].title });
    if (kept?.note) say(kept.note, 'warn');
  }
  // what the page shows and holds, for anyone scripting it
  window.musterPage = { editor, panel, panes, client, marks: () => editor.marks(), run: runCommand, PREFIX };
}

start();

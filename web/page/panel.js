// panel.js — the command panel: which command, on which file, the
// procedure and one input per parameter (from muster's `procs`), the
// rules' choices and each command's options; it makes the request the
// worker runs and shows the same question as a `muster` command line.
import { h, fill, $ } from './dom.js';

const COMMANDS = [
  ['prob', 'prob: the odds'],
  ['run', 'run: one roll'],
  ['check', 'check: compile it'],
  ['test', 'test: the examples'],
  ['sheet', 'sheet: to print'],
  ['diff', 'diff: a house rule'],
];
const WITH_PROC = new Set(['run', 'prob', 'diff']);
const ALL_FILES = '*';
const SEVERAL = '…several';   // the option that turns a select into a list of values
const KIND_GROUPS = { proc: 'procedures', table: 'tables', bands: 'bands', modifiers: 'modifier lists' };

/** A word as a shell would need it. */
export function shellQuote(s) {
  s = String(s);
  return /^[A-Za-z0-9_./=,:+@%-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function emptyState() {
  return { cmd: 'prob', file: '', proc: '', args: {}, choose: {}, dice: '', seed: '', explain: true, exact: false,
    budget: '', trials: '', field: '', vs: [], paper: '', review: false, variant: '' };
}

export class Panel {
  /** root: the panel's element (index.html's #panel); onRun(); onChange(); procsOf(file): the procs answer known, or null */
  constructor(root, { onRun, onChange, procsOf }) {
    this.root = root;
    this.onRun = onRun;
    this.onChange = onChange ?? (() => {});
    this.procsOf = procsOf;
    this.paths = [];
    this.variants = new Set();
    this.state = emptyState();
    this.remembered = {};          // a parameter's value, kept when the procedure changes
    this.several = new Set();      // the enum parameters given as a list of values
    this.opened = new Set();       // the disclosures open
    this.build();
  }

  build() {
    this.cmdSelect = h('select', { id: 'cmd', onchange: () => this.set({ cmd: this.cmdSelect.value }) },
      COMMANDS.map(([v, t]) => h('option', { value: v }, t)));
    this.fileSelect = h('select', { id: 'file', onchange: () => this.set({ file: this.fileSelect.value }) });
    this.procSelect = h('select', { id: 'proc', onchange: () => this.set({ proc: this.procSelect.value }) });
    this.procLabel = h('label', { class: 'field' }, h('span', {}, 'Procedure'), this.procSelect);
    this.paramsEl = h('div', { class: 'params' });
    this.choicesEl = h('div', { class: 'choices' });
    this.optionsEl = h('div', { class: 'options' });
    this.lineEl = h('code', { id: 'command-line' });
    fill($('#panel-fields', this.root),
      h('div', { class: 'row top' },
        h('label', { class: 'field' }, h('span', {}, 'Command'), this.cmdSelect),
        h('label', { class: 'field wide' }, h('span', {}, 'File'), this.fileSelect),
        this.procLabel),
      this.paramsEl, this.choicesEl, this.optionsEl);
    fill($('#command-line-box', this.root), h('span', { class: 'prompt', 'aria-hidden': 'true' }, '$ '), this.lineEl);
    this.root.addEventListener('submit', (e) => { e.preventDefault(); this.onRun(); });
  }

  // ---- what the panel holds ----

  set(changes, { quiet = false } = {}) {
    // a record's field belongs to the procedure that returns the record
    if ('proc' in changes && changes.proc !== this.state.proc) this.state.field = '';
    if ('proc' in changes) this.wantedProc = changes.proc;
    Object.assign(this.state, changes);
    if ('file' in changes || 'cmd' in changes) this.pickProc();
    this.render();
    if (!quiet) this.onChange(changes);
  }

  /** The files of the workspace, and which of them are variants. */
  setFiles(paths, variants) {
    if (paths.join('\n') === this.paths.join('\n') && [...variants].join('\n') === [...this.variants].join('\n')) return;
    this.paths = paths;
    this.variants = new Set(variants);
    const s = this.state;
    if (s.file !== ALL_FILES && !paths.includes(s.file)) s.file = paths[0] ?? '';
    s.vs = s.vs.filter((v) => paths.includes(v) && v !== s.file);
    this.render();
  }

  /** A new question (from the gallery or a link): a request as the worker takes it. */
  setRequest(req) {
    const s = emptyState();
    s.cmd = req.cmd ?? 'prob';
    const files = req.files ?? (req.file !== undefined ? [req.file] : []);
    s.file = files.length > 1 && s.cmd !== 'diff' ? ALL_FILES : files[0] ?? this.paths[0] ?? '';
    if (s.cmd === 'diff') s.variant = files[1] ?? '';
    s.proc = req.proc ?? '';
    s.args = Object.fromEntries(Object.entries(req.args ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]));
    s.choose = { ...(req.choose ?? {}) };
    for (const key of ['dice', 'seed', 'budget', 'trials', 'field', 'paper']) s[key] = req[key] === undefined ? '' : String(req[key]);
    s.explain = req.cmd === 'run' ? !!req.explain : true;
    s.exact = !!req.exact;
    s.review = !!req.review;
    s.vs = [...(req.vs ?? [])];
    this.state = s;
    this.wantedProc = s.proc;
    this.remembered = { ...s.args };
    this.several = new Set();
    this.pickProc();
    this.render();
  }

  /** The procedures of the file the panel names came (or changed). */
  procsChanged(file) {
    if (file !== this.state.file) return;
    this.pickProc();
    this.render();
  }

  procs() {
    const answer = this.state.file && this.state.file !== ALL_FILES ? this.procsOf(this.state.file) : null;
    return answer && Array.isArray(answer.procs) ? answer : null;
  }

  currentProc() {
    return this.procs()?.procs.find((p) => p.name === this.state.proc) ?? null;
  }

  // the procedure last asked for when the file has it (a file half typed may
  // lack it for a while), else the one shown, else the file's first
  pickProc() {
    const procs = this.procs();
    if (!procs || !procs.procs.length) return;
    const has = (name) => name && procs.procs.some((p) => p.name === name);
    if (has(this.wantedProc) && this.wantedProc !== this.state.proc) {
      this.state.proc = this.wantedProc;
      return;
    }
    if (has(this.state.proc)) return;
    this.state.proc = procs.procs[0].name;
    this.state.field = '';
  }

  // the arguments of the current procedure (all given, while its parameters are not known)
  argsGiven() {
    const proc = this.currentProc();
    const out = {};
    for (const [name, value] of Object.entries(this.state.args)) {
      if (value === '' || value === undefined) continue;
      if (!proc || proc.params.some((p) => p.name === name)) out[name] = value.trim();
    }
    return out;
  }

  choicesGiven() {
    const names = new Set((this.procs()?.choices ?? []).map((c) => c.name));
    return Object.fromEntries(Object.entries(this.state.choose).filter(([k, v]) => v && (!this.procs() || names.has(k))));
  }

  /** The request (web/bind.h's keys) this panel asks. */
  request() {
    const s = this.state;
    const req = { cmd: s.cmd };
    if (s.cmd === 'check' || s.cmd === 'test') {
      req.files = s.file === ALL_FILES ? [...this.paths] : [s.file];
      return req;
    }
    if (s.cmd === 'sheet') return this.sheetRequest(req);
    if (s.cmd === 'diff') req.files = [s.file, s.variant || this.paths.find((p) => p !== s.file) || s.file];
    else req.file = s.file;
    if (s.proc) req.proc = s.proc;
    const args = this.argsGiven();
    if (Object.keys(args).length) req.args = args;
    const choose = this.choicesGiven();
    if (Object.keys(choose).length) req.choose = choose;
    if (s.cmd === 'run') return this.runRequest(req);
    for (const key of ['budget', 'trials', 'seed', 'field']) if (s[key].trim()) req[key] = s[key].trim();
    if (s.cmd === 'prob') {
      if (s.exact) req.exact = true;
      const vs = s.vs.filter((v) => this.paths.includes(v) && v !== s.file);
      if (vs.length) req.vs = vs;
    }
    return req;
  }

  runRequest(req) {
    const s = this.state;
    if (s.dice.trim()) req.dice = s.dice.trim();
    else if (s.seed.trim()) req.seed = s.seed.trim();
    if (s.explain) req.explain = true;
    return req;
  }

  sheetRequest(req) {
    req.file = this.state.file;
    req.html = true;
    if (this.state.paper) req.paper = this.state.paper;
    if (this.state.review) req.review = true;
    return req;
  }

  /** The request as a `muster` command line. */
  commandLine(req = this.request()) {
    const words = ['muster', req.cmd, ...(req.files ?? [req.file])];
    if (req.proc) words.push(req.proc);
    for (const [k, v] of Object.entries(req.args ?? {})) words.push(`${k}=${v}`);
    if (req.dice) words.push('--dice', req.dice);
    for (const key of ['exact', 'budget', 'trials', 'seed']) {
      if (req[key] === true) words.push(`--${key}`);
      else if (req[key] !== undefined) words.push(`--${key}`, req[key]);
    }
    for (const [k, v] of Object.entries(req.choose ?? {})) words.push('--choose', `${k}=${v}`);
    if (req.field) words.push('--field', req.field);
    for (const v of req.vs ?? []) words.push('--vs', v);
    if (req.explain) words.push('--explain');
    if (req.html) words.push('--html');
    if (req.paper) words.push('--paper', req.paper);
    if (req.review) words.push('--review');
    return words.map(shellQuote).join(' ');
  }

  // ---- drawing it ----

  render() {
    const s = this.state;
    const focused = this.root.contains(document.activeElement) ? document.activeElement.id : null;
    this.cmdSelect.value = s.cmd;
    this.renderFiles();
    this.procLabel.hidden = !WITH_PROC.has(s.cmd);
    this.renderProcs();
    const withProc = WITH_PROC.has(s.cmd);
    fill(this.paramsEl, withProc ? this.paramInputs() : null);
    fill(this.choicesEl, withProc ? this.choiceInputs() : null);
    fill(this.optionsEl, this.optionInputs());
    this.lineEl.textContent = this.commandLine();
    // drawn anew, the panel keeps the keyboard where it was
    if (focused && document.activeElement?.id !== focused) document.getElementById(focused)?.focus();
  }

  renderFiles() {
    const s = this.state;
    const options = this.paths.map((p) => h('option', { value: p }, p));
    if ((s.cmd === 'check' || s.cmd === 'test') && this.paths.length > 1) {
      options.push(h('option', { value: ALL_FILES }, 'every file of the workspace'));
    } else if (s.file === ALL_FILES) {
      s.file = this.paths[0] ?? '';
    }
    fill(this.fileSelect, options);
    this.fileSelect.value = s.file;
  }

  renderProcs() {
    const procs = this.procs();
    if (!procs) {
      const known = this.state.proc ? [h('option', { value: this.state.proc }, this.state.proc)] : [];
      fill(this.procSelect, known.length ? known : h('option', { value: '' }, this.procsOf(this.state.file)?.error ? '(the file does not compile)' : '…'));
      this.procSelect.value = this.state.proc;
      return;
    }
    const groups = new Map();
    for (const p of procs.procs) {
      const group = KIND_GROUPS[p.what] ?? p.what;
      if (!groups.has(group)) groups.set(group, []);
      groups.get(group).push(h('option', { value: p.name }, `${p.name} → ${p.returns}`));
    }
    fill(this.procSelect, [...groups].map(([label, opts]) => h('optgroup', { label }, opts)));
    this.procSelect.value = this.state.proc;
  }

  setArg(name, value) {
    this.state.args[name] = value;
    this.remembered[name] = value;
    this.lineEl.textContent = this.commandLine();
    this.onChange({ args: true });
  }

  paramInputs() {
    const proc = this.currentProc();
    if (!proc) return Object.keys(this.state.args).length && !this.procs() ? h('p', { class: 'hint' }, 'Reading the procedure…') : null;
    if (!proc.params.length) return h('p', { class: 'hint' }, `${proc.name} takes no arguments.`);
    for (const p of proc.params) if (!(p.name in this.state.args) && p.name in this.remembered) this.state.args[p.name] = this.remembered[p.name];
    // the parameters left at their defaults wait behind a disclosure, so that a
    // procedure of fifteen parameters still leaves room for its answer
    const given = (p) => p.default === null || (this.state.args[p.name] ?? '') !== '' || this.several.has(p.name);
    const shown = proc.params.filter(given), rest = proc.params.filter((p) => !given(p));
    const hint = this.state.cmd === 'prob'
      ? h('p', { class: 'hint' }, 'Commas make a grid: card=4,6,8 gives the odds of each value, a row per combination.')
      : null;
    return [h('h4', {}, 'Arguments'), shown.length ? h('div', { class: 'grid-fields' }, shown.map((p) => this.paramInput(p))) : null,
      rest.length ? this.more('args', `${rest.length} more, at their defaults`, rest.map((p) => this.paramInput(p))) : null, hint];
  }

  // a disclosure that stays open or shut as the user left it
  more(key, summary, fields) {
    const details = h('details', { class: 'more', open: this.opened.has(key),
      ontoggle: () => (details.open ? this.opened.add(key) : this.opened.delete(key)) },
    h('summary', {}, summary), h('div', { class: 'grid-fields' }, fields));
    return details;
  }

  paramInput(p) {
    const value = this.state.args[p.name] ?? '';
    const id = `arg-${p.name}`;
    const label = h('span', {}, p.name, h('small', {}, ` ${p.type}`));
    const choosable = p.values && p.values.length && (p.kind === 'enum' || p.kind === 'bool');
    const several = this.state.cmd === 'prob' && (value.includes(',') || this.several.has(p.name));
    let control;
    if (choosable && !several) control = this.valueSelect(p, id, value);
    else control = this.valueText(p, id, value, choosable);
    return h('label', { class: `field${several ? ' span2' : ''}`, for: id }, label, control);
  }

  valueSelect(p, id, value) {
    const options = [];
    if (p.default !== null) options.push(h('option', { value: '' }, `default (${p.default})`));
    else options.push(h('option', { value: '' }, '— choose —'));
    for (const v of p.values) options.push(h('option', { value: v }, v));
    // a value the select does not list (a list left from prob, a link's typo) is shown as it is
    if (value && !p.values.includes(value)) options.push(h('option', { value }, value));
    if (this.state.cmd === 'prob') options.push(h('option', { value: SEVERAL }, 'several… (a row each)'));
    const select = h('select', { id, name: p.name }, options);
    select.value = value;
    select.addEventListener('change', () => {
      if (select.value === SEVERAL) {
        this.several.add(p.name);
        this.setArg(p.name, p.values.join(','));
        this.render();
        $(`#${CSS.escape(id)}`, this.root)?.focus();
        return;
      }
      this.setArg(p.name, select.value);
    });
    return select;
  }

  valueText(p, id, value, choosable) {
    const listId = choosable ? `${id}-values` : null;
    const input = h('input', { id, name: p.name, type: 'text', value, list: listId, autocomplete: 'off', spellcheck: 'false',
      placeholder: p.default !== null ? `default ${p.default}` : p.kind === 'rational' ? 'e.g. 3/2' : p.type,
      oninput: () => this.setArg(p.name, input.value) });
    if (!choosable) return input;
    const back = h('button', { type: 'button', class: 'small', title: 'one value again', 'aria-label': `one value of ${p.name}`,
      onclick: () => { this.several.delete(p.name); this.setArg(p.name, ''); this.render(); } }, '×');
    return h('span', { class: 'with-button' }, input, back,
      h('datalist', { id: listId }, p.values.map((v) => h('option', { value: v }))));
  }

  choiceInputs() {
    const choices = this.procs()?.choices ?? [];
    if (!choices.length) return null;
    const fields = choices.map((c) => {
      const id = `choose-${c.name}`;
      const select = h('select', { id, title: c.question ?? c.name,
        onchange: () => { this.state.choose[c.name] = select.value; this.lineEl.textContent = this.commandLine(); this.onChange({}); } },
      h('option', { value: '' }, `default (${c.default})`), c.options.map((o) => h('option', { value: o }, o)));
      select.value = this.state.choose[c.name] ?? '';
      return h('label', { class: 'field', for: id, title: c.question ?? '' }, h('span', {}, c.name), select);
    });
    const chosen = choices.filter((c) => this.state.choose[c.name]).length;
    if (chosen) this.opened.add('choices');
    return this.more('choices', `The players' choices (${choices.length}${chosen ? `, ${chosen} chosen` : ', at their defaults'})`, fields);
  }

  // a text option (dice, seed...) bound to the state
  textOption(key, label, placeholder, size = 8) {
    const id = `opt-${key}`;
    const input = h('input', { id, type: 'text', value: this.state[key], placeholder, size, autocomplete: 'off', spellcheck: 'false',
      oninput: () => { this.state[key] = input.value; this.lineEl.textContent = this.commandLine(); this.onChange({}); } });
    return h('label', { class: 'field', for: id }, h('span', {}, label), input);
  }

  checkOption(key, label) {
    const id = `opt-${key}`;
    const input = h('input', { id, type: 'checkbox', checked: this.state[key],
      onchange: () => { this.state[key] = input.checked; this.lineEl.textContent = this.commandLine(); this.onChange({}); } });
    return h('label', { class: 'check', for: id }, input, ' ', label);
  }

  optionInputs() {
    switch (this.state.cmd) {
      case 'run': return [h('h4', {}, 'Dice'), h('div', { class: 'grid-fields' },
        this.textOption('dice', 'Dice thrown (or seeded)', 'e.g. 6,3,4', 14),
        this.textOption('seed', 'Seed', 'any', 8),
        this.checkOption('explain', 'explain every roll'))];
      case 'prob': {
        const tuned = ['budget', 'trials', 'seed'].filter((k) => this.state[k]).length;
        if (tuned) this.opened.add('counting');
        return [h('h4', {}, 'Counting'), h('div', { class: 'grid-fields' },
          this.textOption('field', 'Field of a record', 'e.g. result', 10),
          this.checkOption('exact', 'exact, however long')),
        this.more('counting', 'Budget, trials, seed', [
          this.textOption('budget', 'Budget (runs)', '2000000', 9),
          this.textOption('trials', 'Trials', '100000', 8),
          this.textOption('seed', 'Seed', 'any', 8)]), this.vsInputs()];
      }
      case 'sheet': return [h('h4', {}, 'Sheet'), h('div', { class: 'grid-fields' }, this.paperOption(), this.checkOption('review', 'review marks'))];
      case 'diff': return [h('h4', {}, 'House rule'), h('div', { class: 'grid-fields' }, this.variantOption(),
        this.textOption('field', 'Field of a record', 'e.g. result', 10), this.textOption('seed', 'Seed', '1', 8))];
      default: return null;
    }
  }

  vsInputs() {
    const others = this.paths.filter((p) => p !== this.state.file);
    if (!others.length) return null;
    const sorted = [...others.filter((p) => this.variants.has(p)), ...others.filter((p) => !this.variants.has(p))];
    return h('fieldset', { class: 'vs' }, h('legend', {}, 'Beside it (--vs)'), sorted.map((p) => {
      const id = `vs-${p}`;
      const box = h('input', { type: 'checkbox', id, value: p, checked: this.state.vs.includes(p), onchange: () => {
        this.state.vs = box.checked ? [...new Set([...this.state.vs, p])] : this.state.vs.filter((v) => v !== p);
        this.lineEl.textContent = this.commandLine();
        this.onChange({});
      } });
      return h('label', { class: 'check', for: id }, box, ' ', p, this.variants.has(p) ? h('small', {}, ' variant') : null);
    }));
  }

  paperOption() {
    const select = h('select', { id: 'opt-paper', onchange: () => this.set({ paper: select.value }) },
      h('option', { value: '' }, 'A4 (default)'), h('option', { value: 'letter' }, 'US Letter'));
    select.value = this.state.paper === 'letter' ? 'letter' : '';
    return h('label', { class: 'field', for: 'opt-paper' }, h('span', {}, 'Paper'), select);
  }

  variantOption() {
    const others = this.paths.filter((p) => p !== this.state.file);
    const select = h('select', { id: 'opt-variant', onchange: () => this.set({ variant: select.value }) },
      others.map((p) => h('option', { value: p }, p)));
    select.value = others.includes(this.state.variant) ? this.state.variant : others[0] ?? '';
    this.state.variant = select.value;
    return h('label', { class: 'field', for: 'opt-variant' }, h('span', {}, 'House rule'), select);
  }
}

// editor.js — the workspace's files in one CodeMirror editor: a state of
// its own for each file (its text, undo history and selection), a tab for
// each, and muster's diagnostics marked where they point.
import { EditorView, basicSetup } from 'codemirror';
import { EditorState, Prec } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import { linter, lintGutter, forEachDiagnostic } from '@codemirror/lint';
import { muster } from './muster-lang.js';
import { h, fill } from './dom.js';

/** Where line:column (1-based, column in characters as muster counts them) is in a document. */
export function offsetOf(doc, line, column) {
  const l = doc.line(Math.max(1, Math.min(line, doc.lines)));
  let at = 0, col = 1;
  for (const ch of l.text) {            // by code point, as muster counts
    if (col >= column) break;
    at += ch.length;
    col++;
  }
  return l.from + at;
}

/** A muster diagnostic as CodeMirror's: its span from the caret line (^~~~). */
export function toLintDiagnostic(doc, d) {
  const from = offsetOf(doc, d.line, d.column);
  const caret = (d.lines ?? []).find((l) => /\|\s*\^/.test(l));
  const length = caret ? (caret.match(/[\^~]/g) ?? []).length : 1;
  const lineEnd = doc.lineAt(from).to;
  const to = Math.min(lineEnd, from + Math.max(1, length));
  const severity = d.severity === 'note' ? 'info' : d.severity;
  return { from, to: Math.max(to, from), severity, message: d.message, source: 'muster' };
}

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13.5px', backgroundColor: '#fffefb' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-gutters': { backgroundColor: '#f6f4ee', borderRight: '1px solid #e4e0d6', color: '#9a9484' },
  '.cm-activeLineGutter': { backgroundColor: '#ece8dc' },
  '.cm-activeLine': { backgroundColor: '#f7f4ea' },
  '&.cm-focused': { outline: 'none' },
});

export class Editor {
  /** parent: where the editor goes; tabs: where the file tabs go;
   *  lint(path, view): muster's diagnostics for the file (a promise);
   *  onChange(path): a file's text changed; onOpen(path): another tab; onRun(): Ctrl-Enter */
  constructor({ parent, tabs, lint, onChange, onOpen, onRun }) {
    this.tabsEl = tabs;
    this.lint = lint;
    this.onChange = onChange ?? (() => {});
    this.onOpen = onOpen ?? (() => {});
    this.onRun = onRun ?? (() => {});
    this.docs = new Map();            // path -> {ref: {path}, state, doc, text}
    this.openPath = null;
    this.view = new EditorView({ parent, state: EditorState.create({ doc: '' }) });
  }

  extensions(ref) {
    return [
      basicSetup,
      muster(),
      theme,
      EditorView.lineWrapping,          // rules texts have long comment lines
      lintGutter(),
      linter((view) => this.lint(ref.path, view), { delay: 500 }),
      // Ctrl-Enter asks the panel's question (CodeMirror's own would insert a line)
      Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => { this.onRun(); return true; } }])),
      EditorView.updateListener.of((u) => { if (u.docChanged) this.onChange(ref.path); }),
      EditorView.contentAttributes.of({ 'aria-label': `muster script ${ref.path}` }),
    ];
  }

  record(path, text) {
    const ref = { path };
    return { ref, state: EditorState.create({ doc: text, extensions: this.extensions(ref) }), doc: null, text: null };
  }

  /** The workspace is these files now ({path: text}), with one of them open. */
  setFiles(files, open) {
    this.docs = new Map(Object.entries(files).map(([path, text]) => [path, this.record(path, text)]));
    this.openPath = null;
    this.open(open in files ? open : Object.keys(files)[0]);
  }

  paths() {
    return [...this.docs.keys()];
  }

  has(path) {
    return this.docs.has(path);
  }

  stateOf(path) {
    return path === this.openPath ? this.view.state : this.docs.get(path).state;
  }

  /** A file's text (kept until the file changes: a long one is not copied on every question). */
  text(path) {
    const rec = this.docs.get(path);
    const state = this.stateOf(path);
    if (rec.doc !== state.doc) {
      rec.doc = state.doc;
      rec.text = state.doc.toString();
    }
    return rec.text;
  }

  files() {
    const out = {};
    for (const path of this.docs.keys()) out[path] = this.text(path);
    return out;
  }

  open(path) {
    if (!this.docs.has(path)) return;
    if (this.openPath && this.docs.has(this.openPath)) this.docs.get(this.openPath).state = this.view.state;
    this.openPath = path;
    this.view.setState(this.docs.get(path).state);
    this.renderTabs();
    this.onOpen(path);
  }

  add(path, text) {
    this.docs.set(path, this.record(path, text));
    this.open(path);
  }

  rename(from, to) {
    if (!this.docs.has(from) || this.docs.has(to)) return;
    if (this.openPath === from) this.docs.get(from).state = this.view.state;
    const entries = [...this.docs.entries()].map(([p, rec]) => (p === from ? [to, rec] : [p, rec]));
    this.docs = new Map(entries);
    this.docs.get(to).ref.path = to;
    if (this.openPath === from) this.openPath = to;
    this.renderTabs();
    this.onOpen(this.openPath);
  }

  remove(path) {
    if (!this.docs.has(path) || this.docs.size === 1) return;
    const paths = this.paths();
    const at = paths.indexOf(path);
    this.docs.delete(path);
    if (this.openPath === path) {
      this.openPath = null;
      this.open(paths[at + 1] ?? paths[at - 1]);
    } else {
      this.renderTabs();
    }
  }

  /** Open a file at line:column and show it. */
  jumpTo(path, line, column) {
    if (!this.docs.has(path)) return false;
    if (path !== this.openPath) this.open(path);
    const pos = offsetOf(this.view.state.doc, line, column);
    this.view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
    this.view.focus();
    return true;
  }

  /** Put text in the open file in place of the selection, as a paste would. */
  replaceSelection(text) {
    this.view.dispatch(this.view.state.replaceSelection(text));
  }

  /** The marks in the open file: [{line, column, severity, message}]. */
  marks() {
    const state = this.view.state;
    const found = [];
    forEachDiagnostic(state, (d, from) => {
      const line = state.doc.lineAt(from);
      found.push({ line: line.number, column: [...line.text.slice(0, from - line.from)].length + 1, severity: d.severity, message: d.message });
    });
    return found;
  }

  renderTabs() {
    const tabs = this.paths().map((path) => {
      const slash = path.lastIndexOf('/');
      const selected = path === this.openPath;
      return h('button', {
        role: 'tab', class: 'file-tab', 'aria-selected': selected ? 'true' : 'false', title: path,
        tabindex: selected ? '0' : '-1', 'data-path': path, onclick: () => this.open(path),
        onkeydown: (e) => this.tabKey(e, path),
      }, slash >= 0 ? h('span', { class: 'dir' }, path.slice(0, slash + 1)) : null, path.slice(slash + 1));
    });
    fill(this.tabsEl, tabs);
    this.tabsEl.querySelector('[aria-selected=true]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  // arrow keys move between the tabs, as in any tab list
  tabKey(e, path) {
    const paths = this.paths();
    const at = paths.indexOf(path);
    const to = e.key === 'ArrowRight' ? at + 1 : e.key === 'ArrowLeft' ? at - 1 : null;
    if (to === null || to < 0 || to >= paths.length) return;
    e.preventDefault();
    this.open(paths[to]);
    this.tabsEl.querySelector(`[data-path="${CSS.escape(paths[to])}"]`)?.focus();
  }
}

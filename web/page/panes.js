// panes.js — the answers: Output (what the command line prints), Odds,
// Check (the diagnostics, each a way to its place in the editor), Test
// and Sheet, as tabs.
import { h, fill, $, download } from './dom.js';
import { renderOdds } from './odds.js';

const PANES = [['output', 'Output'], ['odds', 'Odds'], ['check', 'Check'], ['test', 'Test'], ['sheet', 'Sheet']];

export class Panes {
  /** root: #panes; onJump(file, line, column): show a place in the editor */
  constructor(root, { onJump }) {
    this.root = root;
    this.onJump = onJump;
    this.tabs = {};
    this.panels = {};
    this.answers = 0;               // counts the answers shown, in each pane's data-answer
    const list = h('div', { role: 'tablist', class: 'pane-tabs', 'aria-label': 'Answers' });
    for (const [name, title] of PANES) {
      this.tabs[name] = h('button', { role: 'tab', id: `tab-${name}`, 'aria-controls': `pane-${name}`, class: 'pane-tab',
        onclick: () => this.show(name), onkeydown: (e) => this.tabKey(e, name) }, h('span', { class: 'label' }, title), h('span', { class: 'badge' }));
      this.panels[name] = h('section', { role: 'tabpanel', id: `pane-${name}`, 'aria-labelledby': `tab-${name}`, class: 'pane', tabindex: '0' },
        h('p', { class: 'empty' }, 'Nothing yet.'));
      list.append(this.tabs[name]);
    }
    fill(root, list, Object.values(this.panels));
    this.show('odds');
  }

  show(name) {
    this.current = name;
    for (const [n, tab] of Object.entries(this.tabs)) {
      const on = n === name;
      tab.setAttribute('aria-selected', on ? 'true' : 'false');
      tab.tabIndex = on ? 0 : -1;
      this.panels[n].hidden = !on;
    }
    this.onShow?.(name);
  }

  tabKey(e, name) {
    const names = PANES.map(([n]) => n);
    const at = names.indexOf(name);
    const to = e.key === 'ArrowRight' ? (at + 1) % names.length : e.key === 'ArrowLeft' ? (at + names.length - 1) % names.length : -1;
    if (to < 0) return;
    e.preventDefault();
    this.show(names[to]);
    this.tabs[names[to]].focus();
  }

  // a pane got an answer: data-answer says which (a script waiting for one reads it)
  answered(name) {
    this.panels[name].dataset.answer = String(++this.answers);
  }

  badge(name, text, kind = '') {
    const b = $('.badge', this.tabs[name]);
    b.textContent = text ?? '';
    b.className = `badge ${kind}`;
  }

  /** A pane waiting for its answer. */
  waiting(name, words = 'Working…') {
    fill(this.panels[name], h('p', { class: 'empty' }, words));
  }

  // ---- Output ----

  output({ status, stdout, stderr, commandLine }) {
    const parts = [h('p', { class: 'cmd-echo' }, h('span', { class: 'prompt' }, '$ '), commandLine)];
    if (stdout) parts.push(h('pre', { class: 'out stdout' }, stdout));
    if (stderr) parts.push(h('pre', { class: 'out stderr' }, stderr));
    if (!stdout && !stderr) parts.push(h('p', { class: 'empty' }, '(nothing printed)'));
    parts.push(h('p', { class: `exit ${status === 0 ? 'ok' : 'bad'}` }, `exit status ${status}`));
    fill(this.panels.output, parts);
    this.answered('output');
  }

  // ---- a failed command, in the pane that would have shown its answer ----

  problem(name, { stderr, diagnostics, status }, heading) {
    const parts = [h('h3', { class: 'call bad' }, heading)];
    if (diagnostics && diagnostics.length) parts.push(this.diagnosticList(diagnostics));
    else parts.push(h('pre', { class: 'out stderr' }, stderr || `muster ended with status ${status} and printed nothing`));
    fill(this.panels[name], parts);
    this.answered(name);
  }

  // ---- Odds ----

  odds(answer) {
    fill(this.panels.odds, renderOdds(answer), answer.notes ? h('pre', { class: 'out stderr notes' }, answer.notes) : null);
    this.answered('odds');
  }

  // ---- Check ----

  diagnosticList(diagnostics) {
    return h('ul', { class: 'diagnostics' }, diagnostics.map((d) => {
      // the source line and its caret ("  12 | ...", "     | ^~~"); a line after
      // them that is neither (a file's summary) stands on its own
      const lines = d.lines ?? [];
      const context = lines.filter((l) => /^\s*\d*\s*\|/.test(l));
      const after = lines.filter((l) => !/^\s*\d*\s*\|/.test(l));
      return h('li', { class: d.severity },
        h('button', { type: 'button', class: 'diag', onclick: () => this.onJump(d.file, d.line, d.column),
          title: `show ${d.file} line ${d.line}, column ${d.column}` },
        h('span', { class: 'where' }, `${d.file}:${d.line}:${d.column}`), ' ',
        h('span', { class: 'sev' }, d.severity), ' ', h('span', { class: 'msg' }, d.message)),
        context.length ? h('pre', { class: 'context' }, context.join('\n')) : null,
        after.length ? h('pre', { class: 'out after' }, after.join('\n')) : null);
    }));
  }

  /** A check's answer: {status, stdout, stderr, diagnostics}; title says what was checked. */
  check(result, title) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = result.diagnostics.filter((d) => d.severity === 'warning').length;
    this.badge('check', errors ? String(errors) : '', errors ? 'bad' : '');
    const summary = errors ? `${errors} error${errors === 1 ? '' : 's'}` : result.status === 0 ? 'no errors' : `status ${result.status}`;
    const parts = [h('h3', { class: `call ${errors ? 'bad' : 'ok'}` }, `${title}: ${summary}${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}`)];
    if (result.stdout) parts.push(h('pre', { class: 'out stdout' }, result.stdout));
    if (result.diagnostics.length) parts.push(this.diagnosticList(result.diagnostics));
    else if (result.stderr) parts.push(h('pre', { class: 'out stderr' }, result.stderr));
    fill(this.panels.check, parts);
    this.answered('check');
  }

  // ---- Test ----

  test(result) {
    const items = [];       // this file's examples
    const base = [];        // a house rule's: the base's examples, against it
    let total = null, against = null, baseSummary = null;
    for (const line of result.stdout.split('\n')) {
      const m = /^(PASS|FAIL) (.*?)(?::(\d+))?: (.*)$/.exec(line);
      const b = /^ {2}(holds|CHANGED) +(.*?):(\d+): (.*)$/.exec(line);
      if (m) items.push({ pass: m[1] === 'PASS', file: m[2], line: m[3] ? +m[3] : null, title: m[4] });
      else if (against !== null && b) base.push({ pass: b[1] === 'holds', verdict: b[1], file: b[2], line: +b[3], title: b[4] });
      else if (/^the base's examples, against /.test(line)) against = line.replace(/:$/, '');
      else if (/^the variant /.test(line)) baseSummary = line;
      else if (/^\d+ passed, \d+ failed$/.test(line)) total = line;
    }
    const failed = items.filter((i) => !i.pass).length;
    this.badge('test', items.length ? (failed ? String(failed) : '✓') : '', failed ? 'bad' : 'ok');
    const entry = (i, verdict) => h('li', { class: i.pass ? 'pass' : 'fail' },
      h('span', { class: 'verdict' }, verdict), ' ',
      i.line ? h('button', { type: 'button', class: 'link', onclick: () => this.onJump(i.file, i.line, 1) }, `${i.file}:${i.line}`) : i.file,
      ' ', h('span', { class: 'title' }, i.title));
    // the base's examples the house rule changes first, then those that hold
    const changed = base.filter((i) => !i.pass), held = base.filter((i) => i.pass);
    fill(this.panels.test,
      h('h3', { class: `call ${failed || result.status !== 0 ? 'bad' : 'ok'}` }, total ?? `status ${result.status}`),
      h('ul', { class: 'tests' }, items.map((i) => entry(i, i.pass ? 'PASS' : 'FAIL'))),
      against === null ? null : h('section', { class: 'base-examples' },
        h('h3', { class: 'call' }, baseSummary ?? against),
        h('p', { class: 'summary' }, `${against}:`),
        h('ul', { class: 'tests' }, [...changed, ...held].map((i) => entry(i, i.verdict)))),
      result.stderr ? h('pre', { class: 'out stderr' }, result.stderr) : null);
    this.answered('test');
  }

  // ---- Sheet ----

  sheet(html, name) {
    const frame = h('iframe', { class: 'sheet', title: `quick reference sheet of ${name}` });
    frame.srcdoc = html;
    const print = h('button', { type: 'button', onclick: () => frame.contentWindow?.print() }, 'Print…');
    const save = h('button', { type: 'button', onclick: () => download(name.replace(/^.*\//, '').replace(/\.muster$/, '') + '.html', html, 'text/html') }, 'Download .html');
    fill(this.panels.sheet, h('div', { class: 'sheet-bar' }, print, save), frame);
    this.answered('sheet');
  }
}

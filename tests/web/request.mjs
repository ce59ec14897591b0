// request.mjs — a `muster` command line as a request of the JavaScript
// package (web/bind.h's keys): the commands and options the package takes,
// read as the command reads them (`--name=value` or `--name value`).  Used
// by node.mjs (the golden cases) and cli.mjs (the package as a command).

const flags = { '--json': 'json', '--csv': 'csv', '--explain': 'explain', '--exact': 'exact', '--html': 'html',
  '--review': 'review', '--md': null, '--no-specialize': 'no_specialize' };
const valued = { '--seed': 'seed', '--dice': 'dice', '--trials': 'trials', '--budget': 'budget', '--field': 'field',
  '--paper': 'paper', '--max-steps': 'max_steps', '--max-depth': 'max_depth', '-e': 'expr', '--threads': null };
const lists = { '--choose': 'choose', '--vs': 'vs' };
const commands = new Set(['prob', 'run', 'check', 'test', 'sheet', 'turn', 'dis', 'diff']);

// the request for a command line, or a string saying why it is skipped
export function request(argv) {
  const req = { cmd: argv[0], files: [], args: [], choose: [], vs: [] };
  const pos = [];
  if (!commands.has(req.cmd)) return `command ${req.cmd}`;
  for (let i = 1; i < argv.length; i++) {
    let a = argv[i], value;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) { value = a.slice(eq + 1); a = a.slice(0, eq); }
    if (a in flags) { if (flags[a]) req[flags[a]] = true; continue; }
    if (a in valued || a in lists) {
      if (value === undefined) value = argv[++i];
      if (value === undefined) return `${a} without a value`;
      if (a in lists) req[lists[a]].push(value);
      else if (valued[a]) req[valued[a]] = value;
      continue;
    }
    if (a === '--svg') { req.svg = value ?? argv[++i]; continue; }
    if (a.startsWith('-') && a !== '-') return `option ${a}`;
    if (a === '-') return 'standard input';
    pos.push(argv[i]);
  }
  if (['check', 'test'].includes(req.cmd)) req.files = pos;
  else if (req.cmd === 'diff') { req.files = pos.slice(0, 2); req.proc = pos[2]; req.args = pos.slice(3); }
  else if (req.expr !== undefined) { if (pos.length) return 'operands with -e'; }
  else { req.files = pos.slice(0, 1); req.proc = pos[1]; req.args = pos.slice(2); }
  if (req.cmd === 'sheet') { req.only = req.proc ? [req.proc, ...req.args] : []; delete req.proc; req.args = []; }
  return req;
}

#!/usr/bin/env node
// cli.mjs ARGS... — the browser build (web/dist/muster, or MUSTER_WEB_DIST)
// as a `muster` command, for the commands and options request.mjs reads:
// the scripts named are read from disk into the module's folder at the same
// paths, the command's output and error stream printed, its status the exit
// status.  So the random-program differential check can be run against the
// WebAssembly build:
//     MUSTER=tests/web/cli.mjs tests/differential/difftest --count 500
// (--threads is taken and ignored: the counts are the same on any number).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from './request.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const dist = path.resolve(process.env.MUSTER_WEB_DIST ?? path.join(here, '../../web/dist'));
const { createMuster } = await import(pathToFileURL(path.join(dist, 'muster/muster.mjs')).href);

const req = request(process.argv.slice(2));
if (typeof req === 'string') {
  process.stderr.write(`cli.mjs: not taken by the browser build: ${req}\n`);
  process.exit(2);
}
const m = await createMuster();
const cwd = process.cwd();
for (const f of [...req.files, ...req.vs]) {
  const at = path.resolve(cwd, f);
  if (fs.existsSync(at)) m.writeFile(path.isAbsolute(f) ? f : path.relative(cwd, at), fs.readFileSync(at));
}
const r = m.command(req);
process.stdout.write(r.stdout);
process.stderr.write(r.stderr);
process.exitCode = r.status;

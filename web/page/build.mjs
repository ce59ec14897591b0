// build.mjs SRCDIR OUTDIR — the page of muster in the browser, from web/page/
// into OUTDIR (index.html, app.js, app.css), next to OUTDIR/muster/, the
// package web/build.sh builds first.
//
// A page opened from disk (file://) can neither fetch its files nor start a
// worker from a file URL, so everything is inside app.js: the worker (the
// package and the library compiled to WebAssembly, bundled into one script)
// as a string the page starts from a Blob URL, and the gallery's scripts
// as texts.
import * as esbuild from 'esbuild';
import { readFile, writeFile, mkdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const page = dirname(fileURLToPath(import.meta.url));

function usage() {
  console.error('usage: node web/page/build.mjs SRCDIR OUTDIR');
  process.exit(2);
}

// 'muster-rules' (the package's name) is the package built in OUTDIR/muster;
// the core's Node-only modules are never loaded in a browser
function musterPackage(out) {
  return {
    name: 'muster-package',
    setup(build) {
      build.onResolve({ filter: /^muster-rules$/ }, () => ({ path: join(out, 'muster', 'muster.mjs') }));
      build.onResolve({ filter: /^(fs|path|crypto)$/ }, (a) => ({ path: a.path, namespace: 'node-only' }));
      build.onLoad({ filter: /.*/, namespace: 'node-only' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
    },
  };
}

// 'muster:worker' is the worker's code as a string; 'muster:gallery' the
// gallery with the text of every file it names
function virtualModules(workerCode, gallery) {
  return {
    name: 'muster-virtual',
    setup(build) {
      build.onResolve({ filter: /^muster:(worker|gallery)$/ }, (a) => ({ path: a.path, namespace: 'muster-virtual' }));
      build.onLoad({ filter: /.*/, namespace: 'muster-virtual' }, (a) =>
        a.path === 'muster:worker'
          ? { contents: `export default ${JSON.stringify(workerCode)};`, loader: 'js' }
          : { contents: JSON.stringify(gallery), loader: 'json' });
    },
  };
}

async function buildWorker(out) {
  const result = await esbuild.build({
    entryPoints: [join(page, 'worker.js')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    write: false,
    logLevel: 'warning',
    plugins: [musterPackage(out)],
  });
  return result.outputFiles[0].text;
}

// gallery.json, each entry's files read from the source tree
async function readGallery(src) {
  const entries = JSON.parse(await readFile(join(page, 'gallery.json'), 'utf8'));
  const texts = {};
  for (const entry of entries) {
    if (!entry.files.includes(entry.open)) throw new Error(`gallery: '${entry.title}' opens ${entry.open}, not one of its files`);
    for (const path of entry.files) texts[path] ??= await readFile(join(src, path), 'utf8');
  }
  return { entries, texts };
}

async function buildApp(out, workerCode, gallery) {
  await esbuild.build({
    entryPoints: [join(page, 'app.js')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    outfile: join(out, 'app.js'),
    logLevel: 'warning',
    plugins: [virtualModules(workerCode, gallery)],
  });
  await esbuild.build({
    entryPoints: [join(page, 'style.css')],
    bundle: true,
    minify: true,
    outfile: join(out, 'app.css'),
    logLevel: 'warning',
  });
  await writeFile(join(out, 'index.html'), await readFile(join(page, 'index.html'), 'utf8'));
}

async function report(out) {
  let total = 0, gzipped = 0;
  for (const name of ['index.html', 'app.js', 'app.css']) {
    const bytes = await readFile(join(out, name));
    total += bytes.length;
    gzipped += gzipSync(bytes, { level: 9 }).length;
  }
  console.log(`build.mjs: ${out}/index.html, app.js, app.css (${Math.round(total / 1024)} KiB, ${Math.round(gzipped / 1024)} KiB gzipped)`);
}

async function main() {
  const [srcArg, outArg] = process.argv.slice(2);
  if (!srcArg || !outArg) usage();
  const src = resolve(srcArg), out = resolve(outArg);
  await stat(join(out, 'muster', 'muster.mjs')).catch(() => {
    throw new Error(`${out}/muster/muster.mjs is missing: web/build.sh builds it first`);
  });
  await mkdir(out, { recursive: true });
  const workerCode = await buildWorker(out);
  const gallery = await readGallery(src);
  await buildApp(out, workerCode, gallery);
  await report(out);
}

main().catch((e) => {
  console.error(`build.mjs: ${e.message ?? e}`);
  process.exit(1);
});

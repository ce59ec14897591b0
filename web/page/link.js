// link.js — a link that holds the work: the files, the open file and the
// command, in the URL's fragment (never sent to a server):
//
//   #m1.  base64url( deflate-raw( UTF-8 JSON {"files": {path: file}, "open": path, "command": {request}} ) )
//
// A file is its text, or, for a file the page ships in its gallery (a
// ruleset, a variant, an example), {"shipped": HASH} — the page's own text of
// that path, whose hash is HASH — or {"shipped": HASH, "at": N, "cut": N,
// "put": TEXT} — that text with `cut` characters from `at` replaced by
// `put` (a house rule's edit).  So a link to a shipped ruleset, edited or
// not, is short.  A link naming a shipped text the page does not have (made
// with another version of muster) is refused with a message, never opened
// on a different text.
import { zipSync, strToU8 } from 'fflate';

export const PREFIX = '#m1.';
/** Past this many characters a link is not offered: some browsers, mail
 *  programs and chats cut longer ones. */
export const MAX_LINK = 16000;

export class DamagedLink extends Error {}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function toBase64url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new DamagedLink('it holds characters that are not base64url');
  if (text.length % 4 === 1) throw new DamagedLink('its base64url text has a wrong length');
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** A short hash of a text (53 bits, base 36): which shipped text a link means. */
export function textHash(text) {
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

// a file for the link: its text, or what it is of the shipped text of its path
function packFile(text, shipped) {
  if (typeof shipped !== 'string') return text;
  const hash = textHash(shipped);
  if (text === shipped) return { shipped: hash };
  let at = 0;
  while (at < text.length && at < shipped.length && text[at] === shipped[at]) at++;
  let end = 0;
  while (end < text.length - at && end < shipped.length - at
         && text[text.length - 1 - end] === shipped[shipped.length - 1 - end]) end++;
  const edit = { shipped: hash, at, cut: shipped.length - at - end, put: text.slice(at, text.length - end) };
  return JSON.stringify(edit).length < JSON.stringify(text).length ? edit : text;
}

// a file of the link back as its text; throws DamagedLink
function unpackFile(path, file, shipped) {
  if (typeof file === 'string') return file;
  if (typeof shipped !== 'string' || textHash(shipped) !== file.shipped) {
    throw new DamagedLink(`it names the shipped ${path} of another version of muster than this page's`);
  }
  if (file.at === undefined) return shipped;
  if (file.at + file.cut > shipped.length) throw new DamagedLink(`its edit of ${path} falls outside the file`);
  return shipped.slice(0, file.at) + file.put + shipped.slice(file.at + file.cut);
}

const isCount = (n) => Number.isInteger(n) && n >= 0;
function fileProblem(p, f) {
  if (typeof f === 'string') return null;
  if (!f || typeof f !== 'object' || typeof f.shipped !== 'string') return `the file ${p} is not text`;
  const edited = ['at', 'cut', 'put'].filter((k) => k in f).length;
  if (edited === 0) return null;
  if (edited !== 3 || !isCount(f.at) || !isCount(f.cut) || typeof f.put !== 'string') return `the edit of ${p} is not whole`;
  return null;
}

/** The fragment for {files, open, command}; shipped: {path: text} of the page's gallery. */
export async function encodeLink(work, shipped = {}) {
  const files = Object.fromEntries(Object.entries(work.files).map(([p, t]) => [p, packFile(t, shipped[p])]));
  const json = JSON.stringify({ files, open: work.open, command: work.command });
  const packed = await pipe(new TextEncoder().encode(json), new CompressionStream('deflate-raw'));
  return PREFIX + toBase64url(packed);
}

const COMMANDS = new Set(['run', 'prob', 'check', 'test', 'sheet', 'diff']);

// the shape a link (or the work kept in the browser) must have; a message saying what is wrong, or null
export function shapeProblem(work) {
  if (!work || typeof work !== 'object' || Array.isArray(work)) return 'it does not hold an object';
  const { files, open, command } = work;
  if (!files || typeof files !== 'object' || Array.isArray(files)) return 'it holds no files';
  const paths = Object.keys(files);
  if (paths.length === 0) return 'it holds no files';
  for (const p of paths) {
    const problem = fileProblem(p, files[p]);
    if (problem) return problem;
    if (!p || p.startsWith('/') || p.split('/').some((s) => s === '..' || s === '')) return `'${p}' is not a file path`;
  }
  const folder = paths.find((p) => paths.some((q) => q.startsWith(`${p}/`)));
  if (folder) return `'${folder}' is both a file and a folder`;
  if (typeof open !== 'string' || !(open in files)) return 'the file it opens is not one of its files';
  if (!command || typeof command !== 'object' || Array.isArray(command)) return 'it holds no command';
  if (!COMMANDS.has(command.cmd)) return `'${String(command.cmd)}' is not a command of the page`;
  const named = command.files ?? (command.file !== undefined ? [command.file] : []);
  if (!Array.isArray(named) || named.some((f) => !(f in files))) return 'its command names a file it does not hold';
  const plain = (v) => ['string', 'number', 'boolean'].includes(typeof v);
  if (command.args !== undefined && (typeof command.args !== 'object' || command.args === null || Array.isArray(command.args)
    || !Object.values(command.args).every((v) => plain(v) || (Array.isArray(v) && v.every(plain))))) {
    return 'its arguments are not names with values';
  }
  if (command.vs !== undefined && (!Array.isArray(command.vs) || command.vs.some((f) => !(f in files)))) return 'it compares with a file it does not hold';
  for (const key of ['proc', 'dice', 'seed', 'trials', 'budget', 'field', 'paper']) {
    if (command[key] !== undefined && !plain(command[key])) return `its ${key} is not a plain value`;
  }
  return null;
}

/** {files, open, command} from a fragment; throws DamagedLink saying what is wrong.
 *  shipped: {path: text} of the page's gallery, for the files the link names. */
export async function decodeLink(hash, shipped = {}) {
  if (!hash.startsWith(PREFIX)) throw new DamagedLink(`it does not start with ${PREFIX}`);
  const packed = fromBase64url(hash.slice(PREFIX.length));
  let bytes;
  try {
    bytes = await pipe(packed, new DecompressionStream('deflate-raw'));
  } catch {
    throw new DamagedLink('its compressed data is cut or corrupt');
  }
  let work;
  try {
    work = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new DamagedLink('what it holds is not valid JSON');
  }
  const problem = shapeProblem(work);
  if (problem) throw new DamagedLink(problem);
  for (const [p, f] of Object.entries(work.files)) work.files[p] = unpackFile(p, f, shipped[p]);
  return work;
}

/** The files as one .zip, at their paths. */
export function zipFiles(files) {
  const tree = {};
  for (const [path, text] of Object.entries(files)) tree[path] = strToU8(text);
  return zipSync(tree, { level: 6 });
}

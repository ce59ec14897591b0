// link.js — a link that holds the work: the files, the open file and the
// command, in the URL's fragment (never sent to a server):
//
//   #m1.  base64url( deflate-raw( UTF-8 JSON {"files": {path: text}, "open": path, "command": {request}} ) )
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

/** The fragment for {files, open, command}. */
export async function encodeLink(work) {
  const json = JSON.stringify({ files: work.files, open: work.open, command: work.command });
  const packed = await pipe(new TextEncoder().encode(json), new CompressionStream('deflate-raw'));
  return PREFIX + toBase64url(packed);
}

const COMMANDS = new Set(['run', 'prob', 'check', 'test', 'sheet', 'diff']);

// the shape a link must have; a message saying what is wrong, or null
function shapeProblem(work) {
  if (!work || typeof work !== 'object' || Array.isArray(work)) return 'it does not hold an object';
  const { files, open, command } = work;
  if (!files || typeof files !== 'object' || Array.isArray(files)) return 'it holds no files';
  const paths = Object.keys(files);
  if (paths.length === 0) return 'it holds no files';
  for (const p of paths) {
    if (typeof files[p] !== 'string') return `the file ${p} is not text`;
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

/** {files, open, command} from a fragment; throws DamagedLink saying what is wrong. */
export async function decodeLink(hash) {
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
  return work;
}

/** The files as one .zip, at their paths. */
export function zipFiles(files) {
  const tree = {};
  for (const [path, text] of Object.entries(files)) tree[path] = strToU8(text);
  return zipSync(tree, { level: 6 });
}

// client.js — the page's side of the worker (worker.js): jobs go one at a
// time, each with the files changed since the worker last saw them; a
// newer job of the same kind replaces one still waiting (a check as you
// type need not run for every keystroke); Cancel ends the worker and
// starts a fresh one.
import workerSource from 'muster:worker';

export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.cancelled = true;
  }
}

export class MusterClient {
  /** files(): the workspace now, {path: text}; onProgress(share, words);
   *  onBusy(job or null): a job started or everything ended. */
  constructor({ files, onProgress, onBusy }) {
    this.files = files;
    this.onProgress = onProgress ?? (() => {});
    this.onBusy = onBusy ?? (() => {});
    this.url = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
    this.queue = [];
    this.current = null;
    this.nextId = 1;
    this.start();
  }

  start() {
    this.worker = new Worker(this.url);
    this.sent = new Map();          // what the worker holds: path -> text
    this.worker.onmessage = (e) => this.received(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.failed(new Error(`the worker stopped: ${e.message || 'an error'}`));
    };
  }

  /** Run a job ({type, ...}); key: a kind of job of which only the latest waiting one is kept.
   *  Resolves with {result, renewed}, or {superseded: true}; rejects with Cancelled. */
  request(job, key = null) {
    return new Promise((resolve, reject) => {
      if (this.dead) { reject(this.dead); return; }
      if (key) {
        const waiting = this.queue.findIndex((q) => q.key === key);
        if (waiting >= 0) this.queue.splice(waiting, 1)[0].resolve({ superseded: true });
      }
      this.queue.push({ job, key, resolve, reject });
      this.pump();
    });
  }

  get busy() {
    return this.current !== null;
  }

  // the files that differ from what the worker holds
  delta() {
    const now = this.files();
    const changed = {}, removed = [];
    for (const [path, text] of Object.entries(now)) if (this.sent.get(path) !== text) changed[path] = text;
    for (const path of this.sent.keys()) if (!(path in now)) removed.push(path);
    for (const path of removed) this.sent.delete(path);
    for (const [path, text] of Object.entries(changed)) this.sent.set(path, text);
    return { changed, removed };
  }

  pump() {
    if (this.current || this.queue.length === 0) return;
    this.current = this.queue.shift();
    this.current.id = this.nextId++;
    const { changed, removed } = this.delta();
    this.worker.postMessage({ id: this.current.id, files: changed, removed, job: this.current.job });
    this.onBusy(this.current.job);
  }

  received(msg) {
    if (msg.ready || msg.failed) {
      if (msg.failed) this.failed(new Error(`muster could not start: ${msg.failed}`));
      return;
    }
    if (!this.current || msg.id !== this.current.id) return;
    if (msg.progress) {
      this.onProgress(msg.progress[0], msg.progress[1], this.current.job);
      return;
    }
    const done = this.current;
    this.current = null;
    this.failures = 0;
    done.resolve({ result: msg.result, renewed: msg.renewed });
    this.next();
  }

  next() {
    if (this.queue.length) this.pump();
    else this.onBusy(null);
  }

  failed(error) {
    const done = this.current;
    this.current = null;
    // a worker that cannot start would fail again at once: after a few tries, stop
    this.failures = (this.failures ?? 0) + 1;
    if (this.failures > 3) {
      this.dead = error;
      for (const q of [done, ...this.queue]) q?.reject(error);
      this.queue = [];
      this.onBusy(null);
      return;
    }
    this.restart();
    if (done) done.reject(error);
    this.next();
  }

  restart() {
    this.worker.terminate();
    this.start();
  }

  /** Stop the job running now (and the commands waiting): a fresh worker gets the files again. */
  cancel() {
    const stopped = this.current;
    this.current = null;
    this.restart();
    const kept = [];
    for (const q of this.queue) (q.key === 'command' ? q.reject(new Cancelled()) : kept.push(q));
    this.queue = kept;
    if (stopped) stopped.reject(new Cancelled());
    this.next();
    return stopped !== null;
  }
}

// dialog.js — small modal questions (a file's name, "delete it?") in the
// page's own <dialog>, which never blocks the page the way prompt() does.
import { h } from './dom.js';

function open(content, { onOk, okText, cancelText = 'Cancel' }) {
  return new Promise((resolve) => {
    const ok = h('button', { type: 'submit', class: 'primary', value: 'ok' }, okText);
    const cancel = h('button', { type: 'button', value: 'cancel', onclick: () => dialog.close('cancel') }, cancelText);
    const problem = h('p', { class: 'problem', role: 'alert' });
    const form = h('form', { method: 'dialog' }, content, problem, h('div', { class: 'buttons' }, cancel, ok));
    const dialog = h('dialog', { class: 'ask' }, form);
    form.addEventListener('submit', (e) => {
      const why = onOk ? onOk() : null;
      if (why) { e.preventDefault(); problem.textContent = why; }
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'ok');
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** Ask for a line of text; resolves with it, or null when cancelled.
 *  check(text): why it will not do, or null. */
export async function askText({ title, label, value = '', okText = 'OK', check = () => null }) {
  const input = h('input', { type: 'text', id: 'ask-input', value, spellcheck: 'false', autocomplete: 'off', size: 40 });
  const content = [h('h2', {}, title), h('label', { for: 'ask-input' }, label), input];
  setTimeout(() => { input.focus(); input.select(); }, 0);
  const ok = await open(content, { okText, onOk: () => check(input.value.trim()) });
  return ok ? input.value.trim() : null;
}

/** Ask yes or no; resolves true for yes. */
export function confirmBox({ title, text, okText = 'OK' }) {
  return open([h('h2', {}, title), h('p', {}, text)], { okText });
}

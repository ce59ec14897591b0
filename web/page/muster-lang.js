// muster-lang.js — muster's highlighting for CodeMirror 6: a stream
// tokenizer (the language is small and line-oriented, so a full grammar
// would buy little), its colours, and what the editor needs to know about
// comments and brackets.
import { StreamLanguage, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';

/** The keywords of lang/lexer.re: its keyword rules and its table of words
 *  that are keywords only where they can start something.  The phrases
 *  "one of" and "start at" are the lexer's too (ONEOF, STARTAT). */
export const KEYWORDS = [
  // keywords everywhere
  'proc', 'enum', 'let', 'return', 'if', 'else', 'reroll', 'roll', 'true', 'false', 'and', 'or', 'not',
  // keywords where they can start a declaration, or a line of a block
  'ruleset', 'ladder', 'record', 'table', 'bands', 'modifiers', 'outcome', 'choice', 'sequence',
  'example', 'import', 'variant', 'change', 'section', 'odds', 'die', 'bag',
  'draw', 'from', 'add', 'remove', 'each', 'cap', 'note', 'expect',
];

// of KEYWORDS, those the lexer takes as keywords in every place
const EVERYWHERE = new Set(KEYWORDS.slice(0, 13));
const CONTEXTUAL = new Set(KEYWORDS.slice(13));
// words the parser expects in one position only, names elsewhere: at the
// start of a line before more (column, step...), or before a string
const LINE_WORDS = new Set(['column', 'columns', 'step', 'phase', 'dice', 'choose']);
const STRING_WORDS = new Set(['source', 'of', 'before', 'after']);
// the built-in types (names, not keywords, to the lexer) and functions
export const TYPES = ['int', 'rat', 'bool', 'str', 'pool'];
export const BUILTINS = ['floor', 'ceil', 'round', 'abs', 'min', 'max', 'clamp', 'count', 'sum', 'highest',
  'lowest', 'any', 'all', 'doubles', 'shift', 'choose', 'text', 'prob'];
const TYPE_SET = new Set(TYPES);
const BUILTIN_SET = new Set(BUILTINS);
// after these, the next name is what the declaration names
const NAMES_FUNCTION = new Set(['proc', 'table', 'bands', 'modifiers', 'odds', 'sequence']);
const NAMES_TYPE = new Set(['enum', 'ladder', 'record', 'outcome', 'choice', 'die', 'bag']);

function positional(stream, word, first) {
  const rest = stream.string.slice(stream.pos);
  if (word === 'in') return /^[ \t]+[-0-9A-Za-z_(]/.test(rest);
  if (STRING_WORDS.has(word)) return /^[ \t]*"/.test(rest);
  return first && LINE_WORDS.has(word) && /^[ \t]+[^\s:=,.]/.test(rest);
}

function startState() {
  return { first: true, naming: null, afterType: false };
}

// a word: keyword, type, definition, call or plain name
function wordToken(stream, state, word) {
  const first = state.first;
  const naming = state.naming;
  state.naming = null;
  if (naming) return naming === 'type' ? 'typeDef' : 'functionDef';
  if (EVERYWHERE.has(word)) {
    if (word === 'true' || word === 'false') return 'bool';
    if (word === 'proc') state.naming = 'function';
    if (word === 'enum') state.naming = 'type';
    return 'keyword';
  }
  // "table" or "draw" is a keyword where it starts a line followed by more,
  // as the lexer reads it; `let table = 3` keeps it a name
  if (CONTEXTUAL.has(word) && first && /^[ \t]+[A-Za-z_"0-9]/.test(stream.string.slice(stream.pos))) {
    if (NAMES_FUNCTION.has(word)) state.naming = 'function';
    if (NAMES_TYPE.has(word)) state.naming = 'type';
    return 'keyword';
  }
  if ((word === 'one' || word === 'start') && first && stream.match(/^[ \t]+(of|at)\b/)) return 'keyword';
  if (positional(stream, word, first)) return 'keyword';
  if (TYPE_SET.has(word) && state.afterType) return 'typeName';
  if (BUILTIN_SET.has(word) && stream.match(/^\s*\(/, false)) return 'builtin';
  if (/^[A-Z]/.test(word)) return 'typeName';
  if (stream.match(/^\s*\(/, false)) return 'call';
  return 'variableName';
}

function token(stream, state) {
  if (stream.sol()) state.first = true;
  if (stream.eatSpace()) return null;
  const wasFirst = state.first;
  state.first = false;
  const afterType = state.afterType;
  state.afterType = false;
  if (stream.match('##')) { stream.skipToEnd(); return 'docComment'; }
  if (stream.eat('#')) { stream.skipToEnd(); return 'comment'; }
  if (stream.eat('"')) {
    let escaped = false, ch;
    while ((ch = stream.next()) != null) {
      if (ch === '"' && !escaped) break;
      escaped = !escaped && ch === '\\';
    }
    return 'string';
  }
  // dice: 3d6, d6, d100 (and "d(" right after roll)
  if (stream.match(/^\d*d\d+\b/)) return 'dice';
  if (stream.match(/^\d+\.\d+\b/) || stream.match(/^\d+\/\d+\b/) || stream.match(/^\d+\b/)) return 'number';
  if (stream.eat('?')) return 'unknown';
  if (stream.match(/^(->|=>|\.\.\.|\.\.|==|!=|<=|>=|[-+*/%<>=~])/)) {
    const op = stream.current();
    state.afterType = op === '->';
    return 'operator';
  }
  if (stream.eat(':')) { state.afterType = true; return 'punctuation'; }
  if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
    state.first = wasFirst;
    state.afterType = afterType;
    const kind = wordToken(stream, state, stream.current());
    state.first = false;
    state.afterType = stream.current() === 'pool' && kind === 'typeName';
    return kind;
  }
  if (stream.match(/^[{}()[\],]/)) return 'bracket';
  stream.next();
  return null;
}

export const musterLanguage = StreamLanguage.define({
  name: 'muster',
  startState,
  token,
  copyState: (s) => ({ ...s }),
  languageData: {
    commentTokens: { line: '#' },
    closeBrackets: { brackets: ['(', '[', '{', '"'] },
  },
  tokenTable: {
    docComment: tags.docComment,
    dice: tags.special(tags.number),
    unknown: tags.null,
    bool: tags.bool,
    builtin: tags.standard(tags.function(tags.variableName)),
    call: tags.function(tags.variableName),
    functionDef: tags.definition(tags.function(tags.variableName)),
    typeDef: tags.definition(tags.typeName),
  },
});

// calm colours that read well on the page's off-white
const musterColours = HighlightStyle.define([
  { tag: tags.keyword, color: '#7a3e9d', fontWeight: '600' },
  { tag: tags.docComment, color: '#3d6b4f', fontStyle: 'italic' },
  { tag: tags.comment, color: '#7d8a80', fontStyle: 'italic' },
  { tag: tags.string, color: '#a0522d' },
  { tag: tags.special(tags.number), color: '#b3261e', fontWeight: '600' },
  { tag: tags.number, color: '#1c6e8c' },
  { tag: tags.bool, color: '#1c6e8c' },
  { tag: tags.null, color: '#b3261e', fontWeight: '700' },
  { tag: [tags.typeName, tags.definition(tags.typeName)], color: '#2a6f97' },
  { tag: tags.definition(tags.function(tags.variableName)), color: '#0b5394', fontWeight: '600' },
  { tag: tags.standard(tags.function(tags.variableName)), color: '#6b4f00' },
  { tag: tags.function(tags.variableName), color: '#0b5394' },
  { tag: tags.operator, color: '#555' },
]);

/** The extensions that make an editor speak muster. */
export function muster() {
  return [musterLanguage, syntaxHighlighting(musterColours)];
}

" Vim indent file
" Language: muster, the language of tabletop wargame rules
"
" The house style (rules/*.muster):
"   - a block's lines are one shiftwidth in from the line its '{' belongs
"     to, and its '}' is back at that line's indent;
"   - a line inside brackets opened on an earlier line lines up just after
"     the '(' (a long parameter list, one parameter list under the other);
"     with nothing after the '(', it is one shiftwidth in;
"   - a continuation line, which finishes what the line above started
"     outside brackets, is lined up by hand: a `source "..."` line under a
"     declaration's head (two spaces in, or under the parameters), a
"     modifier's `: VALUE "LABEL"` under its condition, an outcome
"     member's `(FIELDS)` under its words, or a line after one that ends
"     with an operator.  Such a line keeps its indent when it is further in
"     than the block's lines, and is put one shiftwidth in from them if not.
" The line after a continuation line is indented from the line its
" declaration or statement starts on.

if exists('b:did_indent')
  finish
endif
let b:did_indent = 1

setlocal indentexpr=MusterIndent()
setlocal indentkeys=0},0),!^F,o,O
setlocal nolisp nosmartindent autoindent

let b:undo_indent = 'setlocal indentexpr< indentkeys< lisp< smartindent< autoindent<'

if exists('*MusterIndent')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

" The words that start a declaration (with `change` before some in a
" variant): a `source` line after their head continues it.
let s:heads = ['proc', 'enum', 'ladder', 'record', 'table', 'bands', 'modifiers', 'outcome', 'choice',
      \ 'sequence', 'example', 'odds', 'section']
let s:head_re = '^\s*\%(change\s\+\)\=\<\%(' . join(s:heads, '\|') . '\)\>'

" How far back to look for the '(' a line may be inside.
let s:reach = 100

function! s:Blank(s) abort
  let closed = len(a:s) >= 2 && a:s[len(a:s) - 1] ==# '"'
  return '"' . repeat('x', len(a:s) - (closed ? 2 : 1)) . (closed ? '"' : '')
endfunction

" Line lnum's code: each string's insides as x's (so the columns stay), no
" comment.  Kept by the line's text, as one line is read many times.
let s:code = {}
function! s:Code(lnum) abort
  let line = getline(a:lnum)
  if !has_key(s:code, line)
    if len(s:code) > 5000
      let s:code = {}
    endif
    let s:code[line] = substitute(substitute(line, '"\%([^"\\]\|\\.\)*"\=', '\=s:Blank(submatch(0))', 'g'),
          \ '#.*$', '', '')
  endif
  return s:code[line]
endfunction

" The closest line above lnum with code on it (0: none).
function! s:PrevCode(lnum) abort
  let l = prevnonblank(a:lnum - 1)
  while l > 0 && getline(l) =~# '^\s*#'
    let l = prevnonblank(l - 1)
  endwhile
  return l
endfunction

" [line, byte index] of the innermost '(' opened on a line above lnum and
" still open at its start; [0, 0] when there is none.  Braces never stand
" inside brackets, so the search stops at one.
function! s:OpenParen(lnum) abort
  let depth = 0
  let l = a:lnum - 1
  while l >= 1 && l >= a:lnum - s:reach
    let code = s:Code(l)
    if code !~# '[()]'
      if code =~# '[{}]'
        return [0, 0]
      endif
      let l -= 1
      continue
    endif
    let at = []
    let i = match(code, '[(){}]')
    while i >= 0
      call add(at, i)
      let i = match(code, '[(){}]', i + 1)
    endwhile
    for i in reverse(at)
      let c = code[i]
      if c ==# ')'
        let depth += 1
      elseif c ==# '('
        if depth == 0
          return [l, i]
        endif
        let depth -= 1
      else
        return [0, 0]
      endif
    endfor
    let l -= 1
  endwhile
  return [0, 0]
endfunction

" The braces lines first..last open, less those they close; a '}' first on
" the first line closes a block its own indent already left.
function! s:Braces(first, last) abort
  let n = 0
  for l in range(a:first, a:last)
    let code = s:Code(l)
    let n += len(substitute(code, '[^{]', '', 'g')) - len(substitute(code, '[^}]', '', 'g'))
  endfor
  return n + (s:Code(a:first) =~# '^\s*}')
endfunction

" Whether line lnum is a continuation line outside brackets (see the top).
function! s:Hanging(lnum) abort
  let code = s:Code(a:lnum)
  if code =~# '^\s*$'
    return 0
  endif
  let p = s:PrevCode(a:lnum)
  if p == 0
    return 0
  endif
  if code =~# '^\s*:'
    return 1
  endif
  let pcode = s:Code(p)
  if code =~# '^\s*source\s*"'
    let h = s:Head(p)
    return getline(h) =~# s:head_re && s:Braces(h, p) == 0
  endif
  if code =~# '^\s*(' && pcode =~# '^\s*\h\w*\s\+"x*"\s*$' && s:OpenParen(p)[0] == 0
    return 1
  endif
  return pcode =~# '\%(\<and\|\<or\|\<not\|[+*/%=<>~]\)\s*$'
endfunction

" The line the declaration or statement holding line lnum starts on.
function! s:Head(lnum) abort
  let l = a:lnum
  for guard in range(s:reach)
    let open = s:OpenParen(l)
    if open[0] > 0
      let l = open[0]
    elseif s:Hanging(l)
      let l = s:PrevCode(l)
    else
      break
    endif
  endfor
  return l
endfunction

function! MusterIndent() abort
  let lnum = v:lnum
  let code = s:Code(lnum)
  let open = s:OpenParen(lnum)
  if open[0] > 0
    if s:Code(open[0])[open[1] + 1 :] =~# '^\s*$'
      let ind = indent(s:Head(open[0]))
      return code =~# '^\s*)' ? ind : ind + shiftwidth()
    endif
    return strdisplaywidth(strpart(getline(open[0]), 0, open[1] + 1))
  endif
  let p = s:PrevCode(lnum)
  if p == 0
    return 0
  endif
  let h = s:Head(p)
  let ind = indent(h) + shiftwidth() * s:Braces(h, p)
  if code =~# '^\s*}'
    let ind -= shiftwidth()
  endif
  if getline(lnum) !~# '^\s*#' && s:Hanging(lnum)
    return indent(lnum) > ind ? indent(lnum) : ind + shiftwidth()
  endif
  return max([ind, 0])
endfunction

let &cpo = s:cpo_save
unlet s:cpo_save

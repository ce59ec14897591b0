" Vim syntax file
" Language:    muster, the language of tabletop wargame rules
" Filenames:   *.muster
"
" The words below are the lexer's (lang/lexer.re), the words the parser
" expects in one position only (lang/parser.y) and the compiler's built-in
" functions and types (compiler/compiler.c).  tests/editors.sh checks that
" this file and the VS Code grammar know every one of them and no other.
"
" Thirteen words are keywords everywhere.  The rest are keywords only where
" they can start something (a declaration at the top level, a line of a
" modifiers or example block), and names elsewhere, so they are matched
" only where they stand at the start of a line, followed by what can follow
" them there: `let table = 3` keeps `table` a name.

if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn case match

" ---- comments and strings ----
syn match musterComment /#.*$/ contains=@Spell
syn match musterDocComment /##.*$/ contains=@Spell
syn match musterEscape contained /\\./
syn region musterString start=/"/ skip=/\\./ end=/"/ end=/$/ contains=musterEscape,@Spell

" ---- numbers, dice, the unknown value ----
syn match musterNumber /\<\d\+\>/
syn match musterFraction /\<\d\+\/\d\+\>/
syn match musterDecimal /\<\d\+\.\d\+\>/
" 2d6, d6, d100; and d( right after roll, a die whose sides are worked out
syn match musterDice /\<\d*d\d\+\>/
syn match musterDice /\%(\<roll\s\+\)\@<=d\ze(/
" ? : a value the rules text does not give
syn match musterUnknown /?/

" ---- operators ----
syn match musterOperator /[-+*/%<>=~]/
syn match musterOperator /==\|!=\|<=\|>=\|->\|=>\|\.\.\.\=/

" ---- the words that are keywords everywhere ----
syn keyword musterConditional if else
syn keyword musterStatement let return reroll
syn keyword musterRoll roll
" draw, from a bag, where a name or number follows it (elsewhere a name: an outcome `draw`)
syn match musterRoll /\<draw\>\ze[ \t]\+\w/
syn match musterRoll /\%(\<draw[ \t]\+\w\+[ \t]\+\)\@<=from\>/
syn keyword musterLogical and or not
syn keyword musterBoolean true false
syn keyword musterDeclaration proc nextgroup=musterFuncName skipwhite
syn keyword musterDeclaration enum nextgroup=musterTypeName skipwhite

" ---- declarations: keywords at the top level ----
syn match musterDeclaration /^\s*\zs\<\%(table\|bands\|modifiers\|odds\|sequence\)\>\ze\s\+\h/
      \ nextgroup=musterFuncName skipwhite
syn match musterDeclaration /^\s*\zs\<\%(ladder\|record\|outcome\|choice\|die\|bag\)\>\ze\s\+\h/
      \ nextgroup=musterTypeName skipwhite
syn match musterDeclaration /^\s*\zs\<\%(example\|section\|import\)\>\ze\s*"/
" change KIND NAME, in a variant
syn match musterDeclaration /^\s*\zs\<change\>\ze\s\+\h/ nextgroup=musterChangedKind skipwhite
syn match musterChangedKind contained /\<\%(table\|bands\|modifiers\)\>/ nextgroup=musterFuncName skipwhite
syn match musterChangedKind contained /\<\%(ladder\|outcome\|choice\)\>/ nextgroup=musterTypeName skipwhite
syn match musterFuncName contained /\h\w*/
syn match musterTypeName contained /\h\w*/

" the ruleset header and a variant's: its lines are settings, KEY VALUE
syn region musterHeader matchgroup=musterDeclaration start=/^\s*\<\%(ruleset\|variant\)\>/
      \ matchgroup=NONE end=/}/
      \ contains=musterComment,musterDocComment,musterString,musterSetting,musterHeaderOf
syn match musterSetting contained /^\s*\zs\h\w*/
syn match musterHeaderOf contained /\<of\>\ze\s*"/

" ---- keywords at the start of a line of a block ----
" modifiers: each, cap, note, one of, start at; example: expect;
" a variant's changes: add, remove (add before/after "LABEL")
syn match musterBlockWord /^\s*\zs\<\%(each\|cap\|note\|expect\|add\|remove\)\>\ze\s\+[^[:space:]:=,.]/
syn match musterBlockWord /^\s*\zs\<\%(one\s\+of\|start\s\+at\)\>/
syn match musterWord /\%(\<add\s\+\)\@<=\<\%(before\|after\)\>\ze\s*"/

" ---- words the parser expects in one position ----
syn match musterWord /\<source\>\ze\s*"/
syn match musterWord /^\s*\zs\<\%(column\|columns\)\>\ze\s\+[^[:space:]:=,.]/
syn match musterWord /^\s*\zs\<\%(step\|phase\)\>\ze\s\+[[:alpha:]_"]/
syn match musterWord /^\s*\zs\<dice\>\ze\s\+\d/
syn match musterWord /^\s*\zs\<choose\>\ze\s\+\h\w*\s*=[^=]/
syn match musterWord /\%([[:alnum:]_)]\s\)\@<=\<within\>\ze\s\+[[:alnum:]_(.]/
syn match musterWord /\<default\>\ze\s\+\h\w*\s*\%(#.*\)\=$/
syn match musterWord /\<in\>\ze\s\+[-+]\=\%(\d\|\.\.\)/
" x in [a, b]: among those listed
syn match musterWord /\<in\>\ze[ \t]*\[/
syn match musterWord /\%(^\s*\|{\s*\)\@<=\<\%(chance\|mean\)\>\ze\s\+\S/

" ---- types and built-in functions ----
" after '->' any name is a type; after ':' only the built-in ones are
" picked out (a named argument or a table cell follows ':' too)
syn match musterReturnType /\%(->\s*\)\@<=\h\w*/
syn match musterType /\%(\%(:\|->\)\s*\)\@<=\<\%(int\|rat\|bool\|str\|pool\)\>/
" pool of ENUM: a pool of symbol dice
syn match musterType /\<pool[ \t]\+\zsof\>/
syn match musterBuiltin /\<\%(floor\|ceil\|round\|abs\|min\|max\|clamp\|count\|sum\|highest\|lowest\|any\|all\|doubles\|shift\|choose\|text\|prob\)\>\ze\s*(/

" the header is the one item over several lines; scripts are small
syn sync fromstart

hi def link musterComment      Comment
hi def link musterDocComment   SpecialComment
hi def link musterString       String
hi def link musterEscape       SpecialChar
hi def link musterNumber       Number
hi def link musterFraction     Number
hi def link musterDecimal      Float
hi def link musterDice         Special
hi def link musterUnknown      Todo
hi def link musterOperator     Operator
hi def link musterConditional  Conditional
hi def link musterStatement    Statement
hi def link musterRoll         Keyword
hi def link musterLogical      Operator
hi def link musterBoolean      Boolean
hi def link musterDeclaration  Structure
hi def link musterChangedKind  musterDeclaration
hi def link musterFuncName     Function
hi def link musterTypeName     Type
hi def link musterSetting      Identifier
hi def link musterHeaderOf     musterWord
hi def link musterBlockWord    Keyword
hi def link musterWord         Keyword
hi def link musterReturnType   Type
hi def link musterType         Type
hi def link musterBuiltin      Function

let b:current_syntax = 'muster'

let &cpo = s:cpo_save
unlet s:cpo_save

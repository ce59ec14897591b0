" Vim filetype plugin
" Language: muster, the language of tabletop wargame rules

if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1

" '#' starts a comment, '##' a documentation comment
setlocal commentstring=#\ %s
setlocal comments=:##,:#
setlocal formatoptions-=t formatoptions+=croql
" `import "dice"` names dice.muster: gf finds it
setlocal suffixesadd=.muster
" the house style: blocks indented two spaces
setlocal expandtab shiftwidth=2 softtabstop=2

let b:undo_ftplugin = 'setlocal commentstring< comments< formatoptions< suffixesadd< expandtab< shiftwidth< softtabstop<'

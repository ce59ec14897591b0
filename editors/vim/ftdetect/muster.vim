" muster scripts: tabletop wargame rules
autocmd BufNewFile,BufRead *.muster setfiletype muster

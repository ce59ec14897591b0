run echo_text.muster $'ec\x1bho' s=x

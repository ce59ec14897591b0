prob echo_text.muster label s=$'red \x1b[31m \xff\xfe end'

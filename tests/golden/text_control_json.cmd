run echo_text.muster echo s=$'red \x1b[31m \xff\xfe \x7f \xc2\x9b end' --json --dice 1

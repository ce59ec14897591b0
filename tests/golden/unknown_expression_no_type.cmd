run -e '?'

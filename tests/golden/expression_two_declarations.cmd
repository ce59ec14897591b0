run -e '1 } proc y() -> int { return 2'

run -e ''

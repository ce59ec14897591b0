prob -e 'count(roll [10d40, 10d30] >= 20)' --exact

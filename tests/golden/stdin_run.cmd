run - hits n=3 --dice 4,2,6

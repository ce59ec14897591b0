prob when.muster outer --exact --budget 300

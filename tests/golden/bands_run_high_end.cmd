run bands.muster chart_text total=9223372036854775807 --seed=1 --explain

test suite/alpha.muster suite/more/delta.muster

run bags.muster union_first --dice union,union,rebel --explain

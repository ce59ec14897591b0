run bags.muster some n=4 --dice rebel,rebel,rebel,rebel

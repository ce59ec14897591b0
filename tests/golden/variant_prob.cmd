prob ../../rules/variants/rebs-light-cover.muster fire_hits card=8 band=c cover=light

diff ../../rules/rebs.muster ../../rules/variants/rebs-light-cover.muster fire_hits card=7 band=c cover=light

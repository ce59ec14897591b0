check rules.muster --choose=Critical=disorder

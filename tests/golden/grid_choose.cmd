prob rules.muster fire stands=1,2 --choose Critical=disorder

run rules.muster worsen m=steady steps=1

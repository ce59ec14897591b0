run rules.muster moves f=skirmish c=light

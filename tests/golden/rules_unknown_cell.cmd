run rules.muster moves f=column c=light

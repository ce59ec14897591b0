run rules.muster cover_text c=light

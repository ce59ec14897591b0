prob faces.muster attack

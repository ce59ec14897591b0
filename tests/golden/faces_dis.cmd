dis faces.muster attack

test faces_examples.muster

check ../../examples/volley.muster

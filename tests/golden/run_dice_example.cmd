run ../../examples/volley.muster hits card=6 --dice=4,5,6,1,2,3

test suite

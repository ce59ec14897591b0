test suite//

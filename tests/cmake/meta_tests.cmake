# meta tests

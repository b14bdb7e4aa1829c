package gather

// BaseNames exposes baseNames to the package's external tests.
var BaseNames = baseNames

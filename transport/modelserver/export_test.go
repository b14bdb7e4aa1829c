package modelserver

// WallClock is the server's real clock, for external tests whose fake
// clocks differ from it in one sleep only.
var WallClock Clock = realClock{}

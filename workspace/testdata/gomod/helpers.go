package main

// banner is printed first.
func banner() string { return "shop" }

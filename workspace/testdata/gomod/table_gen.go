package main

func GitIgnoredGen() {}

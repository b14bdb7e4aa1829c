package main

func KeptGen() {}

package main

import (
	"fmt"

	"example.com/shop/cart"
)

func main() {
	c := cart.New()
	c.Add(cart.Item{SKU: "x", Price: 3})
	fmt.Println(c.Total())
}

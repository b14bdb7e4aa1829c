// Package cart holds a shopping cart.
package cart

// Cart is a list of items.
type Cart struct {
	Items []Item
	owner string
}

// New returns an empty cart.
func New() *Cart { return &Cart{} }

// Add puts an item in the cart.
func (c *Cart) Add(it Item) {
	c.Items = append(c.Items, it)
}

// Total sums the prices.
func (c *Cart) Total() int {
	t := 0
	for _, it := range c.Items {
		t += it.Price
	}
	return t
}

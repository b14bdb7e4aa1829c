package cart

// Item is one product line.
type Item struct {
	SKU   string
	Price int
}

// MaxItems bounds a cart.
const MaxItems = 100

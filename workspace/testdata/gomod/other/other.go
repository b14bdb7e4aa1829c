package other

// Add adds two numbers; not the cart's Add.
func Add(a, b int) int { return a + b }

// Total is unrelated.
func Total() int { return 0 }

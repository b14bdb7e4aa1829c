package kv

import "fmt"

// Cache reads through to a loader and keeps what it loaded in a Store.
type Cache struct {
	store  *Store
	loader func(key string) (string, error)
	hits   int
}

// NewCache returns a cache of at most limit entries over load.
func NewCache(limit int, load func(string) (string, error)) *Cache {
	return &Cache{store: NewStore(limit), loader: load}
}

// Get returns the value for key, loading and storing it on a miss.
func (c *Cache) Get(key string) (string, error) {
	if v, err := c.store.Lookup(key); err == nil {
		c.hits++
		return v, nil
	}
	v, err := c.loader(key)
	if err != nil {
		return "", fmt.Errorf("load %q: %w", key, err) // the loader's error, wrapped
	}
	if !c.store.Insert(key, v) {
		return v, ErrMissing
	}
	return v, nil
}

// Hits reports how many lookups the store answered.
func (c *Cache) Hits() int { return c.hits }

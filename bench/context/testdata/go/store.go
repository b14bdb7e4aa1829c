package kv

import (
	"errors"
	"sync"
)

// ErrMissing is returned for a key that is not stored.
var ErrMissing = errors.New("kv: missing key")

// Store is a concurrency-safe map of strings with a size limit.
type Store struct {
	mu      sync.Mutex
	entries map[string]string
	limit   int
}

// NewStore returns an empty store holding at most limit entries.
func NewStore(limit int) *Store {
	return &Store{entries: make(map[string]string), limit: limit}
}

// Lookup returns the value stored under key.
func (s *Store) Lookup(key string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.entries[key]
	if !ok {
		return "", ErrMissing
	}
	return v, nil
}

// Insert stores value under key; it reports false when the store is full.
func (s *Store) Insert(key, value string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.entries) >= s.limit {
		return false
	}
	s.entries[key] = value
	return true
}

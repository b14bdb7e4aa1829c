package api

import (
	"context"
	"errors"
)

// Server answers the API.
type Server struct {
	store Store
}

func (s *Server) handleCreate(ctx context.Context, req *Request) (*Response, error) {
	if req.ID == "" {
		return nil, errors.New("create: missing id")
	}
	item, err := s.store.Create(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	return &Response{Item: item}, nil
}

func (s *Server) handleUpdate(ctx context.Context, req *Request) (*Response, error) {
	if req.ID == "" {
		return nil, errors.New("update: missing id")
	}
	item, err := s.store.Update(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	return &Response{Item: item}, nil
}

func loadConfig(cfg *Config) {
	cfg.Host = getenv("HOST")
	cfg.Port = getenv("PORT")
}

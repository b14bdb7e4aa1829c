package lsp

import "sync"

// preparer parses and indexes documents as they open, off the read loop,
// one at a time, the most recently opened first, so that the first
// request in a document finds its syntax tree and its index made. Without
// it that request parsed the whole document (1–2 ms for a file of a few
// hundred lines) before the model was asked. Of documents opened in a
// burst (a session restored), only the newest maxContextDocs wait their
// turn; a request parses any other as before.
type preparer struct {
	// prepare is the work done for each document; set before use.
	prepare func(*document)

	mu      sync.Mutex
	pending []*document // guarded by mu; the newest last
	running bool        // guarded by mu: the worker is on its way
	closed  bool        // guarded by mu
	wg      sync.WaitGroup
}

// add queues d for work, starting the worker if it is idle.
func (p *preparer) add(d *document) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.pending = append(p.pending, d)
	if n := len(p.pending); n > maxContextDocs {
		p.pending = append(p.pending[:0], p.pending[n-maxContextDocs:]...)
	}
	if !p.running {
		p.running = true
		p.wg.Add(1)
		go p.work()
	}
}

func (p *preparer) work() {
	defer p.wg.Done()
	for {
		p.mu.Lock()
		if len(p.pending) == 0 || p.closed {
			p.running = false
			p.mu.Unlock()
			return
		}
		d := p.pending[len(p.pending)-1]
		p.pending = p.pending[:len(p.pending)-1]
		p.mu.Unlock()
		p.prepare(d)
	}
}

// close drops what is queued and waits for the document in hand; nothing
// is queued after.
func (p *preparer) close() {
	p.mu.Lock()
	p.closed, p.pending = true, nil
	p.mu.Unlock()
	p.wg.Wait()
}

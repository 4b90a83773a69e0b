package selfplay

import "sync"

// EnginePool keeps the toolkit engine's players of finished games for reuse
// by later games, so that a node pool is allocated once (USI engines are not
// kept: see usiPlayer). A player is kept under a key that says which specs
// can reuse it: the same settings. It is safe for concurrent use. Close ends
// the idle players.
type EnginePool struct {
	mu   sync.Mutex
	idle map[string][]pooled
}

// pooled is an idle engine.
type pooled interface {
	quit() error // ends it for good
}

// NewEnginePool returns an empty pool.
func NewEnginePool() *EnginePool { return &EnginePool{idle: map[string][]pooled{}} }

// get takes an idle engine kept under key, or returns nil.
func (e *EnginePool) get(key string) pooled {
	e.mu.Lock()
	defer e.mu.Unlock()
	list := e.idle[key]
	if len(list) == 0 {
		return nil
	}
	p := list[len(list)-1]
	e.idle[key] = list[:len(list)-1]
	return p
}

func (e *EnginePool) put(key string, p pooled) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.idle[key] = append(e.idle[key], p)
}

// Close quits every idle engine.
func (e *EnginePool) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	var first error
	for key, list := range e.idle {
		for _, p := range list {
			if err := p.quit(); err != nil && first == nil {
				first = err
			}
		}
		delete(e.idle, key)
	}
	return first
}

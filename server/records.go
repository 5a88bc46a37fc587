package server

import (
	"context"
	"sync"

	"cardroom/record"
	"cardroom/store"
)

// finished is a finished game's row and event log.
type finished struct {
	meta   store.Table
	events []record.Entry
}

// recordCache keeps the logs of recently read finished games: a finished
// game never changes, and a replay is read step by step (one request per
// step), so each step would otherwise read the whole log again. It holds at
// most max games; when full it forgets half of them (any half: the cache
// is a cost bound, not an index).
type recordCache struct {
	mu   sync.Mutex
	m    map[string]*finished
	max  int
	hits int64
}

func newRecordCache(max int) *recordCache {
	return &recordCache{m: map[string]*finished{}, max: max}
}

// get returns table id's row and, when the game is finished, its log.
func (c *recordCache) get(ctx context.Context, st store.Store, id string) (*finished, error) {
	c.mu.Lock()
	f := c.m[id]
	if f != nil {
		c.hits++
	}
	c.mu.Unlock()
	if f != nil {
		return f, nil
	}
	meta, err := st.Table(ctx, id)
	if err != nil {
		return nil, err
	}
	f = &finished{meta: meta}
	if meta.Status != store.StatusFinished {
		return f, nil
	}
	if f.events, err = st.Events(ctx, id); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.m) >= c.max {
		n := 0
		for k := range c.m {
			if n >= c.max/2 {
				break
			}
			delete(c.m, k)
			n++
		}
	}
	c.m[id] = f
	c.mu.Unlock()
	return f, nil
}

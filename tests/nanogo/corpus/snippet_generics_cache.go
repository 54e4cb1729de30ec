type Cache[K comparable, V any] struct {
	data  map[K]V
	order []K
	limit int
}

func NewCache[K comparable, V any](limit int) *Cache[K, V] {
	return &Cache[K, V]{data: make(map[K]V), limit: limit}
}

func (c *Cache[K, V]) Put(k K, v V) {
	if _, ok := c.data[k]; !ok {
		c.order = append(c.order, k)
		if len(c.order) > c.limit {
			oldest := c.order[0]
			c.order = c.order[1:]
			delete(c.data, oldest)
		}
	}
	c.data[k] = v
}

func (c *Cache[K, V]) Get(k K) (V, bool) {
	v, ok := c.data[k]
	return v, ok
}

c := NewCache[string, int](2)
c.Put("a", 1)
c.Put("b", 2)
c.Put("c", 3)
_, okA := c.Get("a")
vc, okC := c.Get("c")
fmt.Println(okA, vc, okC, c.order, len(c.data))

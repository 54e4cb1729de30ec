type SafeMap struct {
	mu sync.Mutex
	m  map[string]int
}

func (s *SafeMap) Add(k string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] += n
}

sm := SafeMap{m: map[string]int{}}
var wg sync.WaitGroup
for i := 0; i < 30; i++ {
	wg.Add(1)
	go func(i int) {
		defer wg.Done()
		sm.Add([]string{"x", "y", "z"}[i%3], i)
	}(i)
}
wg.Wait()
fmt.Println(sm.m)

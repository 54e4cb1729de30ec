var wg sync.WaitGroup
var mu sync.Mutex
counts := make(map[int]int)
for i := 0; i < 2000; i++ {
	wg.Add(1)
	go func(n int) {
		defer wg.Done()
		mu.Lock()
		counts[n%7]++
		mu.Unlock()
	}(i)
}
wg.Wait()
fmt.Println(counts)

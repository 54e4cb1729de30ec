package main

import (
	"fmt"
	"sync"
)

func main() {
	const n = 8
	sem := make(chan struct{}, 3)
	out := make([]string, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	maxActive, active := 0, 0
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			mu.Lock()
			active++
			if active > maxActive {
				maxActive = active
			}
			mu.Unlock()
			out[i] = fmt.Sprintf("task%d", i)
			mu.Lock()
			active--
			mu.Unlock()
			<-sem
		}(i)
	}
	wg.Wait()
	fmt.Println(out)
	fmt.Println(maxActive <= 3)
}

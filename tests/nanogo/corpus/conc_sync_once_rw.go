package main

import (
	"fmt"
	"sync"
)

func main() {
	var once sync.Once
	for i := 0; i < 3; i++ {
		once.Do(func() { fmt.Println("init once") })
	}
	var mu sync.RWMutex
	data := map[string]int{"a": 1}
	var wg sync.WaitGroup
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.RLock()
			_ = data["a"]
			mu.RUnlock()
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		data["a"] = 2
		mu.Unlock()
	}()
	wg.Wait()
	fmt.Println(data)
}

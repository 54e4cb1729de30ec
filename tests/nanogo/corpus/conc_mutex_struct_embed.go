package main

import (
	"fmt"
	"sort"
	"sync"
)

type Registry struct {
	sync.Mutex
	names map[string]int
}

func main() {
	r := Registry{names: map[string]int{}}
	var wg sync.WaitGroup
	words := []string{"go", "rust", "go", "zig", "go", "rust"}
	for _, w := range words {
		wg.Add(1)
		go func(w string) {
			defer wg.Done()
			r.Lock()
			r.names[w]++
			r.Unlock()
		}(w)
	}
	wg.Wait()
	keys := []string{}
	for k := range r.names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Println(k, r.names[k])
	}
}

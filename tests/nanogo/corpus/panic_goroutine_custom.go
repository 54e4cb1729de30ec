package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		panic(fmt.Sprintf("worker %d failed", 3))
	}()
	wg.Wait()
}

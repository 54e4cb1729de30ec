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
		var arr []int
		_ = arr[3]
	}()
	wg.Wait()
	fmt.Println("unreachable")
}

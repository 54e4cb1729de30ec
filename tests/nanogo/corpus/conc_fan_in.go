package main

import (
	"fmt"
	"sync"
)

func main() {
	out := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				out <- w*100 + i
			}
		}(w)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	sum, count := 0, 0
	for v := range out {
		sum += v
		count++
	}
	fmt.Println(count, sum)
}

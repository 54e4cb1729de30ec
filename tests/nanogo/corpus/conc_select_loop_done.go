package main

import (
	"fmt"
	"sync"
)

func main() {
	nums := make(chan int)
	words := make(chan string)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 1; i <= 3; i++ {
			nums <- i
		}
	}()
	go func() {
		defer wg.Done()
		for _, w := range []string{"a", "b"} {
			words <- w
		}
	}()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	sum, letters := 0, ""
	for {
		select {
		case n := <-nums:
			sum += n
		case w := <-words:
			letters += w
		case <-done:
			fmt.Println(sum, len(letters))
			return
		}
	}
}

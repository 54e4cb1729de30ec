package main

import (
	"fmt"
	"sync"
)

func main() {
	const n = 4
	chans := make([]chan struct{}, n+1)
	for i := range chans {
		chans[i] = make(chan struct{})
	}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			<-chans[id]
			fmt.Printf("goroutine %d runs in turn\n", id)
			chans[id+1] <- struct{}{}
		}(i)
	}
	chans[0] <- struct{}{}
	<-chans[n]
	wg.Wait()
	fmt.Println("all done in order")
}

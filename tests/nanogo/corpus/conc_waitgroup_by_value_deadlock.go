package main

import (
	"fmt"
	"sync"
)

func worker(id int, wg sync.WaitGroup) {
	defer wg.Done()
	fmt.Println("worker", id, "done")
}

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go worker(1, wg)
	wg.Wait()
	fmt.Println("all done")
}

package main

import (
	"errors"
	"fmt"
	"sync"
)

var ErrJob = errors.New("job failed")

func run(id int, wg *sync.WaitGroup, errs chan<- error) {
	defer wg.Done()
	defer func() {
		if r := recover(); r != nil {
			errs <- fmt.Errorf("job %d: %v", id, r)
		}
	}()
	if id%2 == 0 {
		panic(fmt.Errorf("even id: %w", ErrJob))
	}
}

func main() {
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for i := 1; i <= 4; i++ {
		wg.Add(1)
		go run(i, &wg, errs)
	}
	wg.Wait()
	close(errs)
	n := 0
	for range errs {
		n++
	}
	fmt.Println("failed jobs:", n)
	panic(ErrJob)
}

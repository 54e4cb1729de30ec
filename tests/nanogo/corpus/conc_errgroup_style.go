package main

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

type result struct {
	id  int
	val int
	err error
}

func work(id int) (int, error) {
	if id%3 == 0 {
		return 0, fmt.Errorf("task %d: %w", id, errors.New("divisible by three"))
	}
	return id * id, nil
}

func main() {
	var wg sync.WaitGroup
	results := make(chan result)
	for i := 1; i <= 7; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			v, err := work(id)
			results <- result{id, v, err}
		}(i)
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	var all []result
	for r := range results {
		all = append(all, r)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].id < all[j].id })
	var errs []string
	sum := 0
	for _, r := range all {
		if r.err != nil {
			errs = append(errs, r.err.Error())
			continue
		}
		sum += r.val
	}
	fmt.Println("sum:", sum)
	fmt.Println("errors:", errs)
}

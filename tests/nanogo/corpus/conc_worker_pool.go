package main

import (
	"fmt"
	"sort"
	"sync"
)

type result struct {
	job, value int
}

func worker(id int, jobs <-chan int, results chan<- result, wg *sync.WaitGroup) {
	defer wg.Done()
	for j := range jobs {
		results <- result{j, j * j}
	}
}

func main() {
	jobs := make(chan int, 100)
	results := make(chan result, 100)
	var wg sync.WaitGroup
	for w := 1; w <= 3; w++ {
		wg.Add(1)
		go worker(w, jobs, results, &wg)
	}
	for j := 1; j <= 9; j++ {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	close(results)
	var all []result
	for r := range results {
		all = append(all, r)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].job < all[j].job })
	for _, r := range all {
		fmt.Printf("job %d -> %d\n", r.job, r.value)
	}
}

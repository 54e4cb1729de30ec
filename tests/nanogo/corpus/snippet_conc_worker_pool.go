jobs := make(chan int, 20)
results := make(chan int, 20)
var wg sync.WaitGroup
for w := 0; w < 4; w++ {
	wg.Add(1)
	go func() {
		defer wg.Done()
		for j := range jobs {
			results <- j * j
		}
	}()
}
for i := 1; i <= 20; i++ {
	jobs <- i
}
close(jobs)
wg.Wait()
close(results)
var out []int
for r := range results {
	out = append(out, r)
}
sort.Ints(out)
fmt.Println(out)

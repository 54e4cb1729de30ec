results := make(chan int)
var wg sync.WaitGroup
wg.Add(1)
go func() {
	defer wg.Done()
	results <- 1
}()
wg.Wait()
fmt.Println(<-results)

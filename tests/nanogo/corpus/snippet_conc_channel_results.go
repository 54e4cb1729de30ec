results := make(chan int, 5)
for i := 1; i <= 5; i++ {
	go func(x int) {
		results <- x * 10
	}(i)
}
sum := 0
for i := 0; i < 5; i++ {
	sum += <-results
}
fmt.Println("total:", sum)

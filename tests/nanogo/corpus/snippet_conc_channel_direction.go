func producer(out chan<- int) {
	for i := 1; i <= 5; i++ {
		out <- i
	}
	close(out)
}

func squarer(in <-chan int, out chan<- int) {
	for v := range in {
		out <- v * v
	}
	close(out)
}

nums := make(chan int)
squares := make(chan int)
go producer(nums)
go squarer(nums, squares)
for s := range squares {
	fmt.Print(s, " ")
}
fmt.Println()

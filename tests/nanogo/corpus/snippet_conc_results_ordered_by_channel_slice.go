inputs := []int{5, 3, 8, 1}
chans := make([]chan int, len(inputs))
for i, n := range inputs {
	chans[i] = make(chan int, 1)
	go func(n int, out chan<- int) {
		sum := 0
		for k := 1; k <= n; k++ {
			sum += k
		}
		out <- sum
	}(n, chans[i])
}
for i, ch := range chans {
	fmt.Printf("sum(1..%d) = %d\n", inputs[i], <-ch)
}
